// The sandbox runs on Node and its types name Node's (http, Buffer): they come with it, also under
// TypeScript 6's default `"types": []`, which includes no @types package by itself.
/// <reference types="node" preserve="true" />
/**
 * gw-elements/sandbox: a faithful, stateful local emulator of the gateway, for
 * tests and demos. It calls out to nothing but the notification URL it is given.
 */
import type { AddressInfo } from 'node:net';
import { isPaymentBrand, PAYMENT_BRANDS } from '../contract/brands.js';
import { MASKED_TOKEN } from '../contract/redaction.js';
import type { SandboxLimits } from './limits.js';
import type { NotificationDelivery, NotificationOptions } from './protocol/notifier.js';
import { NODE_RUNTIME } from './node/runtime.js';
import { createSandboxServer, LISTEN_BACKLOG } from './node/server.js';
import { checkFault, isFaultRefusal, TOO_MANY_FAULTS, type FaultMode } from './controls/faults.js';
import { createSandboxState, type LoggedRequest, type SandboxEntity } from './core/state.js';

export type { FaultMode } from './controls/faults.js';
export type { LoggedRequest, SandboxEntity } from './core/state.js';
export { DEFAULT_LIMITS, type SandboxLimits } from './limits.js';
export {
  NOTIFICATION_LIMITS,
  NOTIFICATION_RETRY_DELAYS_SECONDS,
  type NotificationAttempt,
  type NotificationDelivery,
  type NotificationOptions,
} from './protocol/notifier.js';
export { CARDS, TEST_CARDS, behaviourOf, type CardBehaviour, type TestCard } from './gateway/triggers.js';
export { createMerchantProxy, type MerchantProxy, type MerchantProxyOptions, type ProxiedSandbox } from './node/merchant-proxy.js';

/** The fixed test token the sandbox accepts unless told otherwise. */
export const DEFAULT_TOKEN = 'OGFjN2E0Yzc5Mzk0YmRjODAxOTM5NzM2ZjFhNzA2NDF8c2FuZGJveA==';
import { DEFAULT_ENTITIES } from './defaults.js';

export { DEFAULT_ENTITIES, DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID } from './defaults.js';

export interface SandboxOptions {
  /** Interface to bind; 127.0.0.1 unless given. */
  host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Bearer tokens accepted. */
  tokens?: string[];
  /**
   * The channels (entityId, AN32) known, each with the brands it is configured
   * for (`{ id, brands }`; a plain id takes every brand). Every token may use
   * every entity. A brand an entity lacks is refused with `600.200.201`, as
   * the platform refuses it. `DEFAULT_ENTITIES` unless given.
   */
  entities?: readonly (string | SandboxEntity)[];
  /** No start banner on stdout. */
  quiet?: boolean;
  /**
   * Sizes in bytes and counts that bound every request, the store and the
   * request log (`DEFAULT_LIMITS` unless given; see the README's limits table).
   */
  limits?: Partial<SandboxLimits>;
  /**
   * Makes checkout, payment and registration ids deterministic: the same seed
   * gives the same ids in the same order (again after a reset). Without it ids
   * are random and unguessable, as the widget endpoints trust the checkout id.
   */
  idSeed?: string;
  /**
   * Sends the merchant an encrypted notification for every payment created or
   * changed and every registration created or deleted (a secret is generated
   * when none is given). Can also be set later with `notifications.configure`.
   */
  notifications?: NotificationOptions;
}

/** The notifications the sandbox sends, and the controls over them. */
export interface SandboxNotifications {
  /** The merchant's URL, or undefined when notifications are off. */
  readonly url: string | undefined;
  /** The listener's secret (64 hex characters), for `decryptNotification`. */
  readonly secret: string | undefined;
  /** Sends later notifications to `url` with `secret` (generated when absent). */
  configure(options: NotificationOptions): void;
  /** Every delivery kept, oldest first: what it was about, its state and attempts (never the payload or the secret). */
  list(): NotificationDelivery[];
  /** Sends one again now, with a fresh retry budget; false when the id is unknown. */
  resend(id: string): boolean;
  /** Resolves once every delivery due now has been attempted; retries wait for the clock (`clock.advance`) or real time. */
  idle(): Promise<void>;
}

