/**
 * The sandbox's routes: every seed endpoint, the widget's own endpoints and the
 * 3DS pages, each checking the Bearer token and the entity where the gateway does.
 */
import type { CheckoutCreated, Deregistration, Payment, PaymentList } from '../../contract/answers.js';
import type { Redactor } from '../../contract/redaction.js';
import { CHECKOUT_LIFETIME_MS, STATUS_CALL_WINDOW_MS, STATUS_CALLS_PER_MINUTE } from '../../contract/limits.js';
import { amountTooLow } from '../../contract/amount.js';
import { NO_PAYMENT_SESSION_DESCRIPTION, RESULT_CODES } from '../../contract/result-codes.js';
import { validateReportSearch } from '../../contract/report-filters.js';
import { validateParameters, type Operation, type ParameterError } from '../../contract/rules.js';
import { CONTROL_ROUTES } from '../controls/controls.js';
import { fieldBytes, RECORD_OVERHEAD_BYTES } from '../limits.js';
import {
  approvalCode,
  createCardPayment,
  createPayment,
  noteCheckoutPayment,
  paymentBody,
  referencePayment,
  succeeded,
  testModeOf,
  threeDsStepOf,
} from '../gateway/payments.js';
import { searchPayments } from '../gateway/reports.js';
import { payWithRegistration, registrationBody, repeatRefusal, storeCard } from '../gateway/registrations.js';
import { savedCardPayment, SAVED_CARD_ROUTES, savedCardsAnswer } from './saved-card-routes.js';
import { isRegistrationCheckout } from '../../contract/rules.js';
import { envelope, envelopeJson, failure, invalidParameters, result } from './envelope.js';
import { brandNotConfigured, type SandboxState, type FinalBody } from '../core/state.js';
import type { CheckoutAnswer, PaymentAnswer } from '../../contract/widget-answers.js';
import { bearerAccepted, redactorOf, storable } from './auth.js';
import { json, reply, type Handler, type Request, type RequestContext, type Route, type Routed } from './context.js';
import { THREE_DS_TIMEOUT_MS, type CheckoutRecord, type PaymentRecord, type RegistrationRecord } from '../gateway/store.js';
import { challengeAnswer, executePage, methodPage, redirectOf } from './three-d-secure-pages.js';
import { behaviourOf } from '../gateway/triggers.js';
import { walletBehaviourOf } from '../gateway/wallets.js';
import { isWalletBrand, type WalletBrand } from '../../contract/brands.js';
import type { FlatParams, Reply } from './wire.js';

/** The operations whose request is kept as a checkout or a payment, so its size counts. */
const STORING: ReadonlySet<Operation> = new Set(['checkout', 'payment', 'reference', 'registration', 'registrationPayment']);

/**
 * The checks every merchant call goes through, in the gateway's order: the
 * token (401), the entityId's format (400), the entity (403), then every other
 * field (400), then the entity's brands (400 `600.200.201` for `brand`, the
 * request's `paymentBrand` unless given), then the money rules: what would be
 * stored fits `recordBytes`, and money moves only in amounts above 0.00 (400
 * `100.550.300`). Answers the failure, or undefined when the call may proceed.
 */
export function refusal(
  context: RequestContext,
  operation: Operation,
  extra: readonly ParameterError[] = [],
  threeDSecure = false,
  brand = context.request.params.paymentBrand,
): Reply | undefined {
  const { state, request, now } = context;
  // A refused checkout creation names a checkout that never was, as the platform's does.
  const ndc = () => (operation === 'checkout' ? state.store.checkoutNdc() : context.ndc());
  if (!bearerAccepted(state, request.authorization)) return failure(401, RESULT_CODES.unauthorized, now, ndc());
  const errors = [...validateParameters(operation, request.params, now, { threeDSecure }), ...extra];
  if (errors.some((error) => error.name === 'entityId')) return invalidParameters(errors, now, ndc());
  if (!state.entities.has(request.params.entityId!)) return failure(403, RESULT_CODES.forbidden, now, ndc());
  if (errors.length) return invalidParameters(errors, now, ndc());
  if (brandNotConfigured(state, request.params.entityId!, brand)) return failure(400, RESULT_CODES.brandNotConfigured, now, ndc());
  if (!STORING.has(operation)) return undefined;
  const bytes = RECORD_OVERHEAD_BYTES + fieldBytes(request.params);
  if (bytes > state.limits.recordBytes) {
    return failure(400, RESULT_CODES.invalidParameter, now, ndc(), {
      description: `request fields take ${bytes} bytes; a stored record holds at most ${state.limits.recordBytes}`,
    });
  }
  const { amount, paymentType } = request.params;
  if (amount !== undefined && amountTooLow(paymentType, amount)) return failure(400, RESULT_CODES.amountTooLow, now, ndc());
  return undefined;
}

