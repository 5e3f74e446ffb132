/**
 * The sandbox's HTTP front: routes every seed endpoint (plus the widget's and
 * 3DS pages, and the `/__sandbox/` controls), checks the Bearer token and the
 * entity, keeps a masked request log and injects faults on request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESULT_CODES } from '../contract/result-codes.js';
import { maskParameter, validateParameters, type Operation, type ParameterError } from '../contract/rules.js';
import {
  createPayment,
  createRegistrationPayment,
  paymentBody,
  referencePayment,
  succeeded,
  summariseCard,
  testModeOf,
  threeDsStepOf,
  type PaymentOutcome,
} from './payments.js';
import { envelope, failure, invalidParameters, result } from './results.js';
import { CHECKOUT_LIFETIME_MS, DEFAULT_LIMITS, newId, SandboxClock, SandboxStore, type CheckoutRecord, type PaymentRecord, type StoreLimits } from './store.js';
import { challengeAnswer, executePage, methodPage, redirectOf } from './three-d-secure.js';
import { behaviourOf } from './triggers.js';
import { loadWidgetScript, type WidgetScript } from './widget-script.js';
import { BodyTooLargeError, parseForm, readBody, sendPreflight, sendReply, type FlatParams, type Reply } from './wire.js';

/** One line of the request log: what was asked and answered, card data masked. */
export interface LoggedRequest {
  /** ISO time on the sandbox clock. */
  readonly at: string;
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** HTTP status; 0 when the connection was dropped or left hanging by a fault. */
  readonly status: number;
  readonly resultCode?: string;
  /** The payment the request created or acted on, when there is one. */
  readonly paymentId?: string;
  /** Query and form parameters, `card.number` and `card.cvv` masked. */
  readonly params: Readonly<Record<string, string>>;
  /** The fault injected into this request, if any. */
  readonly fault?: FaultMode;
}

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
  readonly log: LoggedRequest[];
  readonly logLimit: number;
  readonly faults: Map<string, Fault>;
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
}

/** A fresh sandbox state: empty store on a real-time clock, the widget script read from disk. */
export function createSandboxState(options: { tokens: readonly string[]; entities: readonly string[]; limits?: Partial<StoreLimits>; logLimit?: number; idSeed?: string }): SandboxState {
  const clock = new SandboxClock();
  return {
    store: new SandboxStore(clock, { ...DEFAULT_LIMITS, ...options.limits }, options.idSeed),
    tokens: new Set(options.tokens),
    entities: new Set(options.entities),
    base: '',
    widget: loadWidgetScript(),
    log: [],
    logLimit: options.logLimit ?? 1000,
    faults: new Map(),
    reset() {
      this.store.clear();
      this.log.length = 0;
      this.faults.clear();
      this.widget = loadWidgetScript();
      clock.reset();
    },
  };
}

type Handler = (state: SandboxState, request: Request, match: RegExpExecArray) => Routed;

const json = (status: number, body: Record<string, unknown>, cors = false): Reply => ({ kind: 'json', status, body, ...(cors ? { cors } : {}) });
const reply = (value: Reply, paymentId?: string): Routed => (paymentId ? { reply: value, paymentId } : { reply: value });

function bearerAccepted(state: SandboxState, authorization: string | undefined): boolean {
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  return match !== null && state.tokens.has(match[1]!);
}

/**
 * The checks every merchant call goes through, in the gateway's order: the
 * token (401), the entityId's format (400), the entity (403), then every other
 * field (400). Answers the failure, or undefined when the call may proceed.
 */
function refusal(state: SandboxState, request: Request, operation: Operation, extra: readonly ParameterError[] = [], threeDSecure = false): Reply | undefined {
  const now = state.store.clock.now();
  if (!bearerAccepted(state, request.authorization)) return failure(401, RESULT_CODES.unauthorized, now, newId());
  const errors = [...validateParameters(operation, request.params, now, { threeDSecure }), ...extra];
  if (errors.some((error) => error.name === 'entityId')) return invalidParameters(errors, now, newId());
  if (!state.entities.has(request.params.entityId!)) return failure(403, RESULT_CODES.forbidden, now, newId());
  return errors.length ? invalidParameters(errors, now, newId()) : undefined;
}

