/**
 * The one error hierarchy of the server helper: each class is one thing a
 * caller can act on, decided by `result.code` alone (never by HTTP status; the
 * mapping from an answer to a class is `interpret.ts`). Errors carry the gateway's
 * result code, description, parameter errors and, when the answer was a
 * payment (it has an `id`, whatever its HTTP status), the whole payment. Never
 * a card number, a security code or the access token: every text is scrubbed
 * (see `contract/redaction.ts`) before it gets here, and again here by shape.
 */
import { maskParameter, redactByShape, textOf, type Redactor } from '../contract/redaction.js';
import type { AnsweredParameterError, ResultKind } from '../contract/result-codes.js';
import type { Payment } from './types.js';

/** One `parameterErrors` entry; `value` stays absent when the gateway sent none. */
export type GatewayParameterError = AnsweredParameterError;

export interface GatewayErrorDetails {
  resultCode?: string | undefined;
  description?: string | undefined;
  /** What the result code means (`declined`, `rejected_3ds`, `rejected_validation`, …). */
  resultKind?: ResultKind | undefined;
  httpStatus?: number | undefined;
  parameterErrors?: readonly GatewayParameterError[] | undefined;
  /** The gateway's whole answer when it was a payment (it has an `id`): the payment exists at the gateway. */
  payment?: Payment | undefined;
  cause?: unknown;
  /** The payment request's merchantTransactionId, whenever the error is about one. */
  merchantTransactionId?: string | undefined;
  /**
   * A payment of this order may exist although the call could not tell (a status read that was throttled, busy or
   * stopped by its store): whatever the outcome's kind, a new attempt is not safe (`Outcome.retryable` false).
   */
  paymentMayExist?: boolean | undefined;
  /** Subclass fields, below. */
  retryAfterSeconds?: number | undefined;
  decidedAt?: number | undefined;
  mismatches?: readonly VerificationMismatch[];
  candidates?: readonly Payment[];
  /** Scrubs the request's own secrets too (its token, card number, CVV); by shape only when absent. Not kept. */
  redact?: Redactor;
}

/** What a caller does about an error or a payment; `outcomeOf` (outcome.ts) builds on it. */
export type OutcomeKind =
  | 'approved'
  | 'pending'
  | 'declined'
  | 'uncertain'
  | 'stranded'
  | 'invalid'
  | 'not_found'
  | 'throttled'
  | 'unauthorized'
  | 'mismatch'
  | 'failed';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Anything that went wrong talking to the gateway. */
export class GatewayError extends Error {
  // Names are written out, not read from the class: minifiers rename classes.
  override name = 'GatewayError';
  /** What the caller does about it; see `outcomeOf`. */
  readonly outcome: OutcomeKind = 'failed';
  declare readonly resultCode?: string;
  declare readonly description?: string;
  declare readonly resultKind?: ResultKind;
  declare readonly httpStatus?: number;
  declare readonly parameterErrors: readonly GatewayParameterError[];
  declare readonly payment?: Payment;
  declare readonly merchantTransactionId?: string;
  declare readonly paymentMayExist?: boolean;

