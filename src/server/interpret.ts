/**
 * What a gateway answer means, as a value: the answer itself when it is a
 * success (approved, pending, a checkout created), otherwise the typed error a
 * caller acts on (the classes live in `errors.ts`). Decided by `result.code`
 * alone, never by HTTP status. `interpret` is the one decision; `settle` throws
 * its error for the resources, `outcomeOf` reads it without throwing.
 */
import type { Redactor } from '../contract/redaction.js';
import { classifyResult, DECLINE_KINDS, isApproved, type ResultKind } from '../contract/result-codes.js';
import {
  GatewayAuthenticationError,
  GatewayDeclinedError,
  GatewayError,
  GatewayNetworkError,
  GatewayNotFoundError,
  GatewayPermissionError,
  GatewayThrottledError,
  GatewayValidationError,
  UncertainOutcomeError,
  type GatewayErrorDetails,
  type GatewayParameterError,
} from './errors.js';
import type { GatewayResult, Payment } from './types.js';

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

/** The transactions that capture, refund or reverse another (`POST /v1/payments/{id}`). */
const REFERENCE_TYPES: ReadonlySet<unknown> = new Set(['CP', 'RF', 'RV']);

/** An answer as the transport hands it over: its HTTP status and parsed body (a `result` with a string `code`). */
export interface Answer<T = Payment> {
  readonly status: number;
  readonly body: T;
  /** The seconds its `Retry-After` header named, when it had one. */
  readonly retryAfterSeconds?: number;
}

/** True when the answer is a payment that exists at the gateway: it has an id. */
export const isPaymentAnswer = (body: { result: GatewayResult }): body is Payment => {
  const { id } = body as { id?: unknown };
  return typeof id === 'string' && id !== '';
};

/** `description (code)`, without inventing a description the gateway did not send. */
export const describe = (result: GatewayResult) =>
  typeof result.description === 'string' && result.description ? `${result.description} (${result.code})` : `Result ${result.code}`;

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
  // A validation code on a payment is a refusal of its card or account data (`100.100.101`): declined. A capture, refund
  // or reversal refused by a validation code (`700.400.510`, `700.400.100`, `600.200.500`), which the platform answers as
  // a transaction of its own, is the merchant's request to fix, nothing the shopper did: invalid, its transaction kept.
  const reference = payment !== undefined && REFERENCE_TYPES.has(payment.paymentType);
  if (DECLINE_KINDS.has(resultKind) || (payment && resultKind === 'rejected_validation' && !reference)) Type = GatewayDeclinedError;
  // The request's own id first: an answer may carry anything in its copy.
  const echoed = payment?.merchantTransactionId;
  const merchantTransactionId = details.merchantTransactionId ?? (typeof echoed === 'string' ? echoed : undefined);
  const fields = {
    resultCode: result.code,
    description: textOrUndefined(result.description),
    resultKind,
    parameterErrors: readParameterErrors(result.parameterErrors),
    httpStatus: status,
    payment,
    ...details,
  };
  if (resultKind === 'uncertain' || resultKind === 'unknown') {
    return new UncertainOutcomeError(`${describe(result)}: the outcome is not known`, {
      ...fields,
      merchantTransactionId: merchantTransactionId ?? '',
    });
  }
  // The wait a throttle named: what `GatewayThrottledError.retryAfterSeconds` says when known.
  const wait =
    Type === GatewayThrottledError && answer.retryAfterSeconds !== undefined ? { retryAfterSeconds: answer.retryAfterSeconds } : {};
  return new Type(describe(result), { ...fields, merchantTransactionId, ...wait });
}

/** True for result codes that are an answer (approved, pending, checkout created), not an error. */
export const isSuccess = (code: string) => SUCCESSES.includes(classifyResult(code));

/**
 * A payment answer as the caller sees it: the answer when approved (also pending
 * review) or pending (a 3DS redirect, or a checkout not yet paid); the typed
 * error otherwise, with the answer in `error.payment` when it is a payment.
 */
export function interpret<T extends { result: GatewayResult }>(answer: Answer<T>, details?: GatewayErrorDetails): T | GatewayError {
  return isSuccess(answer.body.result.code) ? answer.body : errorFor(answer, details);
}

/** `interpret`, with the error thrown: what a resource method does with its answer. */
export function settle<T extends { result: GatewayResult }>(answer: Answer<T>, details?: GatewayErrorDetails): T {
  const value = interpret(answer, details);
  if (value instanceof GatewayError) throw value;
  return value;
}

/**
 * `settle` for a status read: an approval names what it approved (an `id`), and a read of a transaction by its id names
 * it in any success. One that names nothing (a report's answer or a checkout creation's, mixed up on the way: nothing
 * to ship, capture or refund by) is no answer to this read, so it is thrown as a lost one, never returned as the read.
 * `pendingUnnamed`: a pending answer may name nothing (a checkout not paid yet).
 */
export function settleRead<T extends { result: GatewayResult }>(
  answer: Answer<T>,
  what: string,
  redact: Redactor,
  pendingUnnamed = false,
): T {
  const { code } = answer.body.result;
  if (!isPaymentAnswer(answer.body) && (pendingUnnamed ? isApproved(code) : isSuccess(code)))
    throw new GatewayNetworkError(`The answer to ${what} names no transaction (${code} without an id): not used`, { redact });
  return settle(answer);
}