const forbidden = (state: SandboxState) => failure(403, RESULT_CODES.forbidden, state.store.clock.now(), newId());

function paymentReply(state: SandboxState, payment: PaymentRecord, answeredCode = payment.result.code, ndc = payment.id): Reply {
  const body = paymentBody(payment, answeredCode === payment.result.code ? payment.result : result(answeredCode));
  if (payment.threeDs && !payment.threeDs.finished) body.redirect = redirectOf(payment, state.base);
  return json(200, envelope(body, state.store.clock.now(), ndc));
}

/** After a checkout's payment succeeds, its session lives 30 minutes more so the shop can read the status. */
function noteCheckoutPayment(state: SandboxState, payment: PaymentRecord): void {
  const checkout = payment.checkoutId === undefined ? undefined : state.store.checkouts.get(payment.checkoutId);
  if (checkout && succeeded(payment)) checkout.expiresAt = Math.max(checkout.expiresAt, state.store.clock.nowMs() + CHECKOUT_LIFETIME_MS);
}

// 1. POST /v1/checkouts
const createCheckout: Handler = (state, request) => {
  const refused = refusal(state, request, 'checkout');
  if (refused) return reply(refused);
  const { store } = state;
  const now = store.clock.nowMs();
  const checkout: CheckoutRecord = {
    id: store.nextId(),
    entityId: request.params.entityId!,
    createdAt: now,
    expiresAt: now + CHECKOUT_LIFETIME_MS,
    params: request.params,
    paymentIds: [],
    consumed: false,
    reads: [],
  };
  store.addCheckout(checkout);
  const body: Record<string, unknown> = { result: result(RESULT_CODES.checkoutCreated), id: checkout.id };
  if (request.params.integrity === 'true') body.integrity = state.widget.integrity;
  return reply(json(200, envelope(body, store.clock.now(), checkout.id)));
};

const noSession = (state: SandboxState, ndc: string) =>
  failure(400, RESULT_CODES.invalidParameter, state.store.clock.now(), ndc, { description: 'No payment session found for the requested id' });

const STATUS_READS_PER_MINUTE = 2;

/** A checkout's successful payment, else its latest attempt. */
function paymentOfCheckout(state: SandboxState, checkout: CheckoutRecord): PaymentRecord | undefined {
  const payments = checkout.paymentIds.map((id) => state.store.payment(id)).filter((payment): payment is PaymentRecord => payment !== undefined);
  return payments.find(succeeded) ?? payments.at(-1);
}

// 3. GET /v1/checkouts/{id}/payment
const checkoutPayment: Handler = (state, request, match) => {
  const refused = refusal(state, request, 'read');
  if (refused) return reply(refused);
  const id = match[1]!;
  const { store } = state;
  const checkout = store.checkouts.get(id);
  if (!checkout) return reply(noSession(state, id));
  if (checkout.entityId !== request.params.entityId) return reply(forbidden(state));
  const now = store.clock.nowMs();
  checkout.reads = checkout.reads.filter((at) => at > now - 60_000);
  if (checkout.reads.length >= STATUS_READS_PER_MINUTE) return reply(failure(429, RESULT_CODES.throttled, store.clock.now(), id));
  checkout.reads.push(now);
  if (!store.liveCheckout(id)) return reply(noSession(state, id));
  const payment = paymentOfCheckout(state, checkout);
  if (!payment) return reply(json(200, envelope({ result: result(RESULT_CODES.pending) }, store.clock.now(), id)));
  if (succeeded(payment)) checkout.consumed = true;
  const body = paymentBody(payment);
  return reply(json(200, envelope(body, store.clock.now(), id)), payment.id);
};

// 2. GET /v1/paymentWidgets.js?checkoutId=
const widgetScript: Handler = (state) => reply({ kind: 'script', bytes: state.widget.bytes });

const invalidCheckout = (state: SandboxState, id: string, description = 'invalid or expired checkout') =>
  ({ ...failure(400, RESULT_CODES.invalidParameter, state.store.clock.now(), id, { description }), cors: true }) as Reply;