export const forbidden = ({ now, ndc }: RequestContext) => failure(403, RESULT_CODES.forbidden, now, ndc());

/** The redirect the shopper needs while a payment waits for its 3DS step. */
export const pendingRedirect = (state: SandboxState, payment: PaymentRecord) =>
  payment.threeDs && !payment.threeDs.finished ? { redirect: redirectOf(payment, state.base) } : {};

/** How many final payments keep their serialised body for the next read. */
const FINAL_BODIES = 512;
/**
 * Bodies of recently answered payments that had no 3DS step: their outcome
 * was decided when they were made and their body can no longer change, so a
 * read again costs one concatenation, not a render and a serialisation (issue
 * 14: get-payment throughput). Bounded: the oldest entry goes first. Kept in
 * the state (`caches.finalBodies`), so a reset forgets them.
 */
function finalBody(state: SandboxState, payment: PaymentRecord): FinalBody {
  const finalBodies = state.caches.finalBodies;
  let kept = finalBodies.get(payment);
  if (!kept) {
    const { timestamp, ...body } = paymentBody(payment);
    kept = { body, text: JSON.stringify(body), timestamp: typeof timestamp === 'string' ? timestamp : undefined };
    finalBodies.set(payment, kept);
    if (finalBodies.size > FINAL_BODIES) finalBodies.delete(finalBodies.keys().next().value!);
  }
  return kept;
}

/**
 * A payment response, with the redirect while its 3DS step is pending. The
 * answer to the request that made the payment (`synchronous`) carries the
 * answer's time without milliseconds (`2017-11-28 13:22:03+0000`); a read-back
 * the transaction's own, with them, as the platform's recordings show.
 */
function paymentReply(
  { state, now }: RequestContext,
  payment: PaymentRecord,
  answeredCode = payment.result.code,
  synchronous = true,
): Reply {
  if (payment.threeDs === undefined && answeredCode === payment.result.code) {
    const { body, text, timestamp } = finalBody(state, payment);
    return {
      kind: 'json',
      status: 200,
      body,
      text: envelopeJson(text, now, state.store.ndc(payment.entityId), synchronous ? undefined : timestamp),
    };
  }
  const { timestamp, ...body } = paymentBody(payment, answeredCode === payment.result.code ? payment.result : result(answeredCode));
  return json(
    200,
    envelope(
      { ...body, ...(synchronous ? {} : { timestamp }), ...pendingRedirect(state, payment) },
      now,
      state.store.ndc(payment.entityId),
    ),
  );
}

// 1. POST /v1/checkouts
const createCheckout: Handler = (context) => {
  const { state, request, now, redact } = context;
  const refused = refusal(context, 'checkout');
  if (refused) return reply(refused);
  const { store } = state;
  const createdAt = now.getTime();
  const checkout: CheckoutRecord = {
    id: store.nextCheckoutId(),
    entityId: request.params.entityId!,
    createdAt,
    expiresAt: createdAt + CHECKOUT_LIFETIME_MS,
    // Card data has no place in a checkout: it is never kept, even when a merchant sends it.
    params: Object.fromEntries(Object.entries(storable(request, redact)).filter(([name]) => !name.startsWith('card.'))),
    paymentIds: [],
    attemptsOpenUntil: 0,
    consumed: false,
    reads: [],
  };
  store.addCheckout(checkout);
  const body: CheckoutCreated = {
    result: result(RESULT_CODES.checkoutCreated),
    id: checkout.id,
    ...(request.params.integrity === 'true' ? { integrity: state.widget.integrity } : {}),
  };
  return reply(json(200, envelope(body, now, checkout.id)));
};

export const noSession = ({ now, ndc }: RequestContext) =>
  failure(400, RESULT_CODES.invalidParameter, now, ndc(), { description: NO_PAYMENT_SESSION_DESCRIPTION });

