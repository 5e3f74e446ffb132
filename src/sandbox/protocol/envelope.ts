/**
 * The sandbox's answers: each result code with the platform's description (from
 * the contract), and the envelope (buildNumber, timestamp, ndc) every JSON body
 * carries, in the platform's formats.
 */
import { RESULT_CODES } from '../../contract/result-codes.js';
import type { ParameterError } from '../../contract/rules.js';
import { result } from '../gateway/store.js';
import { gatewayTimestamp, type AnswerBody, type Reply } from './wire.js';

/**
 * The build marker every answer carries, in the platform's shape
 * (`<40 hex>@YYYY-MM-DD hh:mm:ss +0000`): a commit-like hash (the SHA-1 of
 * `gw-sandbox 0.1.0`) and its build date. Informational, fixed.
 */
export const BUILD_NUMBER = 'a1cccf5001f9e5e829dffba867e512ac11f66512@2026-11-21 00:00:00 +0000';

/**
 * The platform's answer time without milliseconds (`2022-08-25 13:51:06+0000`),
 * as it writes it on every answer but a payment's; a payment carries the time
 * of the transaction with milliseconds (`gatewayTimestamp`).
 */
export function answerTimestamp(date: Date): string {
  return withoutMilliseconds(gatewayTimestamp(date));
}

/** A gateway timestamp to the second, as answers and notifications write it. */
export const withoutMilliseconds = (timestamp: string): string => timestamp.replace(/\.\d{3}\+/, '+');

/**
 * Adds the envelope fields to a body; `ndc` is the checkout the answer is
 * about, or `<entityId>_<request id>`. A body that has its own `timestamp` (a
 * payment's) keeps it.
 */
export function envelope<Body extends AnswerBody & { readonly timestamp?: string }>(body: Body, now: Date, ndc: string): Enveloped<Body> {
  const { timestamp, ...fields } = body;
  return {
    ...fields,
    buildNumber: BUILD_NUMBER,
    timestamp: typeof timestamp === 'string' ? timestamp : answerTimestamp(now),
    ndc,
  } as Enveloped<Body>;
}

/** The fields every JSON answer carries, as the contract's answer types declare them. */
export interface Envelope {
  readonly buildNumber: string;
  readonly timestamp: string;
  readonly ndc: string;
}
export type Enveloped<Body> = Omit<Body, keyof Envelope> & Envelope;

const BUILD_NUMBER_JSON = JSON.stringify(BUILD_NUMBER);

/**
 * `envelope` for a body already serialised without its `timestamp`: the same
 * fields in the same order appended to its text, so a body kept as text is
 * not copied or serialised again. `timestamp` is the body's own, if it has one.
 */
export function envelopeJson(bodyJson: string, now: Date, ndc: string, timestamp: string = answerTimestamp(now)): string {
  const fields = `{"buildNumber":${BUILD_NUMBER_JSON},"timestamp":${JSON.stringify(timestamp)},"ndc":${JSON.stringify(ndc)}}`;
  return bodyJson === '{}' ? fields : `${bodyJson.slice(0, -1)},${fields.slice(1)}`;
}

/** A JSON reply with just a result (plus parameter errors), in the gateway's envelope. */
export function failure(
  status: number,
  code: string,
  now: Date,
  ndc: string,
  extra: { description?: string; parameterErrors?: readonly ParameterError[] } = {},
): Reply {
  const body = {
    result: { ...result(code, extra.description), ...(extra.parameterErrors ? { parameterErrors: extra.parameterErrors } : {}) },
  };
  return { kind: 'json', status, body: envelope(body, now, ndc) };
}

/** HTTP 400, `200.300.404`, naming every bad field. */
export function invalidParameters(errors: readonly ParameterError[], now: Date, ndc: string): Reply {
  return failure(400, RESULT_CODES.invalidParameter, now, ndc, { parameterErrors: errors });
}