// The widget's own calls, authorised by the checkout id as the real widget is.
const widgetCheckout: Handler = (state, _request, match) => {
  const id = match[1]!;
  const checkout = state.store.liveCheckout(id);
  if (!checkout) return reply(invalidCheckout(state, id));
  const { params } = checkout;
  const body = {
    result: result(RESULT_CODES.checkoutCreated),
    checkout: {
      id,
      amount: params.amount,
      currency: params.currency,
      paymentType: params.paymentType,
      ...(params.paymentBrand ? { paymentBrand: params.paymentBrand } : {}),
      expiresAt: new Date(checkout.expiresAt).toISOString(),
    },
  };
  return reply(json(200, envelope(body, state.store.clock.now(), id), true));
};

/** The fields the widget's card form sends; everything else comes from the checkout. */
const WIDGET_FIELDS = new Set(['paymentBrand', 'card.number', 'card.holder', 'card.expiryMonth', 'card.expiryYear', 'card.cvv', 'shopperResultUrl']);

const widgetPayment: Handler = (state, request, match) => {
  const id = match[1]!;
  const { store } = state;
  const checkout = store.liveCheckout(id);
  if (!checkout) return reply(invalidCheckout(state, id));
  const entered = Object.fromEntries(Object.entries(request.params).filter(([name]) => WIDGET_FIELDS.has(name)));
  const params: FlatParams = { ...checkout.params, ...entered };
  const behaviour = behaviourOf(params['card.number'] ?? '');
  const step = threeDsStepOf(params, behaviour);
  const errors = validateParameters('payment', params, store.clock.now(), { threeDSecure: step !== undefined }).filter((error) => WIDGET_FIELDS.has(error.name));
  if (errors.length) return reply({ ...invalidParameters(errors, store.clock.now(), id), cors: true } as Reply);
  if (paymentOfCheckout(state, checkout) && succeeded(paymentOfCheckout(state, checkout)!)) return reply(invalidCheckout(state, id, 'checkout already processed'));
  const outcome = createPayment(store, {
    entityId: checkout.entityId,
    params,
    behaviour,
    card: summariseCard(params)!,
    paymentBrand: params.paymentBrand!,
    checkoutId: id,
    ...(params.shopperResultUrl ? { shopperResultUrl: params.shopperResultUrl } : {}),
  });
  checkout.paymentIds.push(outcome.payment.id);
  noteCheckoutPayment(state, outcome.payment);
  const body: Record<string, unknown> = { result: result(outcome.answeredCode), id: outcome.payment.id };
  const { threeDs } = outcome.payment;
  if (threeDs && !threeDs.finished) body.redirect = redirectOf(outcome.payment, state.base);
  return reply(json(200, envelope(body, store.clock.now(), id), true), outcome.payment.id);
};

// 4. POST /v1/payments
const createServerPayment: Handler = (state, request) => {
  const { params } = request;
  const behaviour = behaviourOf(params['card.number'] ?? '');
  const refused = refusal(state, request, 'payment', [], threeDsStepOf(params, behaviour) !== undefined);
  if (refused) return reply(refused);
  const outcome: PaymentOutcome = createPayment(state.store, {
    entityId: params.entityId!,
    params,
    behaviour,
    card: summariseCard(params)!,
    paymentBrand: params.paymentBrand!,
    ...(params.shopperResultUrl ? { shopperResultUrl: params.shopperResultUrl } : {}),
  });
  return reply(paymentReply(state, outcome.payment, outcome.answeredCode), outcome.payment.id);
};

/** The payment a merchant call names, or the reply when it is not theirs to see. */
function ownPayment(state: SandboxState, request: Request, id: string, missingCode: string): PaymentRecord | Reply {
  const payment = state.store.payment(id);
  if (!payment) return failure(400, missingCode, state.store.clock.now(), newId());
  if (payment.entityId !== request.params.entityId) return forbidden(state);
  return payment;
}

const isReply = (value: PaymentRecord | Reply): value is Reply => 'kind' in value;

