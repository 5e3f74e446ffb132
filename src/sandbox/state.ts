/**
 * The sandbox's state and the shapes its routes share: the store, the
 * credentials, the limits, the request log and the pending faults.
 */
import { createRedactor, IDENTIFIER_NAMES, type Redactor } from '../contract/redaction.js';
import { resolveLimits, type SandboxLimits } from './limits.js';
import { Notifier, type NotificationOptions } from './notifications.js';
import { RequestLog } from './request-log.js';
import { SandboxClock, SandboxStore } from './store.js';
import { loadWidgetScript, type WidgetScript } from './widget-script.js';
import type { AnswerBody, FlatParams, Reply } from './wire.js';

export type { LoggedRequest } from './request-log.js';

/** `hang`: never answer; `error`: HTTP 500 before processing; `drop`: process, then close the socket unanswered. */
export type FaultMode = 'hang' | 'error' | 'drop';
export const FAULT_MODES: readonly FaultMode[] = ['hang', 'error', 'drop'];

export interface Fault {
  readonly path: string;
  readonly mode: FaultMode;
  remaining: number;
}

export interface SandboxState {
  readonly store: SandboxStore;
  readonly tokens: ReadonlySet<string>;
  readonly entities: ReadonlySet<string>;
  /** The sandbox's own base URL, for the links it hands out (3DS pages). */
  base: string;
  widget: WidgetScript;
  readonly limits: Readonly<SandboxLimits>;
  readonly log: RequestLog;
  readonly faults: Map<string, Fault>;
  /** Delivers the store's changes to the merchant's notification URL, when one is configured. */
  readonly notifications: Notifier;
  /** Re-reads the widget script and forgets all state. */
  reset(): void;
}

export interface Routed {
  readonly reply: Reply;
  readonly paymentId?: string;
}

export interface Request {
  readonly method: string;
  readonly path: string;
  readonly params: FlatParams;
  readonly authorization: string | undefined;
  /** The caller's IP address, as the socket saw it (IPv4 without the `::ffff:` prefix). */
  readonly remoteAddress?: string | undefined;
}

/** A fresh sandbox state: empty store on a real-time clock, the widget script read from disk. */
export function createSandboxState(options: { tokens: readonly string[]; entities: readonly string[]; limits?: Partial<SandboxLimits>; idSeed?: string; notifications?: NotificationOptions }): SandboxState {
  const clock = new SandboxClock();
  const limits = resolveLimits(options.limits);
  const store = new SandboxStore(clock, limits, options.idSeed);
  const notifications = new Notifier(clock, options.notifications);
  store.onChange = (change) => notifications.notify(change);
  clock.onAdvance = () => notifications.pump();
  return {
    store,
    notifications,
    tokens: new Set(options.tokens),
    entities: new Set(options.entities),
    base: '',
    widget: loadWidgetScript(),
    limits,
    log: new RequestLog(limits),
    faults: new Map(),
    reset() {
      this.store.clear();
      this.log.clear();
      this.faults.clear();
      this.notifications.clear();
      this.widget = loadWidgetScript();
      clock.reset();
    },
  };
}

export type Handler = (state: SandboxState, request: Request, match: RegExpExecArray) => Routed;

export const json = (status: number, body: AnswerBody, cors = false): Reply => ({ kind: 'json', status, body, ...(cors ? { cors } : {}) });
export const reply = (value: Reply, paymentId?: string): Routed => (paymentId ? { reply: value, paymentId } : { reply: value });

const bearerToken = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1];

export function bearerAccepted(state: SandboxState, authorization: string | undefined): boolean {
  const token = bearerToken(authorization);
  return token !== undefined && state.tokens.has(token);
}

/**
 * The scrubber for everything built around one request: its token, card
 * number and security code wherever they appear, and any card number or
 * labelled secret by shape; its merchantTransactionId (the key a merchant
 * looks the payment up by) only of the known secrets.
 */
export function redactorOf(params: Readonly<FlatParams>, authorization: string | undefined): Redactor {
  const accessToken = bearerToken(authorization);
  const { 'card.number': cardNumber, 'card.cvv': cvv, merchantTransactionId } = params;
  if (cardNumber !== undefined || cvv !== undefined || merchantTransactionId !== undefined) return createRedactor({ accessToken, cardNumber, cvv, keep: [merchantTransactionId] });
  // Most calls (reads, captures) know no secret but their token: one scrubber per token serves them all.
  let redactor = TOKEN_REDACTORS.get(accessToken);
  if (!redactor) {
    redactor = createRedactor({ accessToken });
    if (TOKEN_REDACTORS.size >= 16) TOKEN_REDACTORS.delete(TOKEN_REDACTORS.keys().next().value);
    TOKEN_REDACTORS.set(accessToken, redactor);
  }
  return redactor;
}

/** Scrubbers for the last few tokens seen (any text a request sends as a token, so bounded). */
const TOKEN_REDACTORS = new Map<string | undefined, Redactor>();

/** Fields only the payment engine reads (to a card's bin, last four digits and behaviour), never kept nor answered as sent. */
const CARD_SECRETS: ReadonlySet<string> = new Set(['card.number', 'card.cvv']);

/**
 * The request's fields as the sandbox may keep and answer them, after they
 * were validated as sent: every value scrubbed of secrets, so no record, echo,
 * report or redirect can hold a card number, security code or token (a card
 * number typed into `card.holder` or a custom parameter included).
 */
export function storable(request: Request): FlatParams {
  const redact = redactorOf(request.params, request.authorization);
  const kept: FlatParams = Object.create(null) as FlatParams;
  for (const name in request.params) {
    const value = request.params[name]!;
    kept[CARD_SECRETS.has(name) ? name : redact(name)] = CARD_SECRETS.has(name) ? value : IDENTIFIER_NAMES.has(name) ? redact.known(value) : redact(value);
  }
  return kept;
}

export interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly handler: Handler;
  /** Answers CORS for the browser-side widget. */
  readonly cors?: boolean;
}