/** A checkout's successful payment, else its latest attempt. */
export function paymentOfCheckout(state: SandboxState, checkout: CheckoutRecord): PaymentRecord | undefined {
  const payments = checkout.paymentIds
    .map((id) => state.store.payment(id))
    .filter((payment): payment is PaymentRecord => payment !== undefined);
  return payments.find(succeeded) ?? payments.at(-1);
}

/**
 * A checkout a status read may see, counted against its limit of reads a
 * minute, or the reply when the read is refused (credentials, parameters), or
 * the checkout is unknown, another entity's, read too often, expired or consumed. Shared by the payment's and the registration's read.
 */
export function readableCheckout(context: RequestContext, id: string): CheckoutRecord | Reply {
  const refused = refusal(context, 'read');
  if (refused) return refused;
  const { state, request, now } = context;
  const { store } = state;
  const checkout = store.checkouts.get(id);
  if (!checkout) return noSession(context);
  if (checkout.entityId !== request.params.entityId) return forbidden(context);
  const nowMs = now.getTime();
  checkout.reads = checkout.reads.filter((at) => at > nowMs - STATUS_CALL_WINDOW_MS);
  if (checkout.reads.length >= STATUS_CALLS_PER_MINUTE) return failure(429, RESULT_CODES.throttled, now, id);
  checkout.reads.push(nowMs);
  if (!store.liveCheckout(id)) return noSession(context);
  return checkout;
}

// 3. GET /v1/checkouts/{id}/payment
const checkoutPayment: Handler = (context, match) => {
  const { state, now } = context;
  const id = match[1]!;
  const checkout = readableCheckout(context, id);
  if ('kind' in checkout) return reply(checkout);
  const payment = paymentOfCheckout(state, checkout);
  // No attempt yet: the platform answers the result alone, a payment without its fields.
  if (!payment) return reply(json(200, envelope({ result: result(RESULT_CODES.pending) } satisfies Partial<Payment>, now, id)));
  if (succeeded(payment)) checkout.consumed = true;
  const body = paymentBody(payment);
  return reply(json(200, envelope(body, now, id)), payment.id);
};

// 2. GET /v1/paymentWidgets.js?checkoutId=
const widgetScript: Handler = ({ state }) => reply({ kind: 'script', bytes: state.widget.bytes });

/** The widget's endpoints answer every origin, errors included, so the widget can read them. */
export const withCors = (answer: Reply): Reply => (answer.kind === 'json' ? { ...answer, cors: true } : answer);

export const invalidCheckout = (now: Date, id: string, description = 'invalid or expired checkout') =>
  withCors(failure(400, RESULT_CODES.invalidParameter, now, id, { description }));

// The widget's own calls, authorised by the checkout id as the real widget is.
const widgetCheckout: Handler = (context, match) => {
  const { state, now } = context;
  const id = match[1]!;
  const checkout = state.store.liveCheckout(id);
  if (!checkout) return reply(invalidCheckout(now, id));
  const { params } = checkout;
  const expiresAt = new Date(checkout.expiresAt).toISOString();
  // What the served widget reads (widget/answers.ts), so a renamed field fails to compile here too.
  const body = {
    result: result(RESULT_CODES.checkoutCreated),
    checkout: isRegistrationCheckout(params)
      ? { id, registration: true, expiresAt }
      : {
          id,
          // Mandatory at checkout creation, which refuses a checkout without them.
          amount: params.amount!,
          currency: params.currency!,
          paymentType: params.paymentType!,
          ...(params.paymentBrand ? { paymentBrand: params.paymentBrand } : {}),
          expiresAt,
          ...savedCardsAnswer(state, checkout),
        },
  } satisfies CheckoutAnswer;
  return reply(json(200, envelope(body, now, id), true));
};

/** The fields the widget's card form sends; everything else comes from the checkout. */
const WIDGET_FIELDS = new Set([
  'paymentBrand',
  'card.number',
  'card.holder',
  'card.expiryMonth',
  'card.expiryYear',
  'card.cvv',
  'shopperResultUrl',
]);