// 5. GET /v1/payments/{id} and 9. GET /v3/query/{id}
const readPayment: Handler = (state, request, match) => {
  const refused = refusal(state, request, 'read');
  if (refused) return reply(refused);
  const payment = ownPayment(state, request, match[1]!, RESULT_CODES.transactionNotFound);
  if (isReply(payment)) return reply(payment);
  return reply(paymentReply(state, payment), payment.id);
};

// 6. POST /v1/payments/{id}: capture (CP), refund (RF), reversal (RV)
const referenceCall: Handler = (state, request, match) => {
  const refused = refusal(state, request, 'reference');
  if (refused) return reply(refused);
  const target = ownPayment(state, request, match[1]!, RESULT_CODES.referenceNotFound);
  if (isReply(target)) return reply(target);
  const { params } = request;
  const now = state.store.clock.now();
  const mismatches: ParameterError[] = [];
  if (params.currency !== undefined && params.currency !== target.currency) {
    mismatches.push({ name: 'currency', value: params.currency, message: `must equal the currency of the referenced payment (${target.currency})` });
  }
  if (params.paymentType === 'CP' && testModeOf(params) !== target.testMode) {
    mismatches.push({ name: 'testMode', value: params.testMode ?? '', message: `must equal the testMode of the preauthorization (${target.testMode})` });
  }
  if (mismatches.length) return reply(invalidParameters(mismatches, now, target.id));
  const outcome = referencePayment(state.store, target, params);
  if ('refused' in outcome) return reply(failure(400, outcome.refused, now, target.id), target.id);
  return reply(paymentReply(state, outcome.payment), outcome.payment.id);
};

// 7. POST /v1/registrations/{id}/payments
const registrationCall: Handler = (state, request, match) => {
  const refused = refusal(state, request, 'registrationPayment');
  if (refused) return reply(refused);
  const id = match[1]!;
  const now = state.store.clock.now();
  if (!/^[A-Za-z0-9]{32}$/.test(id)) return reply(failure(400, '100.150.101', now, newId()));
  const registration = state.store.registrations.get(id);
  if (!registration) return reply(failure(400, RESULT_CODES.registrationNotFound, now, newId()));
  if (registration.entityId !== request.params.entityId) return reply(forbidden(state));
  const outcome = createRegistrationPayment(state.store, registration, request.params.entityId!, request.params);
  return reply(paymentReply(state, outcome.payment, outcome.answeredCode), outcome.payment.id);
};

// 9. GET /v3/query?merchantTransactionId=
const queryByMerchantTransactionId: Handler = (state, request) => {
  const reference = request.params.merchantTransactionId;
  const missing: ParameterError[] = reference ? [] : [{ name: 'merchantTransactionId', value: '', message: 'is required' }];
  const refused = refusal(state, request, 'read', missing);
  if (refused) return reply(refused);
  const now = state.store.clock.now();
  const payments = state.store.paymentsByMerchantTransactionId(request.params.entityId!, reference!);
  if (!payments.length) return reply(failure(400, RESULT_CODES.transactionNotFound, now, newId()));
  const body = { result: result(RESULT_CODES.approved), payments: payments.map((payment) => paymentBody(payment)) };
  return reply(json(200, envelope(body, now, newId())));
};

// 8. The 3DS pages, reached by the shopper's browser.
const threeDsPage =
  (page: typeof methodPage): Handler =>
  (state, request) => {
    const { reply: answer, paymentId } = page(state.store, request.params);
    const payment = paymentId === undefined ? undefined : state.store.payment(paymentId);
    if (payment) noteCheckoutPayment(state, payment);
    return reply(answer, paymentId);
  };

// Controls for tests.
const controlResult = (state: SandboxState, body: Record<string, unknown>) =>
  json(200, envelope({ result: result(RESULT_CODES.approved), ...body }, state.store.clock.now(), newId()));

const controlError = (state: SandboxState, name: string, value: string, message: string) => invalidParameters([{ name, value, message }], state.store.clock.now(), newId());

function requireBearer(handler: Handler): Handler {
  return (state, request, match) =>
    bearerAccepted(state, request.authorization) ? handler(state, request, match) : reply(failure(401, RESULT_CODES.unauthorized, state.store.clock.now(), newId()));
}

