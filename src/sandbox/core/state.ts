/**
 * The sandbox's state: the store, the credentials, the limits, the request
 * log, the pending faults, the notifier and the caches built from them. All of
 * it is here so `reset()` forgets all of it.
 */
import type { Payment } from '../../contract/api-answers.js';
import { isContracted, type PaymentBrand } from '../../contract/brands.js';
import type { Redactor } from '../../contract/redaction.js';
import { Notifier, type NotificationOptions } from '../protocol/notifier.js';
import { SandboxClock, SandboxStore, type PaymentRecord } from '../gateway/store.js';
import { Faults } from '../controls/faults.js';
import { RequestLog } from '../controls/request-log.js';
import { resolveLimits, type SandboxLimits } from '../limits.js';
import type { SandboxRuntime, WidgetScript } from './runtime.js';

export type { LoggedRequest } from '../controls/request-log.js';

/** A final payment's answer (nothing about it can change any more) kept serialised for the next read (see `paymentReply` in protocol/routes.ts). */
export interface FinalBody {
  /** The body without its timestamp, as an object and serialised. */
  readonly body: Omit<Payment, 'timestamp'>;
  readonly text: string;
  readonly timestamp: string | undefined;
}

/** What the sandbox keeps to answer faster; derived from the state, so cleared with it. */
export interface SandboxCaches {
  /** Scrubbers for the last few tokens seen. */
  readonly tokenRedactors: Map<string | undefined, Redactor>;
  /**
   * Bodies of answered final payments, by their records: an entry lives as long as the store holds its payment, so
   * the cache is bounded by the store's own byte budget (a count alone let dropped payments' bodies pile up).
   */
  finalBodies: WeakMap<PaymentRecord, FinalBody>;
}

/**
 * A channel the sandbox knows and the brands it is configured for, as a KSA
 * merchant gets one entity for VISA/MASTER and another for MADA. Without
 * `brands` it takes every brand (a plain id means the same).
 */
export interface SandboxEntity {
  readonly id: string;
  readonly brands?: readonly PaymentBrand[];
}

export interface SandboxState {
  readonly store: SandboxStore;
  readonly tokens: ReadonlySet<string>;
  /** Each known entity (every token may use each), with its brands; undefined: every brand. */
  readonly entities: ReadonlyMap<string, ReadonlySet<string> | undefined>;
  /** The sandbox's own base URL, for the links it hands out (3DS pages). */
  base: string;
  widget: WidgetScript;
  readonly limits: Readonly<SandboxLimits>;
  readonly log: RequestLog;
  readonly faults: Faults;
  readonly caches: SandboxCaches;
  /** Delivers the store's changes to the merchant's notification URL, when one is configured. */
  readonly notifications: Notifier;
  /** Forgets all state and reads the widget script again. */
  reset(): void;
}

/** A fresh sandbox state: empty store on the runtime's clock, the runtime's widget script. */
export function createSandboxState(options: {
  tokens: readonly string[];
  entities: readonly (string | SandboxEntity)[];
  limits?: Partial<SandboxLimits>;
  idSeed?: string;
  notifications?: NotificationOptions;
  /** What the adapter's runtime gives: real time, randomness, the widget script. */
  runtime: SandboxRuntime;
}): SandboxState {
  const { runtime } = options;
  const clock = new SandboxClock(runtime.now);
  const limits = resolveLimits(options.limits);
  const store = new SandboxStore(clock, runtime.randomBytes, limits, options.idSeed);
  const notifications = new Notifier(clock, runtime.randomBytes, options.notifications);
  store.onChange = (change) => notifications.notify(change);
  clock.onAdvance = () => notifications.pump();
  return {
    store,
    notifications,
    tokens: new Set(options.tokens),
    entities: new Map(
      options.entities.map((entity) =>
        typeof entity === 'string' ? [entity, undefined] : [entity.id, entity.brands && new Set(entity.brands)],
      ),
    ),
    base: '',
    widget: runtime.widgetScript(),
    limits,
    log: new RequestLog(limits),
    faults: new Faults(),
    caches: { tokenRedactors: new Map(), finalBodies: new WeakMap() },
    reset() {
      this.store.clear();
      this.log.clear();
      this.faults.clear();
      this.caches.tokenRedactors.clear();
      this.caches.finalBodies = new WeakMap();
      this.notifications.clear();
      this.widget = runtime.widgetScript();
      clock.reset();
    },
  };
}

/**
 * True when the entity is not configured for the brand, which the platform
 * refuses with `600.200.201` ("Channel/Merchant not configured for this
 * payment method"). A request that names no brand is never refused here.
 */
export const brandNotConfigured = (state: SandboxState, entityId: string, brand: string | undefined): boolean =>
  !isContracted(state.entities.get(entityId), brand);