export interface SandboxStats {
  readonly checkouts: number;
  readonly payments: number;
  readonly registrations: number;
  /** Entries in the request log. */
  readonly requests: number;
  /** Bytes the stored checkouts, payments and saved cards count against `limits.storeBytes`. */
  readonly storeBytes: number;
  /** Bytes the request log counts against `limits.logBytes`. */
  readonly logBytes: number;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly tokens: readonly string[];
  /** The ids of the known entities, the first being the default one. */
  readonly entities: readonly string[];
  /** Each known entity with its brands (`brands` absent: every brand). */
  readonly entityBrands: readonly SandboxEntity[];
  /** The sandbox's clock: advance it to expire checkouts or lift the per-minute limit without waiting. */
  readonly clock: { now(): Date; advance(seconds: number): void };
  /** Forgets every checkout, payment, registration, logged request, fault and notification; the clock returns to real time. */
  reset(): void;
  readonly notifications: SandboxNotifications;
  /** The recent requests, oldest first, card data masked. */
  requests(): LoggedRequest[];
  /**
   * Makes the next `count` requests to `path` (exact path, e.g. `/v1/payments`) hang, fail with HTTP 500, or drop after
   * processing; `count` 0 clears the path's fault. A `RangeError` for a path not of the gateway (`/__sandbox/…`), another
   * mode or a count not a whole number from 0 to 999999, as the `/__sandbox/faults` control refuses them.
   */
  fault(path: string, mode: FaultMode, count?: number): void;
  /** What the sandbox holds now: memory stays bounded by the limits and the sweep of expired checkouts. */
  stats(): SandboxStats;
  /** Stops listening and cuts every open connection, hanging ones included. */
  close(): Promise<void>;
}

/** The entities as given, checked: an AN32 id, each once, and brands the platform names. */
function entitySetUp(given: readonly (string | SandboxEntity)[]): SandboxEntity[] {
  const entities = given.map((entity) =>
    typeof entity === 'string' ? { id: entity } : { id: entity.id, ...(entity.brands ? { brands: [...entity.brands] } : {}) },
  );
  const ids = new Set<string>();
  for (const { id, brands } of entities) {
    if (typeof id !== 'string' || !/^[A-Za-z0-9]{32}$/.test(id))
      throw new RangeError(`entity must be 32 letters or digits (AN32), not ${String(id)}`);
    if (ids.has(id)) throw new RangeError(`entity ${id} is given twice`);
    ids.add(id);
    const unknown = brands?.filter((brand) => !isPaymentBrand(brand));
    if (unknown?.length)
      throw new RangeError(`entity ${id}: ${unknown.join(', ')} is not a brand the gateway names (${PAYMENT_BRANDS.join(', ')})`);
  }
  return entities;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const tokens = options.tokens ?? [DEFAULT_TOKEN];
  const entityBrands = entitySetUp(options.entities ?? DEFAULT_ENTITIES);
  const entities = entityBrands.map((entity) => entity.id);
  const state = createSandboxState({
    tokens,
    entities: entityBrands,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.idSeed !== undefined ? { idSeed: options.idSeed } : {}),
    ...(options.notifications ? { notifications: options.notifications } : {}),
    runtime: NODE_RUNTIME,
  });
  const { notifications } = state;
  const { clock } = state.store;
  const server = createSandboxServer(state, (error) => console.error('gw-sandbox: unexpected error', error));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 8080, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  state.base = url;
  if (!options.quiet) {
    console.log(`gw-sandbox listening on ${url}`);
    // The published default token is shown (every doc names it); a token of the caller's own is a credential, never printed.
    console.log(`  Authorization: Bearer ${tokens.map((token) => (token === DEFAULT_TOKEN ? token : MASKED_TOKEN)).join(' | ')}`);
    console.log(`  entityId: ${entityBrands.map((entity) => `${entity.id} (${entity.brands?.join(' ') ?? 'every brand'})`).join(', ')}`);
    // A generated secret is printed for the listener to use; one the caller gave is theirs already, and may be a real one.
    const secret = options.notifications?.secret === undefined ? notifications.secret : 'as given';
    if (notifications.url) console.log(`  notifications: ${notifications.url} (secret ${secret})`);
    console.log(
      `  For tests and demos only: a local emulator of the gateway; it moves no money and calls out to ${notifications.url ? 'nothing but the notification URL' : 'nothing'}.`,
    );
  }
  return {
    url,
    tokens,
    entities,
    entityBrands,
    clock: {
      now: () => clock.now(),
      advance: (seconds: number) => {
        clock.advance(seconds);
        state.store.sweep();
      },
    },
    reset: () => state.reset(),
    notifications: {
      get url() {
        return notifications.url;
      },
      get secret() {
        return notifications.secret;
      },
      configure: (notificationOptions) => notifications.configure(notificationOptions),
      list: () => notifications.list(),
      resend: (id) => notifications.resend(id),
      idle: () => notifications.idle(),
    },
    requests: () => state.log.entries().map((entry) => ({ ...entry, params: { ...entry.params } })),
    fault(path, mode, count = 1) {
      const fault = checkFault(path, mode, count);
      if (isFaultRefusal(fault)) throw new RangeError(`fault ${fault.name} ${fault.message}`);
      if (!state.faults.set(fault)) throw new RangeError(`fault path ${TOO_MANY_FAULTS}`);
    },
    stats: () => ({
      checkouts: state.store.checkouts.size,
      payments: state.store.payments.size,
      registrations: state.store.registrations.size,
      requests: state.log.size,
      storeBytes: state.store.bytes,
      logBytes: state.log.bytes,
    }),
    close: async () => {
      await notifications.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
