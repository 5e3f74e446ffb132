/**
 * The checks the gateway's endpoints share, as the wire answers them: the
 * refusals every merchant call goes through, a checkout a status read may
 * see, the widget's CORS answers, and the 3-D Secure redirect of a pending payment.
 */
import { amountTooLow } from '../../contract/amount.js';
import { NO_PAYMENT_SESSION_DESCRIPTION, QUERY_UNAUTHORIZED_DESCRIPTION, RESULT_CODES } from '../../contract/result-codes.js';
import { INVALID_CARD_NUMBER } from '../../contract/formats.js';
import { validateParameters, type Operation, type ParameterError } from '../../contract/rules.js';
import { brandNotConfigured, type SandboxState } from '../core/state.js';
import { checkoutToRead, type CheckoutRefusal } from '../gateway/checkouts.js';
import { recordRefusal } from '../gateway/payments.js';
import type { CheckoutRecord, FlatParams, PaymentRecord } from '../gateway/store.js';
import { paymentBody } from './payment-answer.js';
import { fieldBytes, RECORD_OVERHEAD_BYTES } from '../limits.js';
import { bearerAccepted, storable } from './auth.js';
import { json, type RequestContext } from './dispatch.js';
import { envelope, failure, invalidParameters } from './envelope.js';
import { redirectOf } from './three-d-secure-pages.js';
import type { Reply } from './wire.js';

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
  if (!bearerAccepted(state, request.authorization)) return unauthorized(context, ndc());
  const errors = [...validateParameters(operation, request.params, now, { threeDSecure }), ...extra];
  if (errors.some((error) => error.name === 'entityId')) return invalidParameters(errors, now, ndc());
  if (!state.entities.has(request.params.entityId!)) return failure(403, RESULT_CODES.forbidden, now, ndc());
  // A card number whose one fault is the Luhn check is, on the platform, a refused transaction rather than a parameter error.
  const invalidCard = (operation === 'payment' || operation === 'registration') && onlyInvalidCardNumber(errors);
  if (errors.length && !invalidCard) return invalidParameters(errors, now, ndc());
  if (!invalidCard && brandNotConfigured(state, request.params.entityId!, brand))
    return failure(400, RESULT_CODES.brandNotConfigured, now, ndc());
  if (!STORING.has(operation)) return undefined;
  const bytes = RECORD_OVERHEAD_BYTES + fieldBytes(request.params);
  if (bytes > state.limits.recordBytes) {
    return failure(400, RESULT_CODES.invalidParameter, now, ndc(), {
      description: `request fields take ${bytes} bytes; a stored record holds at most ${state.limits.recordBytes}`,
    });
  }
  if (invalidCard) return refusedTransaction(context, RESULT_CODES.invalidCard, operation === 'registration' ? { paymentType: 'RG' } : {});
  const { amount, paymentType } = request.params;
  if (amount !== undefined && amountTooLow(paymentType, amount)) return failure(400, RESULT_CODES.amountTooLow, now, ndc());
  return undefined;
}

/** Whether a request's one fault is a card number failing the Luhn check: the platform answers a refused transaction (`100.100.101`), not a parameter error. */
export const onlyInvalidCardNumber = (errors: readonly ParameterError[]): boolean =>
  errors.length === 1 && errors[0]!.name === 'card.number' && errors[0]!.message === INVALID_CARD_NUMBER;

export const forbidden = ({ now, ndc }: RequestContext) => failure(403, RESULT_CODES.forbidden, now, ndc());

export const noSession = ({ now, ndc }: RequestContext) =>
  failure(400, RESULT_CODES.invalidParameter, now, ndc(), { description: NO_PAYMENT_SESSION_DESCRIPTION });

/**
 * A checkout a status read may see, counted against its limit of reads a
 * minute, or the reply when the read is refused (credentials, parameters), or
 * the checkout is unknown, another entity's, read too often, expired or
 * consumed. Shared by the payment's and the registration's read.
 */
export function readableCheckout(context: RequestContext, id: string): CheckoutRecord | Reply {
  const refused = refusal(context, 'read');
  if (refused) return refused;
  const checkout = checkoutToRead(context.state.store, id, context.request.params.entityId);
  if (checkout === 'otherEntity') return forbidden(context);
  if (checkout === 'throttled') return failure(429, RESULT_CODES.throttled, context.now, id);
  if (typeof checkout === 'string') return noSession(context);
  return checkout;
}

/** The widget's endpoints answer every origin, errors included, so the widget can read them. */
export const withCors = (answer: Reply): Reply => (answer.kind === 'json' ? { ...answer, cors: true } : answer);

export const invalidCheckout = (now: Date, id: string, description = 'invalid or expired checkout') =>
  withCors(failure(400, RESULT_CODES.invalidParameter, now, id, { description }));

/** A refusal of the widget's call on a checkout, as the widget reads it (HTTP 400, CORS, the checkout as `ndc`). */
export function widgetRefusal(now: Date, id: string, refused: CheckoutRefusal, wrongKind = 'invalid or expired checkout'): Reply {
  if (refused === 'alreadyProcessed') return invalidCheckout(now, id, 'checkout already processed');
  if (refused === 'wrongKind') return invalidCheckout(now, id, wrongKind);
  return invalidCheckout(now, id);
}

/** A refused token, in the words of the endpoint: the report endpoint's differ from `/v1/…`'s (contract's table). */
const unauthorized = ({ request, now }: RequestContext, ndc: string) =>
  failure(
    401,
    RESULT_CODES.unauthorized,
    now,
    ndc,
    request.path.startsWith('/v3/query') ? { description: QUERY_UNAUTHORIZED_DESCRIPTION } : {},
  );

/**
 * A transaction the platform refuses before any bank sees it, kept by the
 * gateway (a read of its id, the reports and the checkout's status answer it)
 * and answered as the platform answers one: HTTP 400, its own id, the fields
 * its refusal shows (protocol/payment-answer.ts).
 */
function refusedTransaction(
  context: RequestContext,
  code: string,
  overrides: Readonly<FlatParams> = {},
  riskScore?: string,
  checkoutId?: string,
): Reply {
  const { state, request, now, redact } = context;
  const record = recordRefusal(state.store, {
    entityId: request.params.entityId!,
    params: { ...storable(request, redact), ...overrides },
    code,
    ...(riskScore === undefined ? {} : { riskScore }),
    ...(checkoutId === undefined ? {} : { checkoutId }),
  });
  // The answer to the request itself is timed to the second, as every payment answer (contract's table).
  const { timestamp: _transactionTime, ...body } = paymentBody(record);
  return json(400, envelope(body, now, checkoutId ?? context.ndc()));
}

/** What the platform answers a capture, refund or reversal of a payment it does not know: a refused transaction of that type. */
export const UNKNOWN_REFERENCE_CODES: Readonly<Record<string, string>> = {
  CP: RESULT_CODES.captureWithoutPreauthorization,
  RF: RESULT_CODES.invalidPaymentData,
  RV: RESULT_CODES.reversalWithoutPayment,
};

/** A refused capture, refund or reversal, as the platform answers one: its own id, its type, a risk score of 0 (recorded 2017). */
export const refusedReference = (context: RequestContext, code: string) => refusedTransaction(context, code, {}, '0');

/** The redirect the shopper needs while a payment waits for its 3DS step. */
export const pendingRedirect = (state: SandboxState, payment: PaymentRecord) =>
  payment.threeDs && !payment.threeDs.finished ? { redirect: redirectOf(payment, state.base) } : {};
