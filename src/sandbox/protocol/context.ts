/**
 * The shapes the HTTP front's routes share: a parsed request, the context a
 * handler is given for it, and what a handler answers.
 */
import type { Redactor } from '../../contract/redaction.js';
import type { SandboxState } from '../core/state.js';
import type { AnswerBody, FlatParams, Reply } from './wire.js';

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
