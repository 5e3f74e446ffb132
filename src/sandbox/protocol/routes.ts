/**
 * The gateway's endpoints on the wire: every merchant call (each checking the
 * Bearer token and the entity where the gateway does), the 3DS pages, and the
 * widget's own endpoints (widget-routes.ts). Each handler checks the request,
 * asks the gateway's domain (src/sandbox/gateway/) for the change or the
 * record, and writes the answer.
 */
import type { CheckoutCreated, Deregistration, Payment, PaymentList } from '../../contract/api-answers.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { validateReportSearch } from '../../contract/report-filters.js';
import { isRegistrationCheckout, type ParameterError } from '../../contract/rules.js';
import type { SandboxState, FinalBody } from '../core/state.js';
import { createCheckout, readCheckoutPayment, readCheckoutRegistration } from '../gateway/checkouts.js';
import { approvalCode, createCardPayment, referencePayment, testModeOf, threeDsStepOf } from '../gateway/payments.js';
import { paymentBody } from './payment-answer.js';
import { searchPayments } from '../gateway/reports.js';
import { payWithRegistration, registrationBody, repeatRefusal, storeCard } from '../gateway/registrations.js';
import { result, type PaymentRecord, type RegistrationRecord } from '../gateway/store.js';
import { behaviourOf } from '../gateway/triggers.js';
import { storable } from './auth.js';
import {
  forbidden,
  invalidCheckout,
  pendingRedirect,
  readableCheckout,
  refusal,
  refusedReference,
  UNKNOWN_REFERENCE_CODES,
} from './checks.js';
import { json, reply, type Handler, type RequestContext, type Route } from './dispatch.js';
import { envelope, envelopeJson, failure, invalidParameters } from './envelope.js';
import { challengeAnswer, executePage, methodPage } from './three-d-secure-pages.js';
import { WIDGET_ROUTES } from './widget-routes.js';
import type { Reply } from './wire.js';

/**
 * Bodies of answered payments that had no 3DS step: their outcome was decided
 * when they were made and their body can no longer change, so a read again
 * costs one concatenation, not a render and a serialisation (get-payment
 * throughput). Kept by record (`caches.finalBodies`, a weak map): a body goes
 * with its payment when the store drops it for room, and a reset forgets them.
 */
function finalBody(state: SandboxState, payment: PaymentRecord): FinalBody {
  const finalBodies = state.caches.finalBodies;
  let kept = finalBodies.get(payment);
  if (!kept) {
    const { timestamp, ...body } = paymentBody(payment);
    kept = { body, text: JSON.stringify(body), timestamp: typeof timestamp === 'string' ? timestamp : undefined };
    finalBodies.set(payment, kept);
  }
  return kept;
}

/**
 * A payment response, with the redirect while its 3DS step is pending. The
 * answer to the request that made the payment (`synchronous`) carries the
 * answer's time without milliseconds (`2017-11-28 13:22:03+0000`); a read-back
 * the transaction's own, with them, as the platform's recordings show.
 */
interface PaymentReplyOptions {
  /** The code this request is answered with, when it is not the payment's own (a repeated request's). */
  readonly answeredCode?: string;
  /** False for a read-back, which carries the transaction's time. */
  readonly synchronous?: boolean;
  /** Fields the platform leaves out of this answer (a payment on a registered card: `card`, and a brand not sent). */
  readonly leftOut?: readonly ('card' | 'paymentBrand')[];
}

function paymentReply(
  { state, now }: RequestContext,
  payment: PaymentRecord,
  { answeredCode = payment.result.code, synchronous = true, leftOut = [] }: PaymentReplyOptions = {},
): Reply {
  if (payment.threeDs === undefined && answeredCode === payment.result.code && leftOut.length === 0) {
    const { body, text, timestamp } = finalBody(state, payment);
    return {
      kind: 'json',
      status: 200,
      body,
      text: envelopeJson(text, now, state.store.ndc(payment.entityId), synchronous ? undefined : timestamp),
    };
  }
  const { timestamp, ...body } = paymentBody(payment, answeredCode === payment.result.code ? payment.result : result(answeredCode));
  for (const field of leftOut) delete body[field];
  return json(
    200,
    envelope(
      { ...body, ...(synchronous ? {} : { timestamp }), ...pendingRedirect(state, payment) },
      now,
      state.store.ndc(payment.entityId),
    ),
  );
}

// POST /v1/checkouts
const newCheckout: Handler = (context) => {
  const { state, request, now, redact } = context;
  const refused = refusal(context, 'checkout');
  if (refused) return reply(refused);
  const checkout = createCheckout(state.store, request.params.entityId!, storable(request, redact));
  const body: CheckoutCreated = {
    result: result(RESULT_CODES.checkoutCreated),
    id: checkout.id,
    ...(request.params.integrity === 'true' ? { integrity: state.widget.integrity } : {}),
  };
  return reply(json(200, envelope(body, now, checkout.id)));
};

// GET /v1/checkouts/{id}/payment
const checkoutPayment: Handler = (context, match) => {
  const { state, now } = context;
  const id = match[1]!;
  const checkout = readableCheckout(context, id);
  if ('kind' in checkout) return reply(checkout);
  const payment = readCheckoutPayment(state.store, checkout);
  // No attempt yet: the platform answers the result alone, a payment without its fields.
  if (!payment) return reply(json(200, envelope({ result: result(RESULT_CODES.pending) } satisfies Partial<Payment>, now, id)));
  const body = paymentBody(payment);
  return reply(json(200, envelope(body, now, id)), payment.id);
};

