/**
 * What the demo merchant answers when something went wrong: a status and a
 * message a page can show, never a stack, a card number or the token. One
 * mapping for the JSON routes and the pages the merchant renders.
 */
import { STATUS_CODES } from 'node:http';
import { GatewayError } from 'gw-elements/server';
import type { GatewayCall } from './call-recorder.js';
import { BadRequest, NotFound } from './input.js';

/** A gateway call's error as the page may show it (the helper's messages hold no card data or token). */
export class GatewayFailure extends Error {
  constructor(
    readonly reason: unknown,
    readonly calls: readonly GatewayCall[],
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/** The answer to anything that went wrong: a JSON body with a message the page can show, never a stack. */
export function failureAnswer(error: unknown): { status: number; body: object; unexpected?: unknown } {
  if (error instanceof BadRequest) return { status: error instanceof NotFound ? 404 : 400, body: { error: error.message } };
  if (error instanceof GatewayFailure) {
    const cause = error.reason;
    // The client's outcome kind decides: fields the gateway refused came from the page (400), a reference it does not know
    // too (404); everything else is the gateway failing the shop (502).
    if (cause instanceof GatewayError) {
      const status = cause.outcome === 'invalid' ? 400 : cause.outcome === 'not_found' ? 404 : 502;
      return { status, body: { outcome: cause.outcome, error: error.message, resultCode: cause.resultCode, calls: error.calls } };
    }
    return { status: 500, body: { error: "the shop's server failed; see its console", calls: error.calls }, unexpected: cause };
  }
  // The shared status store could not answer (an Idempotency-Key's claim): nothing was sent, try again shortly.
  if (error instanceof GatewayError && error.outcome === 'throttled')
    return { status: 503, body: { error: 'the shop is busy: nothing was sent, try again shortly' } };
  // Express's own refusals (a body over the limit, malformed JSON, a path it cannot decode) carry a 4xx status; their
  // messages may quote the input, so only the status is kept.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, body: { error: `the request was refused: ${STATUS_CODES[status] ?? 'bad request'}` } };
  return { status: 500, body: { error: "the shop's server failed; see its console" }, unexpected: error };
}
