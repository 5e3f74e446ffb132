/**
 * Records what the merchant back end said to the gateway, so each demo page can
 * show the calls it caused. It is fed by the one gateway client's `onResponse`
 * hook, as a merchant's logging and metrics would be: the events are already
 * masked by the client (card number to its first six and last four digits,
 * security code `***`, anything shaped like a card number or token, never the
 * access token). Each event lands with the page request whose work caused it,
 * followed through awaits by an AsyncLocalStorage.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { classifyResult, type GatewayResponseEvent, type ResultKind } from 'gw-elements/server';

/** One attempt of one request to the gateway as the demo shows it. */
export interface GatewayCall {
  readonly method: string;
  /** The path without the host, e.g. `/v1/checkouts/{id}/payment`. */
  readonly path: string;
  /** 1, then 2… when the client retried a read. */
  readonly attempt: number;
  /** The form fields (POST) or query parameters (GET), masked. */
  readonly params: Readonly<Record<string, string>>;
  /** The HTTP status, 0 when no answer came. */
  readonly status: number;
  readonly resultCode: string;
  /** Empty for an answer; why there is none otherwise. */
  readonly resultDescription: string;
  readonly resultKind: ResultKind | 'no_answer';
  readonly ms: number;
}

/** A response event as the call panel shows it. */
export function callOf(event: GatewayResponseEvent): GatewayCall {
  return {
    method: event.method,
    path: event.path,
    attempt: event.attempt,
    params: event.params,
    status: event.httpStatus ?? 0,
    resultCode: event.resultCode ?? '',
    resultDescription: event.resultCode ? '' : `no answer (${event.failure ?? 'unreadable'})`,
    resultKind: event.resultCode ? classifyResult(event.resultCode) : 'no_answer',
    ms: Math.round(event.durationMs),
  };
}

/** The calls of each piece of work run through {@link CallRecorder.record}; `onResponse` goes to the client. */
export class CallRecorder {
  readonly #current = new AsyncLocalStorage<GatewayCall[]>();

  /** The client's hook: the call goes to the work that made it (a call made outside any, say a notification's, to none). */
  readonly onResponse = (event: GatewayResponseEvent): void => {
    this.#current.getStore()?.push(callOf(event));
  };

  /**
   * Runs `work`, collecting the calls it causes into `calls` (filled as they happen, so a failure still shows them).
   * A status read another request already had under way is shared by the client and shows with that request only.
   */
  record<T>(calls: GatewayCall[], work: () => Promise<T>): Promise<T> {
    return this.#current.run(calls, work);
  }
}