const readClock: Handler = (state) => reply(controlResult(state, { now: state.store.clock.now().toISOString() }));

const advanceClock: Handler = (state, request) => {
  const text = request.params.advance ?? '';
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(seconds)) return reply(controlError(state, 'advance', text, 'must be a non-negative number of seconds'));
  state.store.clock.advance(seconds);
  state.store.sweep();
  return readClock(state, request, /./.exec('.')!);
};

const resetState: Handler = (state) => {
  state.reset();
  return reply(controlResult(state, {}));
};

const readLog: Handler = (state) => reply(controlResult(state, { requests: state.log }));

const listFaults = (state: SandboxState) => [...state.faults.values()].map(({ path, mode, remaining }) => ({ path, mode, count: String(remaining) }));

const addFault: Handler = (state, request) => {
  const { path = '', mode = '', count = '1' } = request.params;
  if (!path.startsWith('/') || path.startsWith('/__sandbox/')) return reply(controlError(state, 'path', path, 'must be a gateway path such as /v1/payments'));
  if (!FAULT_MODES.includes(mode as FaultMode)) return reply(controlError(state, 'mode', mode, `must be one of ${FAULT_MODES.join(', ')}`));
  if (!/^\d{1,6}$/.test(count)) return reply(controlError(state, 'count', count, 'must be a whole number of requests'));
  if (count === '0') state.faults.delete(path);
  else state.faults.set(path, { path, mode: mode as FaultMode, remaining: Number(count) });
  return reply(controlResult(state, { faults: listFaults(state) }));
};

const readFaults: Handler = (state) => reply(controlResult(state, { faults: listFaults(state) }));

interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly handler: Handler;
  /** Answers CORS for the browser-side widget. */
  readonly cors?: boolean;
}

const ID = '([^/]+)';
const ROUTES: readonly Route[] = [
  { method: 'POST', pattern: /^\/v1\/checkouts$/, handler: createCheckout },
  { method: 'GET', pattern: new RegExp(`^/v1/checkouts/${ID}/payment$`), handler: checkoutPayment },
  { method: 'GET', pattern: /^\/v1\/paymentWidgets\.js$/, handler: widgetScript },
  { method: 'GET', pattern: new RegExp(`^/v1/checkouts/${ID}/widget$`), handler: widgetCheckout, cors: true },
  { method: 'POST', pattern: new RegExp(`^/v1/checkouts/${ID}/widget/payments$`), handler: widgetPayment, cors: true },
  { method: 'POST', pattern: /^\/v1\/payments$/, handler: createServerPayment },
  { method: 'GET', pattern: new RegExp(`^/v1/payments/${ID}$`), handler: readPayment },
  { method: 'POST', pattern: new RegExp(`^/v1/payments/${ID}$`), handler: referenceCall },
  { method: 'POST', pattern: new RegExp(`^/v1/registrations/${ID}/payments$`), handler: registrationCall },
  { method: 'GET', pattern: new RegExp(`^/v3/query/${ID}$`), handler: readPayment },
  { method: 'GET', pattern: /^\/v3\/query$/, handler: queryByMerchantTransactionId },
  { method: 'POST', pattern: /^\/v1\/threeDSecure\/method$/, handler: threeDsPage(methodPage) },
  { method: 'POST', pattern: /^\/v1\/threeDSecure\/execute$/, handler: threeDsPage(executePage) },
  { method: 'POST', pattern: /^\/v1\/threeDSecure\/challenge$/, handler: threeDsPage(challengeAnswer) },
  { method: 'GET', pattern: /^\/__sandbox\/clock$/, handler: requireBearer(readClock) },
  { method: 'POST', pattern: /^\/__sandbox\/clock$/, handler: requireBearer(advanceClock) },
  { method: 'POST', pattern: /^\/__sandbox\/reset$/, handler: requireBearer(resetState) },
  { method: 'GET', pattern: /^\/__sandbox\/requests$/, handler: requireBearer(readLog) },
  { method: 'GET', pattern: /^\/__sandbox\/faults$/, handler: requireBearer(readFaults) },
  { method: 'POST', pattern: /^\/__sandbox\/faults$/, handler: requireBearer(addFault) },
];

