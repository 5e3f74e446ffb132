/**
 * The sandbox's answers: each result code it gives with the platform's
 * description, and the envelope (buildNumber, timestamp, ndc) every JSON body carries.
 */
import { RESULT_CODES } from '../contract/result-codes.js';
import type { ParameterError } from '../contract/rules.js';
import type { Result } from './store.js';
import { gatewayTimestamp, type Reply } from './wire.js';

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  [RESULT_CODES.approved]: 'Request successfully processed',
  [RESULT_CODES.approvedIntegratorTest]: "Request successfully processed in 'Merchant in Integrator Test Mode'",
  [RESULT_CODES.approvedConnectorTest]: "Request successfully processed in 'Merchant in Connector Test Mode'",
  [RESULT_CODES.pending]: 'transaction pending',
  [RESULT_CODES.checkoutCreated]: 'successfully created checkout',
  [RESULT_CODES.invalidParameter]: 'invalid or missing parameter',
  [RESULT_CODES.unauthorized]: 'invalid authentication information',
  [RESULT_CODES.forbidden]: 'user authorization failed, user has no sufficient rights to process transaction',
  [RESULT_CODES.throttled]: 'Too many requests. Please try again later.',
  [RESULT_CODES.cannotCapture]: 'cannot capture (PA value exceeded, PA reverted or invalid workflow?)',
  [RESULT_CODES.cannotRefund]: 'cannot refund (refund volume exceeded or tx reversed or invalid workflow?)',
  [RESULT_CODES.cannotReverse]: 'cannot reverse (already refunded|reversed, invalid workflow or amount exceeded)',
  [RESULT_CODES.referenceNotFound]: 'reference id not existing',
  [RESULT_CODES.transactionNotFound]: 'cannot find transaction',
  [RESULT_CODES.registrationNotFound]: 'registration does not exist',
  [RESULT_CODES.invalidRegistrationId]: 'invalid format for specified registration id (must be uuid format)',
  [RESULT_CODES.registrationDeregistered]: 'registration already deregistered',
  [RESULT_CODES.timeoutUncertain]: 'timeout, uncertain result',
  [RESULT_CODES.declinedByAuthorization]: 'transaction declined by authorization system',
  [RESULT_CODES.invalidCvv]: 'transaction declined (invalid CVV)',
  [RESULT_CODES.insufficientFunds]: 'transaction declined (amount exceeds credit)',
  [RESULT_CODES.expiredCard]: 'transaction declined (wrong expiry date)',
  [RESULT_CODES.threeDsFailed]: 'User Authentication Failed',
  [RESULT_CODES.frictionlessAuthenticated]: 'Authentication successful (frictionless flow)',
  '000.400.101': 'card not participating/authentication unavailable',
  '000.400.102': 'user not enrolled',
  '100.390.112': 'Technical Error in 3D system',
  [RESULT_CODES.amountTooLow]: 'request contains no amount or too low amount',
  [RESULT_CODES.duplicateTransaction]: 'Duplicate transaction',
  '800.800.800': 'The payment system is currenty unavailable, please contact support in case this happens again.',
};

/** A result with the platform's description of its code. */
export function result(code: string, description = DESCRIPTIONS[code] ?? code): Result {
  return { code, description };
}

/** The build marker every answer carries: informational, like the platform's. */
export const BUILD_NUMBER = 'gw-sandbox@0.1.0 2026-11-21 00:00:00 +0000';

/** Adds the envelope fields to a body; `ndc` is the checkout or payment the answer is about. */
export function envelope(body: Record<string, unknown>, now: Date, ndc: string): Record<string, unknown> {
  return { ...body, buildNumber: BUILD_NUMBER, timestamp: gatewayTimestamp(now), ndc };
}

/** A JSON reply with just a result (plus parameter errors), in the gateway's envelope. */
export function failure(status: number, code: string, now: Date, ndc: string, extra: { description?: string; parameterErrors?: readonly ParameterError[] } = {}): Reply {
  const body: Record<string, unknown> = { result: result(code, extra.description) };
  if (extra.parameterErrors) (body.result as Record<string, unknown>).parameterErrors = extra.parameterErrors;
  return { kind: 'json', status, body: envelope(body, now, ndc) };
}

/** HTTP 400, `200.300.404`, naming every bad field. */
export function invalidParameters(errors: readonly ParameterError[], now: Date, ndc: string): Reply {
  return failure(400, RESULT_CODES.invalidParameter, now, ndc, { parameterErrors: errors });
}
