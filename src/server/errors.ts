/**
 * The one error hierarchy of the server helper: each class is one thing a caller
 * can act on. Errors carry the gateway's result code, description and masked
 * parameter errors, never a card number, a security code or the access token.
 */
import { maskParameter, maskSecretsByShape } from '../contract/redaction.js';
import type { ParameterError } from '../contract/rules.js';
import type { Payment } from './types.js';

export interface GatewayErrorDetails {
  resultCode?: string | undefined;
  description?: string | undefined;
  httpStatus?: number | undefined;
  parameterErrors?: readonly ParameterError[] | undefined;
  /** The gateway's answer when it carried a payment (declined, uncertain). Its card data is the gateway's own bin and last 4 digits. */
  payment?: Payment | undefined;
  cause?: unknown;
  /** Subclass fields, below. */
  retryAfterSeconds?: number | undefined;
  merchantTransactionId?: string;
  mismatches?: readonly VerificationMismatch[];
}

const scrub = maskSecretsByShape;

/** Anything that went wrong talking to the gateway. */
export class GatewayError extends Error {
  // Names are written out, not read from the class: minifiers rename classes.
  override name = 'GatewayError';
  declare readonly resultCode?: string;
  declare readonly description?: string;
  declare readonly httpStatus?: number;
  declare readonly parameterErrors: readonly ParameterError[];
  declare readonly payment?: Payment;

  constructor(message: string, details: GatewayErrorDetails = {}) {
    const { cause, parameterErrors = [], ...fields } = details;
    // Our own errors are already safe and keep their class; any other cause is reduced to a scrubbed copy.
    super(scrub(message), cause instanceof Error ? { cause: cause instanceof GatewayError ? cause : sanitizedCause(cause) } : undefined);
    // Re-masked here so a gateway (or emulator) that echoes raw values cannot leak them through us.
    const masked = parameterErrors.map(({ name, value, message }) => ({ name, value: maskParameter(name, String(value)), message }));
    Object.assign(this, fields, { parameterErrors: masked });
  }

  /** What a log line may hold: everything a caller acts on (the payment by its id only), nothing sensitive. */
  toJSON(): Record<string, unknown> {
    const { payment, ...fields } = this;
    const cause = this.cause instanceof Error ? { name: this.cause.name, message: this.cause.message } : undefined;
    return { ...fields, name: this.name, message: this.message, paymentId: payment?.id, cause };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `${this.stack}\n${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}

/** A cause we did not create may carry anything in its message: keep its name and a scrubbed message only. */
function sanitizedCause(cause: Error): Error {
  const copy = new Error(scrub(cause.message));
  copy.name = cause.name;
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** The access token was refused (`800.900.300`, `800.900.302`): check the credentials. */
export class GatewayAuthenticationError extends GatewayError {
  override name = 'GatewayAuthenticationError';
}

/** The token is valid but may not act for this entity (`800.900.301`). */
export class GatewayPermissionError extends GatewayError {
  override name = 'GatewayPermissionError';
}

/**
 * Bad or missing fields. Raised before sending when our own check (the shared
 * contract) finds them, with every bad field in `parameterErrors`; also raised
 * when the gateway rejects a request's data or references (`200.300.404`, `700.*`).
 */
export class GatewayValidationError extends GatewayError {
  override name = 'GatewayValidationError';
}

/** The payment was refused: by the bank, by 3-D Secure, by risk checks or by the gateway's system. `payment` holds the answer. */
export class GatewayDeclinedError extends GatewayError {
  override name = 'GatewayDeclinedError';
}

/** Too many requests (`800.120.100`), or the seed's 2-a-minute checkout status limit, enforced here before sending. */
export class GatewayThrottledError extends GatewayError {
  override name = 'GatewayThrottledError';
  /** Seconds after which a new request may be sent, when known. */
  declare readonly retryAfterSeconds?: number;
}

/** The checkout, payment, registration or report does not exist (or no longer answers, like a consumed checkout). */
export class GatewayNotFoundError extends GatewayError {
  override name = 'GatewayNotFoundError';
}

/** No usable answer arrived: the connection failed or the body was not the gateway's JSON. */
export class GatewayNetworkError extends GatewayError {
  override name = 'GatewayNetworkError';
}

/** No answer within `timeoutMs`. */
export class GatewayTimeoutError extends GatewayNetworkError {
  override name = 'GatewayTimeoutError';
}

/**
 * A payment request may or may not have moved money, and looking it up by its
 * `merchantTransactionId` did not tell. Never retry the payment blindly: look it
 * up later with `reports.findByMerchantTransactionId(error.merchantTransactionId)`.
 */
export class UncertainOutcomeError extends GatewayError {
  override name = 'UncertainOutcomeError';
  declare readonly merchantTransactionId: string;

  constructor(message: string, details: GatewayErrorDetails & { merchantTransactionId: string }) {
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
  declare readonly mismatches: readonly VerificationMismatch[];

  constructor(message: string, details: GatewayErrorDetails & { mismatches: readonly VerificationMismatch[]; payment: Payment }) {
    super(message, details);
  }
}
