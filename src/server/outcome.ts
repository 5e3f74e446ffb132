/**
 * What a merchant does next, from whatever a client call ended in: a returned
 * payment or a thrown error. One place turns both into a discriminated union,
 * so shops, demos and docs switch on `outcome.kind` instead of re-mapping
 * error classes and result codes themselves.
 */
import { redactByShape } from '../contract/redaction.js';
import { classifyResult, type ResultKind } from '../contract/result-codes.js';
import { interpret } from './interpret.js';
import {
  invalidArgument,
  isThenable,
  isObject,
  GatewayError,
  GatewayThrottledError,
  GatewayValidationError,
  GatewayVerificationError,
  type GatewayParameterError,
  type OutcomeKind,
  type VerificationMismatch,
} from './errors.js';
import type { Payment, Redirect } from './types.js';

interface Common<K extends OutcomeKind> {
  readonly kind: K;
  /**
   * May the merchant start a new attempt for this order (a new request, a new
   * merchantTransactionId) without risking a second charge? False for
   * `approved`, `pending` and `uncertain`, and where the request must be fixed first.
   */
  readonly retryable: boolean;
  /** Safe to log and, for `declined`, to paraphrase to the shopper: no card number, CVV or token. */
  readonly message: string;
  readonly resultCode?: string;
  /** The gateway's payment, when one exists (approved, pending, declined, stranded, mismatch; uncertain when one was found). */
  readonly payment?: Payment;
}

interface Failure<K extends OutcomeKind, E extends GatewayError = GatewayError> extends Common<K> {
  /** The thrown error, for logs (its JSON is safe). */
  readonly error: E;
}

export type Outcome =
  /** Money moved (or will after the gateway's manual review: `review`). Verify it against the order, then ship. */
  | (Common<'approved'> & { readonly payment: Payment; readonly review: boolean })
  /** Waiting: for the shopper (`redirect`: run it with `<gw-3ds-handler>`) or for the gateway (no redirect: read the status later). */
  | (Common<'pending'> & { readonly payment: Payment; readonly redirect?: Redirect })
  /** Refused by the bank, 3-D Secure, risk checks, or for its card data (`reason`). The shopper may try another card. */
  | (Failure<'declined'> & { readonly reason: ResultKind })
  /** Unknown whether money moved. Never re-send: look it up by `merchantTransactionId` later. */
  | (Failure<'uncertain'> & { readonly merchantTransactionId: string })
  /** Found pending after a lost answer, but nobody can finish it: it expires unpaid. Do not ship; a new attempt is safe. */
  | (Failure<'stranded'> & { readonly payment: Payment; readonly merchantTransactionId: string })
  /** The request was refused for its fields (nothing was charged): fix `parameterErrors`. */
  | (Failure<'invalid', GatewayValidationError> & { readonly parameterErrors: readonly GatewayParameterError[] })
  /** No such checkout, payment or registration (or a checkout expired or already read). */
  | Failure<'not_found'>
  /** Too many requests: wait `retryAfterSeconds` when known. */
  | (Failure<'throttled', GatewayThrottledError> & { readonly retryAfterSeconds?: number })
  /** The credentials were refused or may not act for this entity: a configuration problem. */
  | Failure<'unauthorized'>
  /** The payment is not the order's (amount, currency, brand, type or id): do not ship. */
  | (Failure<'mismatch', GatewayVerificationError> & { readonly payment: Payment; readonly mismatches: readonly VerificationMismatch[] })
  /** No usable answer (network, timeout, gateway system error) for a request that moves no money, or was refused by the system: try again later. */
  | Failure<'failed'>;

const RETRYABLE: Readonly<Record<OutcomeKind, boolean>> = {
  approved: false,
  pending: false,
  declined: true,
  uncertain: false,
  stranded: true,
  invalid: false,
  not_found: false,
  throttled: true,
  unauthorized: false,
  mismatch: false,
  failed: true,
};

/**
 * The outcome of a returned payment or a thrown error. A payment is judged by
 * its result code, like the client judges answers (so a declined payment read
 * from a report is `declined`). Anything that is neither a payment nor a
 * `GatewayError` is a bug in the calling code and is thrown again.
 */
export function outcomeOf(value: unknown): Outcome {
  if (value instanceof GatewayError) return ofError(value);
  const payment = value as Payment | null;
  // A bug of the caller's own (an Error that is not the kit's) still throws as it is.
  if (value instanceof Error && !isObject((value as { result?: unknown }).result)) throw value;
  if (!isObject(payment) || !isObject(payment.result) || typeof payment.result.code !== 'string')
    throw invalidArgument('outcomeOf(value)', 'must be a payment answer (with result.code) or a GatewayError');
  const judged = interpret({ status: 200, body: payment });
  if (judged instanceof GatewayError) return ofError(judged);
  const { code, description } = payment.result;
  const kind = classifyResult(code);
  // The gateway's description, masked as an error's message is: a status read knows no card to mask by value.
  const common = {
    retryable: false,
    message: typeof description === 'string' ? redactByShape(description) : description,
    resultCode: code,
    payment,
  };
  if (kind === 'approved' || kind === 'approved_review') return { ...common, kind: 'approved', review: kind === 'approved_review' };
  return { ...common, kind: 'pending', ...(payment.redirect ? { redirect: payment.redirect } : {}) };
}

function ofError(error: GatewayError): Outcome {
  const kind = error.outcome;
  const common = {
    retryable: RETRYABLE[kind] && error.paymentMayExist !== true,
    message: error.message,
    error,
    ...(error.resultCode === undefined ? {} : { resultCode: error.resultCode }),
    ...(error.payment ? { payment: error.payment } : {}),
  };
  const { merchantTransactionId = '', parameterErrors } = error;
  switch (kind) {
    case 'declined':
      return { ...common, kind, reason: error.resultKind ?? 'declined' };
    case 'uncertain':
      return { ...common, kind, merchantTransactionId };
    case 'stranded':
      return { ...common, kind, merchantTransactionId, payment: error.payment! };
    case 'invalid':
      return { ...common, kind, error: error as GatewayValidationError, parameterErrors };
    case 'throttled': {
      const { retryAfterSeconds } = error as GatewayThrottledError;
      return { ...common, kind, error: error as GatewayThrottledError, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
    }
    case 'mismatch': {
      const mismatch = error as GatewayVerificationError;
      return { ...common, kind, error: mismatch, payment: mismatch.payment!, mismatches: mismatch.mismatches };
    }
    case 'approved':
    case 'pending':
      // Only a payment is approved or pending; an error never says so.
      return { ...common, kind: 'failed' };
    default:
      return { ...common, kind };
  }
}

/** `outcomeOf` over a call's promise: `const outcome = await toOutcome(client.payments.create(…))`. Bugs still throw. */
export const toOutcome = (call: Promise<Payment>): Promise<Outcome> =>
  isThenable(call)
    ? Promise.resolve(call).then(outcomeOf, outcomeOf)
    : Promise.reject(invalidArgument('toOutcome(call)', 'must be the promise of a client call'));
