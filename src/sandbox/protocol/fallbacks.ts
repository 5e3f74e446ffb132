/**
 * The answers the pipeline gives outside any route, in the gateway's shape:
 * a request refused before routing (too large, unreadable, a preflight where
 * there is none), the sandbox's own bug, and what node's HTTP parser refused.
 */
import { RESULT_CODES } from '../../contract/result-codes.js';
import type { SandboxState } from '../core/state.js';
import { result } from '../gateway/store.js';
import { RequestLimitError } from '../limits.js';
import { envelope, failure } from './envelope.js';
import type { Reply } from './wire.js';

/** HTTP 500 `800.800.800`: the sandbox's own bug, or an `error` fault (with its description). */
export const systemError = (state: SandboxState, description?: string): Reply =>
  failure(
    500,
    RESULT_CODES.systemUnavailable,
    state.store.clock.now(),
    state.store.ndc(undefined),
    description === undefined ? {} : { description },
  );

/** The last resort when even building an answer failed: fixed bytes, no clock, no store. */
export const LAST_RESORT = {
  status: 500,
  text: JSON.stringify({ result: { code: RESULT_CODES.systemUnavailable, description: 'unexpected error in gw-sandbox' } }),
} as const;

/** A request refused before routing: a limit (HTTP 413 for the body, 400 for the rest) or a body that cannot be read (400). */
export function unreadableRequest(state: SandboxState, error: unknown): Reply {
  const refusal = error instanceof RequestLimitError ? error : undefined;
  return failure(refusal?.status ?? 400, RESULT_CODES.invalidParameter, state.store.clock.now(), state.store.ndc(undefined), {
    description: refusal?.description ?? 'unreadable request body',
  });
}

/** A CORS preflight on a path that is not the widget's: HTTP 405. */
export const noPreflight = (state: SandboxState): Reply =>
  failure(405, RESULT_CODES.invalidParameter, state.store.clock.now(), state.store.ndc(undefined), { description: 'no preflight here' });

/** Why node's HTTP parser refused a request, as the status and body the gateway would answer. */
export function parserRefusal(state: SandboxState, code: string | undefined): { status: number; text: string } {
  const [status, description] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request headers too large']
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request not received in time']
        : code === 'HPE_INVALID_EOF_STATE'
          ? [400, 'request ended before its body was complete']
          : [400, 'malformed HTTP request'];
  const body = envelope(
    { result: result(RESULT_CODES.invalidParameter, description) },
    state.store.clock.now(),
    state.store.ndc(undefined),
  );
  return { status, text: JSON.stringify(body) };
}
