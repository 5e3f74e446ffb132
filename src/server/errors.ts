/**
 * The one error hierarchy of the server helper and the one mapping from a
 * gateway answer to it: each class is one thing a caller can act on, decided
 * by `result.code` alone (never by HTTP status). Errors carry the gateway's
 * result code, description, parameter errors and, when the answer was a
 * payment (it has an `id`, whatever its HTTP status), the whole payment. Never
 * a card number, a security code or the access token: every text is scrubbed
 * (see `contract/redaction.ts`) before it gets here, and again here by shape.
 */
import { maskParameter, redactByShape, type Redactor } from '../contract/redaction.js';
import { classifyResult, DECLINE_KINDS, type AnsweredParameterError, type ResultKind } from '../contract/result-codes.js';
import type { GatewayResult, Payment } from './types.js';

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
  /** Subclass fields, below. */
  retryAfterSeconds?: number | undefined;
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

  constructor(message: string, details: GatewayErrorDetails = {}) {
    // Exported, so built by callers too: anything that is not details is none, and a redactor that is not one is replaced.
    const given = typeof details === 'object' && details !== null ? details : {};
    const { cause, parameterErrors: listed, redact: supplied, ...fields } = given;
    const redact = typeof supplied === 'function' && typeof supplied.deep === 'function' ? supplied : redactByShape;
    const parameterErrors = Array.isArray(listed) ? listed.filter((entry) => typeof entry === 'object' && entry !== null) : [];
    // Our own errors are already safe and keep their class; any other cause is reduced to a scrubbed copy.
    super(redact(String(message)), cause instanceof Error ? { cause: cause instanceof GatewayError ? cause : sanitizedCause(cause, redact) } : undefined);
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) Object.defineProperty(this, key, { value: redact.deep(value, key), enumerable: true, configurable: true, writable: true });
    }
    // Masked again by name and value: a gateway (or proxy) that echoes the form must not leak it through us.
    const masked = parameterErrors.map(({ name, value, message }) => {
      const entry: GatewayParameterError = { name: redact(String(name)), message: redact(String(message)) };
      // `null` is the platform's "missing": no value, like an entry without one.
      return value === undefined || value === null ? entry : { ...entry, value: redact(maskParameter(String(name), String(value))) };
    });
    Object.defineProperty(this, 'parameterErrors', { value: masked, enumerable: true, writable: true, configurable: true });
  }

  /** What a log line may hold: everything a caller acts on (the payment by its id only), nothing sensitive. */
  toJSON(): Record<string, unknown> {
    const { payment, candidates, ...fields } = this as GatewayError & { candidates?: readonly Payment[] };
    const cause = this.cause instanceof Error ? { name: this.cause.name, message: this.cause.message } : undefined;
    return { ...fields, name: this.name, message: this.message, paymentId: payment?.id, candidateIds: candidates?.map((candidate) => candidate.id), cause };
  }

  [INSPECT](): string {
    return `${this.stack}\n${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}

/** A cause we did not create may carry anything in its message: keep its name and a scrubbed message, and its cause the same way. */
function sanitizedCause(cause: Error, redact: Redactor): Error {
  const inner = cause.cause instanceof Error && cause.cause !== cause ? { cause: sanitizedCause(cause.cause, redact) } : undefined;
  const copy = new Error(redact(String(cause.message)), inner);
  copy.name = redact(String(cause.name));
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
 * The payment was refused: by the bank, by 3-D Secure, by risk checks, or for
 * its card or account data (a validation code on an answer that created a
 * payment, e.g. `100.100.101`). `payment` holds the answer; `resultKind` the group.
 */
export class GatewayDeclinedError extends GatewayError {
  override name = 'GatewayDeclinedError';
  override readonly outcome: OutcomeKind = 'declined';
}

/** Too many requests (`800.120.100`), or the seed's 2-a-minute checkout status limit, enforced here before sending. */
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

type ErrorClass = new (message: string, details: GatewayErrorDetails) => GatewayError;

/** Kinds that are an answer, not an error. */
const SUCCESSES: readonly ResultKind[] = ['approved', 'approved_review', 'pending', 'pending_extended', 'checkout_created'];

/** The one mapping: what a result code means → the class a caller catches. `uncertain`/`unknown` are decided by the caller (reconcile). */
const CLASS_OF: Partial<Record<ResultKind, ErrorClass>> = {
  unauthorized: GatewayAuthenticationError,
  forbidden: GatewayPermissionError,
  throttled: GatewayThrottledError,
  not_found: GatewayNotFoundError,
  rejected_validation: GatewayValidationError,
};

/** An answer as the transport hands it over: its HTTP status and parsed body (a `result` with a string `code`). */
export interface Answer<T = Payment> {
  readonly status: number;
  readonly body: T;
}

/** True when the answer is a payment that exists at the gateway: it has an id. */
export const isPaymentAnswer = (body: { result: GatewayResult }): body is Payment => {
  const { id } = body as { id?: unknown };
  return typeof id === 'string' && id !== '';
};

/** `description (code)`, without inventing a description the gateway did not send. */
export const describe = (result: GatewayResult) => (typeof result.description === 'string' && result.description ? `${result.description} (${result.code})` : `Result ${result.code}`);

const textOrUndefined = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * `result.parameterErrors` as far as it can be read: the platform writes
 * `"value": null` for a missing parameter, an entry may lack `value`, and a
 * field it adds later must not hide the fields to fix. Entries without a name
 * say nothing a merchant can act on and are left out; anything not a list is none.
 */
export function readParameterErrors(errors: unknown): GatewayParameterError[] {
  if (!Array.isArray(errors)) return [];
  const read: GatewayParameterError[] = [];
  for (const entry of errors as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { name, value, message } = entry as Record<string, unknown>;
    if (typeof name !== 'string' && typeof name !== 'number') continue;
    const shown = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    read.push({ name: String(name), message: textOrUndefined(message) ?? '', ...(shown === undefined ? {} : { value: shown }) });
  }
  return read;
}

/**
 * The typed error for a gateway answer that is not a success. A validation code
 * on an answer that created a payment is a decline of that payment (its card or
 * account data was refused), so the merchant keeps its id and can offer another card.
 */
export function errorFor(answer: Answer<{ result: GatewayResult }>, details: GatewayErrorDetails = {}): GatewayError {
  const { body, status } = answer;
  const { result } = body;
  const resultKind = classifyResult(result.code);
  const payment = isPaymentAnswer(body) ? body : undefined;
  let Type: ErrorClass = CLASS_OF[resultKind] ?? GatewayError;
  if (DECLINE_KINDS.has(resultKind) || (payment && resultKind === 'rejected_validation')) Type = GatewayDeclinedError;
  // The request's own id first: an answer may carry anything in its copy.
  const echoed = payment?.merchantTransactionId;
  const merchantTransactionId = details.merchantTransactionId ?? (typeof echoed === 'string' ? echoed : undefined);
  const fields = { resultCode: result.code, description: textOrUndefined(result.description), resultKind, parameterErrors: readParameterErrors(result.parameterErrors), httpStatus: status, payment, ...details };
  if (resultKind === 'uncertain' || resultKind === 'unknown') {
    return new UncertainOutcomeError(`${describe(result)}: the outcome is not known`, { ...fields, merchantTransactionId: merchantTransactionId ?? '' });
  }
  return new Type(describe(result), { ...fields, merchantTransactionId });
}

/** True for result codes that are an answer (approved, pending, checkout created), not an error. */
export const isSuccess = (code: string) => SUCCESSES.includes(classifyResult(code));

/**
 * A payment answer as the caller sees it: returned when approved (also pending
 * review) or pending (a 3DS redirect, or a checkout not yet paid); thrown as a
 * typed error otherwise, with the answer in `error.payment` when it is a payment.
 */
export function settle<T extends { result: GatewayResult }>(answer: Answer<T>, details?: GatewayErrorDetails): T {
  if (isSuccess(answer.body.result.code)) return answer.body;
  throw errorFor(answer, details);
}