const widgetPayment: Handler = (context, match) => {
  const { state, request, now, redact } = context;
  const id = match[1]!;
  const { store } = state;
  const checkout = store.liveCheckout(id);
  if (!checkout) return reply(invalidCheckout(now, id));
  // A registration-only checkout takes no payment: its form posts to widget/registration.
  if (isRegistrationCheckout(checkout.params)) return reply(invalidCheckout(now, id, 'a registration-only checkout takes no payment'));
  if (request.params.registrationId !== undefined) return savedCardPayment(context, checkout);
  const brand = request.params.paymentBrand;
  if (isWalletBrand(brand)) return walletPayment(context, checkout, brand);
  const entered = (fields: Readonly<FlatParams>): FlatParams =>
    Object.fromEntries(Object.entries(fields).filter(([name]) => WIDGET_FIELDS.has(name)));
  // Validated as sent, kept scrubbed.
  const params: FlatParams = { ...checkout.params, ...entered(request.params) };
  const behaviour = behaviourOf(params['card.number'] ?? '');
  const step = threeDsStepOf(params, behaviour);
  const errors = validateParameters('payment', params, now, { threeDSecure: step !== undefined }).filter((error) =>
    WIDGET_FIELDS.has(error.name),
  );
  if (errors.length) return reply(withCors(invalidParameters(errors, now, id)));
  if (brandNotConfigured(state, checkout.entityId, params.paymentBrand))
    return reply(withCors(failure(400, RESULT_CODES.brandNotConfigured, now, id)));
  const previous = paymentOfCheckout(state, checkout);
  if (previous && succeeded(previous)) return reply(invalidCheckout(now, id, 'checkout already processed'));
  // The platform adds the shopper's IP (and its country) to a widget payment: the browser's address is the caller's.
  const shopperIp = checkout.params['customer.ip'] ?? request.remoteAddress;
  const outcome = createCardPayment(
    store,
    checkout.entityId,
    { ...checkout.params, ...entered(storable(request, redact)), ...(shopperIp ? { 'customer.ip': shopperIp } : {}) },
    behaviour,
    id,
  );
  checkout.paymentIds.push(outcome.payment.id);
  if (outcome.payment.threeDs) checkout.attemptsOpenUntil = outcome.payment.createdAt + THREE_DS_TIMEOUT_MS;
  noteCheckoutPayment(state.store, outcome.payment);
  const body = {
    result: result(outcome.answeredCode),
    id: outcome.payment.id,
    ...pendingRedirect(state, outcome.payment),
  } satisfies PaymentAnswer;
  return reply(json(200, envelope(body, now, id), true), outcome.payment.id);
};

/**
 * A wallet payment from the widget's stand-in sheets: no card data; the
 * stand-in's token or one-time password picks the outcome (engine/wallets.ts)
 * and is never kept. Reported as the platform reports wallet payments: the
 * wallet as `paymentBrand`, the checkout's `paymentType`, the result. The
 * wallet has authenticated the shopper, so there is no 3-D Secure step.
 */
function walletPayment(context: RequestContext, checkout: CheckoutRecord, brand: WalletBrand): Routed {
  const { state, request, now } = context;
  const id = checkout.id;
  const decided = walletBehaviourOf(brand, request.params);
  if (Array.isArray(decided)) return reply(withCors(invalidParameters(decided, now, id)));
  if (brandNotConfigured(state, checkout.entityId, brand)) return reply(withCors(failure(400, RESULT_CODES.brandNotConfigured, now, id)));
  const previous = paymentOfCheckout(state, checkout);
  if (previous && succeeded(previous)) return reply(invalidCheckout(now, id, 'checkout already processed'));
  const shopperIp = checkout.params['customer.ip'] ?? request.remoteAddress;
  const mobile = brand === 'STC_PAY' ? request.params['customer.mobile'] : undefined;
  const params: FlatParams = {
    ...checkout.params,
    paymentBrand: brand,
    ...(mobile ? { 'customer.mobile': mobile } : {}),
    ...(shopperIp ? { 'customer.ip': shopperIp } : {}),
  };
  const outcome = createPayment(state.store, {
    entityId: checkout.entityId,
    params,
    behaviour: decided,
    paymentBrand: brand,
    checkoutId: id,
  });
  checkout.paymentIds.push(outcome.payment.id);
  noteCheckoutPayment(state.store, outcome.payment);
  const body = { result: result(outcome.answeredCode), id: outcome.payment.id } satisfies PaymentAnswer;
  return reply(json(200, envelope(body, now, id), true), outcome.payment.id);
}