  constructor(message: string, details: GatewayErrorDetails = {}) {
    // Exported, so built by callers too: anything that is not details is none, and a redactor that is not one is replaced.
    const given = typeof details === 'object' && details !== null ? details : {};
    const { cause, parameterErrors: listed, redact: supplied, ...fields } = given;
    const redact = typeof supplied === 'function' && typeof supplied.deep === 'function' ? supplied : redactByShape;
    const parameterErrors = Array.isArray(listed) ? listed.filter((entry) => typeof entry === 'object' && entry !== null) : [];
    // Our own errors are already safe and keep their class; any other cause is reduced to a scrubbed copy.
    super(
      redact(textOf(message)),
      cause instanceof Error ? { cause: cause instanceof GatewayError ? cause : sanitizedCause(cause, redact) } : undefined,
    );
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined)
        Object.defineProperty(this, key, { value: redact.deep(value, key), enumerable: true, configurable: true, writable: true });
    }
    // Masked again by name and value: a gateway (or proxy) that echoes the form must not leak it through us.
    const masked = parameterErrors.map(({ name, value, message }) => {
      const entry: GatewayParameterError = { name: redact(textOf(name)), message: redact(textOf(message)) };
      // `null` is the platform's "missing": no value, like an entry without one.
      return value === undefined || value === null ? entry : { ...entry, value: redact(maskParameter(textOf(name), textOf(value))) };
    });
    Object.defineProperty(this, 'parameterErrors', { value: masked, enumerable: true, writable: true, configurable: true });
  }

  /** What a log line may hold: everything a caller acts on (the payment by its id only), nothing sensitive. */
  toJSON(): Record<string, unknown> {
    const { payment, candidates, ...fields } = this as GatewayError & { candidates?: readonly Payment[] };
    const cause = this.cause instanceof Error ? { name: this.cause.name, message: this.cause.message } : undefined;
    return {
      ...fields,
      name: this.name,
      message: this.message,
      paymentId: payment?.id,
      candidateIds: candidates?.map((candidate) => candidate.id),
      cause,
    };
  }

  [INSPECT](): string {
    return `${this.stack}\n${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}

/** A cause we did not create may carry anything in its message: keep its name and a scrubbed message, and its cause the same way. */
function sanitizedCause(cause: Error, redact: Redactor): Error {
  const inner = cause.cause instanceof Error && cause.cause !== cause ? { cause: sanitizedCause(cause.cause, redact) } : undefined;
  const copy = new Error(redact(textOf(cause.message)), inner);
  copy.name = redact(textOf(cause.name));
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** The access token was refused (`800.900.300`, `800.900.302`): check the credentials. */
export class GatewayAuthenticationError extends GatewayError {
  override name = 'GatewayAuthenticationError';
  override readonly outcome: OutcomeKind = 'unauthorized';
}

/** The token is valid but may not act for this entity (`800.900.301`). */
export class GatewayPermissionError extends GatewayError {
  override name = 'GatewayPermissionError';
  override readonly outcome: OutcomeKind = 'unauthorized';
}

/**
 * Bad or missing fields. Raised before sending when our own check (the shared
 * contract) finds them, with every bad field in `parameterErrors`; also raised
 * when the gateway rejects a request's data or references (`200.300.404`, `700.*`)
 * without creating a payment.
 */
export class GatewayValidationError extends GatewayError {
  override name = 'GatewayValidationError';
  override readonly outcome: OutcomeKind = 'invalid';
}

/**
 * An argument a function of the kit cannot take (a caller without TypeScript,
 * data where options belong): a typed error naming it, never a TypeError from
 * deep inside. The value itself is not quoted: it may hold a secret.
 */
export function invalidArgument(name: string, message: string): GatewayValidationError {
  return new GatewayValidationError(`Invalid ${name}: ${message}; nothing was done`, { parameterErrors: [{ name, message }] });
}

/**
 * What a caller's clock (`now` of the client or of a notification's freshness
 * check) reads, in ms since the epoch. A reading that is not a finite number
 * (NaN, undefined, a string, an object, a BigInt) or a clock that throws
 * cannot tell an age or a lifetime: a typed error, so every check built on
 * the clock fails closed instead of comparing with NaN.
 */
export function readClock(now: () => unknown, name: string): number {
  let reading: unknown;
  try {
    reading = now();
  } catch {
    throw invalidArgument(name, 'threw instead of answering the time (ms since the epoch)');
  }
  if (typeof reading !== 'number' || !Number.isFinite(reading))
    throw invalidArgument(name, 'must answer the time as a finite number of ms since the epoch');
  return reading;
}

/** True for anything with a callable `then`: a promise from any library. */
export const isThenable = <T = unknown>(value: unknown): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** True for a plain object (options, a payment answer), false for null, arrays and primitives. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The payment was refused: by the bank, by 3-D Secure, by risk checks, or for
 * its card or account data (a validation code on an answer that created a
 * payment, e.g. `100.100.101`). `payment` holds the answer; `resultKind` the group.
 */
export class GatewayDeclinedError extends GatewayError {
  override name = 'GatewayDeclinedError';
  override readonly outcome: OutcomeKind = 'declined';
}

/** Too many requests (`800.120.100`), or the API reference's 2-a-minute checkout status limit, enforced here before sending. */
export class GatewayThrottledError extends GatewayError {
  override name = 'GatewayThrottledError';
  override readonly outcome: OutcomeKind = 'throttled';
  /** Seconds after which a new request may be sent, when known. */
  declare readonly retryAfterSeconds?: number;
}

/** The checkout, payment, registration or report does not exist (or no longer answers, like a consumed checkout). */
export class GatewayNotFoundError extends GatewayError {
  override name = 'GatewayNotFoundError';
  override readonly outcome: OutcomeKind = 'not_found';
}

/** No usable answer arrived: the connection failed, or the body was not the gateway's JSON (a proxy's page, a cut or malformed body). */
export class GatewayNetworkError extends GatewayError {
  override name = 'GatewayNetworkError';
}

/** No answer within `timeoutMs`. */
export class GatewayTimeoutError extends GatewayNetworkError {
  override name = 'GatewayTimeoutError';
}

/**
 * A payment request may or may not have moved money, and looking it up by its
 * `merchantTransactionId` did not tell with certainty (nothing found, a look-up
 * failed, or more than one transaction could be it: see `candidates`). Never
 * retry the payment blindly: look it up later with
 * `reports.findByMerchantTransactionId(error.merchantTransactionId)`.
 */
export class UncertainOutcomeError extends GatewayError {
  override name = 'UncertainOutcomeError';
  override readonly outcome: OutcomeKind = 'uncertain';
  declare readonly merchantTransactionId: string;
  /** Transactions under this merchantTransactionId that could be the lost one, when there were several (or one not yet final). */
  declare readonly candidates?: readonly Payment[];

  constructor(message: string, details: GatewayErrorDetails & { merchantTransactionId: string }) {
    super(message, details);
  }
}

/**
 * Whether a checkout was paid is not known now: a status read's answer was lost
 * (after the gateway may have processed it), or the store cannot prove the
 * checkout was never read before, and looking it up by its merchantTransactionId
 * (when the kit remembers one) did not settle it. Never "expired": do not
 * cancel the order or ask the shopper to pay again; try again in `retryAfterSeconds`.
 */
export class StatusUnknownError extends UncertainOutcomeError {
  override name = 'StatusUnknownError';
  /** Seconds after which reading again may tell. */
  declare readonly retryAfterSeconds: number;

  constructor(message: string, details: GatewayErrorDetails & { merchantTransactionId: string; retryAfterSeconds: number }) {
    super(message, details);
  }
}

/**
 * The checkout's session is gone but one of its transactions may still
 * complete: a 3-D Secure challenge the shopper started before the checkout's
 * 30 minutes ended stays open 30 minutes more. Not "expired" and not paid yet:
 * do not offer a new checkout for the order nor cancel it; ask again in
 * `retryAfterSeconds`. From `decidedAt` (ms since the epoch, the client's
 * clock) nothing of it can complete any more, and the answer is final.
 */
export class CheckoutPendingError extends StatusUnknownError {
  override name = 'CheckoutPendingError';
  declare readonly decidedAt: number;

  constructor(
    message: string,
    details: GatewayErrorDetails & { merchantTransactionId: string; retryAfterSeconds: number; decidedAt: number },
  ) {
    super(message, details);
  }
}

/**
 * The payment's answer was lost and the look-up found it pending (`000.200.*`,
 * a 3-D Secure or other redirect step), but reports carry no `redirect`: the
 * shopper can never complete it, and it will expire unpaid (pending payments
 * time out after about 30 minutes). Do not ship; tell the shopper this attempt
 * failed; a new attempt under a new merchantTransactionId is safe. `payment.id`
 * reads its final state later (`reports.get`).
 */
export class StrandedPaymentError extends GatewayError {
  override name = 'StrandedPaymentError';
  override readonly outcome: OutcomeKind = 'stranded';
  declare readonly merchantTransactionId: string;
  declare readonly payment: Payment;

  constructor(message: string, details: GatewayErrorDetails & { merchantTransactionId: string; payment: Payment }) {
    super(message, details);
  }
}

/** One field of a payment that differs from what the merchant expected. */
export interface VerificationMismatch {
  readonly field: string;
  readonly expected: string;
  readonly actual: string | undefined;
}

/** The payment's id, amount, currency, brand or type is not what the merchant expected: do not ship the order. */
export class GatewayVerificationError extends GatewayError {
  override name = 'GatewayVerificationError';
  override readonly outcome: OutcomeKind = 'mismatch';
  declare readonly mismatches: readonly VerificationMismatch[];

  constructor(message: string, details: GatewayErrorDetails & { mismatches: readonly VerificationMismatch[]; payment: Payment }) {
    super(message, details);
  }
}
