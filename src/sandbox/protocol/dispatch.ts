/**
 * How a parsed request reaches its handler: the request, the context a
 * handler is given for it, what a handler answers, and the dispatch over a
 * table of routes (an unknown path answers 404, a known one with another
 * method 405).
 */
import type { Redactor } from '../../contract/redaction.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { failure } from './envelope.js';
import type { SandboxState } from '../core/state.js';
import type { AnswerBody, Reply } from './wire.js';
import type { FlatParams } from '../gateway/store.js';

export interface Request {
  readonly method: string;
  readonly path: string;
  readonly params: FlatParams;
  readonly authorization: string | undefined;
  /** The caller's IP address, as the socket saw it (IPv4 without the `::ffff:` prefix). */
  readonly remoteAddress?: string | undefined;
}

/**
 * One request as a handler sees it: the state, the request, the time it
 * arrived (every answer about it is written at that time), and its scrubber.
 */
export interface RequestContext {
  readonly state: SandboxState;
  readonly request: Request;
  readonly now: Date;
  /** The request's `entityId` as sent (unchecked: a handler's refusal checks it). */
  readonly entityId: string | undefined;
  /**
   * A fresh `ndc` for an answer that is about no checkout: `<entityId>_<request
   * id>`. A function, not a value: each call draws a request id from the
   * store's seeded stream, so only an answer that carries one draws it.
   */
  ndc(): string;
  /** Scrubs the request's own secrets (token, card number, security code) and any secret by shape. */
  readonly redact: Redactor;
}

export interface Routed {
  readonly reply: Reply;
  readonly paymentId?: string;
}

export type Handler = (context: RequestContext, match: RegExpExecArray) => Routed;

export interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly handler: Handler;
  /** Answers CORS for the browser-side widget. */
  readonly cors?: boolean;
}

export const json = (status: number, body: AnswerBody, cors = false): Reply => ({ kind: 'json', status, body, ...(cors ? { cors } : {}) });
export const reply = (value: Reply, paymentId?: string): Routed => (paymentId ? { reply: value, paymentId } : { reply: value });

/** Answers one parsed request from `routes`, without HTTP around it. The request's context is made here, once: its time, its entity, its `ndc` draw and its scrubber. */
export function dispatch(routes: readonly Route[], state: SandboxState, request: Request, redact: Redactor): Routed {
  const entityId = request.params.entityId;
  const context: RequestContext = { state, request, now: state.store.clock.now(), entityId, ndc: () => state.store.ndc(entityId), redact };
  for (const candidate of routes) {
    if (candidate.method !== request.method) continue;
    const match = candidate.pattern.exec(request.path);
    if (match) return candidate.handler(context, match);
  }
  const known = routes.some((candidate) => candidate.pattern.test(request.path));
  return reply(
    failure(known ? 405 : 404, RESULT_CODES.invalidParameter, context.now, context.ndc(), {
      description: `no endpoint ${request.method} ${request.path}`,
    }),
  );
}