// 4. POST /v1/payments
const createServerPayment: Handler = (context) => {
  const { state, request, redact } = context;
  const { params } = request;
  const behaviour = behaviourOf(params['card.number'] ?? '');
  const refused = refusal(context, 'payment', [], threeDsStepOf(params, behaviour) !== undefined);
  if (refused) return reply(refused);
  const outcome = createCardPayment(state.store, params.entityId!, storable(request, redact), behaviour);
  return reply(paymentReply(context, outcome.payment, outcome.answeredCode), outcome.payment.id);
};

/** The payment a merchant call names, or the reply when it is not theirs to see. */
function ownPayment(context: RequestContext, id: string, missingCode: string): PaymentRecord | Reply {
  const { state, request, now, ndc } = context;
  const payment = state.store.payment(id);
  if (!payment) return failure(400, missingCode, now, ndc());
  if (payment.entityId !== request.params.entityId) return forbidden(context);
  return payment;
}

const isReply = (value: PaymentRecord | RegistrationRecord | Reply): value is Reply => 'kind' in value;

// 5. GET /v1/payments/{id} and 9. GET /v3/query/{id}
const readPayment: Handler = (context, match) => {
  const refused = refusal(context, 'read');
  if (refused) return reply(refused);
  const payment = ownPayment(context, match[1]!, RESULT_CODES.transactionNotFound);
  if (isReply(payment)) return reply(payment);
  return reply(paymentReply(context, payment, payment.result.code, false), payment.id);
};

// 6. POST /v1/payments/{id}: capture (CP), refund (RF), reversal (RV)
const referenceCall: Handler = (context, match) => {
  const { state, request, now, redact } = context;
  const refused = refusal(context, 'reference');
  if (refused) return reply(refused);
  const target = ownPayment(context, match[1]!, RESULT_CODES.referenceNotFound);
  if (isReply(target)) return reply(target);
  const { params } = request;
  const mismatches: ParameterError[] = [];
  if (params.currency !== undefined && params.currency !== target.currency) {
    mismatches.push({
      name: 'currency',
      value: params.currency,
      message: `must equal the currency of the referenced payment (${target.currency})`,
    });
  }
  if (params.paymentType === 'CP' && testModeOf(params) !== target.testMode) {
    mismatches.push({
      name: 'testMode',
      value: params.testMode ?? '',
      message: `must equal the testMode of the preauthorization (${target.testMode})`,
    });
  }
  if (mismatches.length) return reply(invalidParameters(mismatches, now, state.store.ndc(target.entityId)));
  const outcome = referencePayment(state.store, target, storable(request, redact));
  if ('refused' in outcome) return reply(failure(400, outcome.refused, now, state.store.ndc(target.entityId)), target.id);
  return reply(paymentReply(context, outcome.payment), outcome.payment.id);
};

/**
 * The registration a merchant call names, or the reply when it is malformed,
 * unknown, not theirs or deregistered (`100.150.200` to a payment, as the
 * platform answers; `100.150.202` to a second delete).
 */
function ownRegistration(
  context: RequestContext,
  id: string,
  deregisteredCode: string = RESULT_CODES.registrationNotFound,
): RegistrationRecord | Reply {
  const { state, request, now, ndc } = context;
  if (!/^[A-Za-z0-9]{32}$/.test(id)) return failure(400, RESULT_CODES.invalidRegistrationId, now, ndc());
  const registration = state.store.registrations.get(id);
  if (!registration) return failure(400, RESULT_CODES.registrationNotFound, now, ndc());
  if (registration.entityId !== request.params.entityId) return forbidden(context);
  if (registration.deregistered) return failure(400, deregisteredCode, now, ndc());
  return registration;
}

// POST /v1/registrations (the platform's, beyond the seed): a card stored without a payment.
const createRegistration: Handler = (context) => {
  const { state, request, now, redact } = context;
  const refused = refusal(context, 'registration');
  if (refused) return reply(refused);
  const registration = storeCard(state.store, request.params.entityId!, storable(request, redact));
  const body = registrationBody(registration, result(approvalCode(registration.testMode)));
  return reply(json(200, envelope(body, now, state.store.ndc(registration.entityId))));
};

// DELETE /v1/registrations/{id}?entityId= (the platform's): deregisters; a second delete answers 100.150.202.
const deleteRegistration: Handler = (context, match) => {
  const { state, now } = context;
  const refused = refusal(context, 'read');
  if (refused) return reply(refused);
  const registration = ownRegistration(context, match[1]!, RESULT_CODES.registrationDeregistered);
  if (isReply(registration)) return reply(registration);
  state.store.deregister(registration);
  const body: Deregistration = { id: registration.id, result: result(approvalCode(registration.testMode)) };
  return reply(json(200, envelope(body, now, state.store.ndc(registration.entityId))));
};