// GET /v1/checkouts/{id}/registration: the card a registration-only checkout saved; the same limit and consumption as the payment's read.
const checkoutRegistration: Handler = (context, match) => {
  const { state, now } = context;
  const id = match[1]!;
  const checkout = readableCheckout(context, id);
  if ('kind' in checkout) return reply(checkout);
  if (!isRegistrationCheckout(checkout.params))
    return reply(invalidCheckout(now, id, 'this checkout takes a payment: read /v1/checkouts/{id}/payment'));
  const registration = readCheckoutRegistration(state.store, checkout);
  // No card yet: the result alone, as the payment's read answers.
  if (!registration) return reply(json(200, envelope({ result: result(RESULT_CODES.pending) }, now, id)));
  const body = { ...registrationBody(registration, result(approvalCode(registration.testMode))), paymentType: 'RG' };
  return reply(json(200, envelope(body, now, id)));
};

// POST /v1/payments
const createServerPayment: Handler = (context) => {
  const { state, request, redact } = context;
  const { params } = request;
  const behaviour = behaviourOf(params['card.number'] ?? '');
  const refused = refusal(context, 'payment', [], threeDsStepOf(params, behaviour) !== undefined);
  if (refused) return reply(refused);
  const outcome = createCardPayment(state.store, params.entityId!, storable(request, redact), behaviour);
  return reply(paymentReply(context, outcome.payment, { answeredCode: outcome.answeredCode }), outcome.payment.id);
};

/** The payment a merchant call names, or the reply when it is not theirs to see. */
function ownPayment(context: RequestContext, id: string): PaymentRecord | Reply {
  const { state, request, now, ndc } = context;
  const payment = state.store.payment(id);
  if (!payment) return failure(400, RESULT_CODES.transactionNotFound, now, ndc());
  if (payment.entityId !== request.params.entityId) return forbidden(context);
  return payment;
}

const isReply = (value: PaymentRecord | RegistrationRecord | Reply): value is Reply => 'kind' in value;

// GET /v1/payments/{id} and GET /v3/query/{id}
const readPayment: Handler = (context, match) => {
  const refused = refusal(context, 'read');
  if (refused) return reply(refused);
  const payment = ownPayment(context, match[1]!);
  if (isReply(payment)) return reply(payment);
  return reply(paymentReply(context, payment, { synchronous: false }), payment.id);
};

// POST /v1/payments/{id}: capture (CP), refund (RF), reversal (RV)
const referenceCall: Handler = (context, match) => {
  const { state, request, now, redact } = context;
  const refused = refusal(context, 'reference');
  if (refused) return reply(refused);
  const { params } = request;
  const target = state.store.payment(match[1]!);
  if (!target) return reply(refusedReference(context, UNKNOWN_REFERENCE_CODES[params.paymentType!]!));
  if (target.entityId !== params.entityId) return reply(forbidden(context));
  const mismatches: ParameterError[] = [];
  // A refused transaction moved no money, so there is no currency or test mode to match: the reference is refused for what it is.
  if (target.refused === undefined && params.currency !== undefined && params.currency !== target.currency) {
    mismatches.push({
      name: 'currency',
      value: params.currency,
      message: `must equal the currency of the referenced payment (${target.currency})`,
    });
  }
  if (target.refused === undefined && params.paymentType === 'CP' && testModeOf(params) !== target.testMode) {
    mismatches.push({
      name: 'testMode',
      value: params.testMode ?? '',
      message: `must equal the testMode of the preauthorization (${target.testMode})`,
    });
  }
  if (mismatches.length) return reply(invalidParameters(mismatches, now, state.store.ndc(target.entityId)));
  const outcome = referencePayment(state.store, target, storable(request, redact));
  if ('refused' in outcome) return reply(refusedReference(context, outcome.refused), target.id);
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

// POST /v1/registrations (the platform's, beyond the API reference): a card stored without a payment.
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

// POST /v1/registrations/{id}/payments
const registrationCall: Handler = (context, match) => {
  const { state, request, now, ndc, redact } = context;
  const refused = refusal(context, 'registrationPayment');
  if (refused) return reply(refused);
  const registration = ownRegistration(context, match[1]!);
  if (isReply(registration)) return reply(registration);
  const repeatErrors = repeatRefusal(registration, request.params);
  if (repeatErrors.length) return reply(invalidParameters(repeatErrors, now, ndc()));
  const outcome = payWithRegistration(state.store, registration, request.params.entityId!, storable(request, redact));
  // The platform answers a payment on a registered card with no card, and a brand only when the request named one
  // (recorded 2017, and a 2024 answer without the brand); the transaction itself keeps both for its reads.
  const leftOut = request.params.paymentBrand === undefined ? (['card', 'paymentBrand'] as const) : (['card'] as const);
  return reply(paymentReply(context, outcome.payment, { answeredCode: outcome.answeredCode, leftOut }), outcome.payment.id);
};

// GET /v3/query?merchantTransactionId= (or a time frame, with filters and pages: see reports.ts)
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

// The 3DS pages, reached by the shopper's browser.
const threeDsPage =
  (page: typeof methodPage): Handler =>
  (context) => {
    const { reply: answer, paymentId } = page(context.state.store, context.request.params);
    return reply(answer, paymentId);
  };

const ID = '([^/]+)';
/** The gateway's endpoints: the merchant's, the 3-D Secure pages the shopper's browser reaches, and the widget's own. */
export const GATEWAY_ROUTES: readonly Route[] = [
  { method: 'POST', pattern: /^\/v1\/checkouts$/, handler: newCheckout },
  { method: 'GET', pattern: new RegExp(`^/v1/checkouts/${ID}/payment$`), handler: checkoutPayment },
  { method: 'GET', pattern: new RegExp(`^/v1/checkouts/${ID}/registration$`), handler: checkoutRegistration },
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
  ...WIDGET_ROUTES,
];