/** Answers one parsed request without HTTP around it: the server's core, also used by the benchmark. */
export function route(state: SandboxState, request: Request): Routed {
  for (const candidate of ROUTES) {
    if (candidate.method !== request.method) continue;
    const match = candidate.pattern.exec(request.path);
    if (match) return candidate.handler(state, request, match);
  }
  const known = ROUTES.some((candidate) => candidate.pattern.test(request.path));
  return reply(failure(known ? 405 : 404, RESULT_CODES.invalidParameter, state.store.clock.now(), newId(), { description: `no endpoint ${request.method} ${request.path}` }));
}

const systemError = (state: SandboxState, description: string) =>
  failure(500, '800.800.800', state.store.clock.now(), newId(), description === '' ? {} : { description });

function takeFault(state: SandboxState, path: string): FaultMode | undefined {
  const fault = state.faults.get(path);
  if (!fault) return undefined;
  if (--fault.remaining <= 0) state.faults.delete(path);
  return fault.mode;
}

function record(state: SandboxState, entry: LoggedRequest): void {
  state.log.push(entry);
  if (state.log.length > state.logLimit) state.log.splice(0, state.log.length - state.logLimit);
}

function masked(params: FlatParams): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) safe[name] = maskParameter(name, value);
  return safe;
}

const resultCodeOf = (answer: Reply): string | undefined => {
  if (answer.kind === 'json') return (answer.body.result as { code?: string } | undefined)?.code;
  if (answer.kind === 'redirect') return answer.resultCode;
  return undefined;
};

/** Serves one HTTP request. Never throws: a bug answers HTTP 500 in the gateway's shape. */
export async function handle(state: SandboxState, incoming: IncomingMessage, response: ServerResponse, onError: (error: unknown) => void): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://sandbox');
  const method = incoming.method ?? 'GET';
  const path = url.pathname;
  if (method === 'OPTIONS') {
    if (ROUTES.some((candidate) => candidate.cors && candidate.pattern.test(path))) return sendPreflight(response);
    return sendReply(response, failure(405, RESULT_CODES.invalidParameter, state.store.clock.now(), newId(), { description: 'no preflight here' }));
  }
  let params: FlatParams;
  try {
    params = method === 'POST' ? parseForm(await readBody(incoming)) : parseForm(url.search.slice(1));
  } catch (error) {
    const description = error instanceof BodyTooLargeError ? 'request body too large' : 'unreadable request body';
    const answer = failure(400, RESULT_CODES.invalidParameter, state.store.clock.now(), newId(), { description });
    record(state, { at: state.store.clock.now().toISOString(), method, path, status: 400, resultCode: RESULT_CODES.invalidParameter, params: {} });
    if (!response.destroyed) sendReply(response, answer);
    return;
  }
  const at = state.store.clock.now().toISOString();
  const fault = path.startsWith('/__sandbox/') ? undefined : takeFault(state, path);
  const base = { at, method, path, params: masked(params), ...(fault ? { fault } : {}) };
  if (fault === 'hang') {
    record(state, { ...base, status: 0 });
    return;
  }
  if (fault === 'error') {
    const answer = systemError(state, 'The payment system is currently unavailable (fault injected by gw-sandbox).');
    record(state, { ...base, status: 500, resultCode: resultCodeOf(answer)! });
    return sendReply(response, answer);
  }
  let routed: Routed;
  try {
    routed = route(state, { method, path, params, authorization: incoming.headers.authorization });
  } catch (error) {
    onError(error);
    routed = reply(systemError(state, ''));
  }
  const status = fault === 'drop' ? 0 : routed.reply.kind === 'json' || routed.reply.kind === 'html' ? routed.reply.status : routed.reply.kind === 'redirect' ? 303 : 200;
  const resultCode = resultCodeOf(routed.reply);
  record(state, { ...base, status, ...(resultCode ? { resultCode } : {}), ...(routed.paymentId ? { paymentId: routed.paymentId } : {}) });
  if (fault === 'drop') {
    incoming.socket.destroy();
    return;
  }
  sendReply(response, routed.reply);
}