// 7. POST /v1/registrations/{id}/payments
const registrationCall: Handler = (context, match) => {
  const { state, request, now, ndc, redact } = context;
  const refused = refusal(context, 'registrationPayment');
  if (refused) return reply(refused);
  const registration = ownRegistration(context, match[1]!);
  if (isReply(registration)) return reply(registration);
  const repeatErrors = repeatRefusal(registration, request.params);
  if (repeatErrors.length) return reply(invalidParameters(repeatErrors, now, ndc()));
  const outcome = payWithRegistration(state.store, registration, request.params.entityId!, storable(request, redact));
  return reply(paymentReply(context, outcome.payment, outcome.answeredCode), outcome.payment.id);
};

// 9. GET /v3/query?merchantTransactionId= (or a time frame, with filters and pages: see reports.ts)
const queryByMerchantTransactionId: Handler = (context) => {
  const { state, request, now, ndc } = context;
  const refused = refusal(context, 'read', validateReportSearch(request.params));
  if (refused) return reply(refused);
  const payments = searchPayments(state.store, request.params.entityId!, request.params);
  const answerNdc = ndc();
  if (!payments.length) return reply(failure(400, RESULT_CODES.transactionNotFound, now, answerNdc));
  // The list's own result is the platform's "successful request", not a transaction's code (recorded 2022).
  const body: PaymentList = { result: result(RESULT_CODES.successfulRequest), payments: payments.map((payment) => paymentBody(payment)) };
  return reply(json(200, envelope(body, now, answerNdc)));
};

// 8. The 3DS pages, reached by the shopper's browser.
const threeDsPage =
  (page: typeof methodPage): Handler =>
  (context) => {
    const { state, request } = context;
    const { reply: answer, paymentId } = page(state.store, request.params);
    const payment = paymentId === undefined ? undefined : state.store.payment(paymentId);
    if (payment) noteCheckoutPayment(state.store, payment);
    return reply(answer, paymentId);
  };

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
  { method: 'POST', pattern: /^\/v1\/registrations$/, handler: createRegistration },
  { method: 'DELETE', pattern: new RegExp(`^/v1/registrations/${ID}$`), handler: deleteRegistration },
  { method: 'POST', pattern: new RegExp(`^/v1/registrations/${ID}/payments$`), handler: registrationCall },
  { method: 'GET', pattern: new RegExp(`^/v3/query/${ID}$`), handler: readPayment },
  { method: 'GET', pattern: /^\/v3\/query$/, handler: queryByMerchantTransactionId },
  { method: 'POST', pattern: /^\/v1\/threeDSecure\/method$/, handler: threeDsPage(methodPage) },
  { method: 'POST', pattern: /^\/v1\/threeDSecure\/execute$/, handler: threeDsPage(executePage) },
  { method: 'POST', pattern: /^\/v1\/threeDSecure\/challenge$/, handler: threeDsPage(challengeAnswer) },
  ...SAVED_CARD_ROUTES,
  ...CONTROL_ROUTES,
];

/**
 * Answers one parsed request without HTTP around it: the server's core, also
 * used by the benchmark. The request's context is made here, once: its time,
 * its entity, its `ndc` draw and its scrubber.
 */
export function route(
  state: SandboxState,
  request: Request,
  redact: Redactor = redactorOf(state, request.params, request.authorization),
): Routed {
  const entityId = request.params.entityId;
  const context: RequestContext = { state, request, now: state.store.clock.now(), entityId, ndc: () => state.store.ndc(entityId), redact };
  for (const candidate of ROUTES) {
    if (candidate.method !== request.method) continue;
    const match = candidate.pattern.exec(request.path);
    if (match) return candidate.handler(context, match);
  }
  const { now, ndc } = context;
  const known = ROUTES.some((candidate) => candidate.pattern.test(request.path));
  return reply(
    failure(known ? 405 : 404, RESULT_CODES.invalidParameter, now, ndc(), { description: `no endpoint ${request.method} ${request.path}` }),
  );
}

/** Whether a path belongs to the browser-side widget, which answers CORS preflights. */
export function isCorsPath(path: string): boolean {
  return ROUTES.some((candidate) => candidate.cors && candidate.pattern.test(path));
}
