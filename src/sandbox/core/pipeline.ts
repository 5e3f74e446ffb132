/**
 * The sandbox's one request pipeline: a web `Request` in, a `Response` out
 * (`answer`), whatever runtime carries it (a service worker in
 * service-worker/worker.ts; node:http in node/server.ts, through `serve`).
 * Around the routes it does, once: the CORS preflight, the body and field
 * limits, the pending fault, the masked log line, the scrubbing of refusals
 * and the HTTP 500 for the sandbox's own bugs. Every request gets a
 * well-formed answer in the gateway's shape.
 */
import { maskCardNumbers, type Redactor } from '../../contract/redaction.js';
import { CONTROL_ROUTES } from '../controls/controls.js';
import type { FaultMode } from '../controls/faults.js';
import { bodyTooLarge, type SandboxLimits } from '../limits.js';
import { redactorOf, withEntityOf } from '../protocol/auth.js';
import { dispatch, reply, type Request as RoutedRequest, type Route, type Routed } from '../protocol/dispatch.js';
import { LAST_RESORT, noPreflight, systemError, unreadableRequest } from '../protocol/fallbacks.js';
import { GATEWAY_ROUTES } from '../protocol/routes.js';
import { detached, parseForm, PREFLIGHT, resultCodeOf, statusOf, toWire, type Reply, type WireAnswer } from '../protocol/wire.js';
import type { FlatParams } from '../gateway/store.js';
import type { SandboxState } from './state.js';

/**
 * What the pipeline reads of a request: a web `Request` is one. The Node
 * adapter hands node's request in this shape rather than as a `Request`,
 * whose construction (and the `Response`'s, read back) doubled the server's
 * CPU time per request on Node 20 (`npm run bench -- sandbox`).
 */
export interface PipelineRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Pick<Headers, 'get'>;
  /** The body as it arrives: a web `Request`'s stream, or any source read the same way; null for none. */
  readonly body: BodySource | null;
  /** Aborts once the caller has gone (a web `Request`'s signal is one): a request the `hang` fault holds is let go then. */
  readonly signal?: Pick<AbortSignal, 'aborted' | 'addEventListener'>;
}

/** What the pipeline reads of a body: a `ReadableStream<Uint8Array>` is one. */
export interface BodySource {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>; cancel(): Promise<void> };
  cancel(): Promise<void>;
}

/** What the adapter knows of a request beyond the web `Request`. */
export interface Caller {
  /**
   * The request target relative to the sandbox's base URL, as sent (`/v1/payments?…`): routes match the path
   * undecoded and unnormalised. Without it, the `Request`'s URL after the base's path.
   */
  readonly target?: string;
  /** The caller's IP address (IPv4 without the `::ffff:` prefix), which the platform adds to a widget payment. */
  readonly remoteAddress?: string | undefined;
}

/**
 * The request target split without `new URL`, which throws on targets such as
 * `//` or `http://`. The path is matched as sent (routes never decode it); an
 * absolute-form or `*` target simply matches no route.
 */
export function splitTarget(target: string): { path: string; query: string } {
  const mark = target.indexOf('?');
  if (mark < 0) return { path: target, query: '' };
  const hash = target.indexOf('#', mark);
  return { path: detached(target.slice(0, mark)), query: target.slice(mark + 1, hash < 0 ? undefined : hash) };
}

/** The target after the base URL's own path, for a caller that gave none. */
function targetOf(state: SandboxState, request: PipelineRequest): string {
  const url = new URL(request.url);
  const basePath = state.base ? new URL(state.base).pathname.replace(/\/$/, '') : '';
  const path = basePath && url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
  return `${path}${url.search}`;
}

/**
 * The body as text, within `limits.bodyBytes`. A larger one is refused as soon
 * as it is known to be, and the rest of it is left to the adapter to read and
 * throw away (`cancel`) rather than cut off: closing a connection the client is
 * still writing to resets it, and the client would never see the HTTP 413.
 */
async function readBody(request: PipelineRequest, limits: SandboxLimits): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > limits.bodyBytes) {
    await request.body?.cancel();
    throw bodyTooLarge(limits);
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    size += value.length;
    if (size > limits.bodyBytes) {
      await reader.cancel();
      throw bodyTooLarge(limits);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * A refusal quotes what was sent (parameterErrors values, a path, an id as
 * `ndc`): scrubbed of the request's secrets and of any card number. Other
 * answers are built from records already kept scrubbed (see `storable`).
 */
function scrubbedRefusal(answer: Reply, redact: Redactor): Reply {
  if (answer.kind !== 'json' || answer.status < 400) return answer;
  const body = redact.deep(answer.body);
  return { ...answer, body: typeof body.ndc === 'string' ? { ...body, ndc: maskCardNumbers(body.ndc) } : body };
}

/** Every endpoint the sandbox answers: the gateway's, then its own controls. */
const ROUTES: readonly Route[] = [...GATEWAY_ROUTES, ...CONTROL_ROUTES];

/** Answers one parsed request without HTTP around it (also used by tests and the benchmark). */
export function route(
  state: SandboxState,
  sent: RoutedRequest,
  redact: Redactor = redactorOf(state, sent.params, sent.authorization),
): Routed {
  return dispatch(ROUTES, state, withEntityOf(sent), redact);
}

/** Whether a path belongs to the browser-side widget, which answers CORS preflights. */
export const isCorsPath = (path: string): boolean => ROUTES.some((candidate) => candidate.cors && candidate.pattern.test(path));

/** The `drop` fault: processed, then the connection is cut unanswered. */
export const DROP = 'drop';

/**
 * The `hang` fault: no answer, as from a gateway that does not answer, until the caller has gone; then the connection
 * is cut (to nobody). Each request waits on a promise of its own, so what it holds goes with it: one shared promise
 * that never settled kept every hung request's socket, headers and frames for the life of the process.
 */
function untilGone(signal: PipelineRequest['signal']): Promise<typeof DROP> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve(DROP);
    else signal?.addEventListener('abort', () => resolve(DROP), { once: true });
  });
}

/** Serves one request; may throw on a bug, which `serve` turns into HTTP 500. */
async function pipeline(
  state: SandboxState,
  request: PipelineRequest,
  caller: Caller,
  onError: (error: unknown) => void,
): Promise<WireAnswer | typeof DROP> {
  const { path, query } = splitTarget(caller.target ?? targetOf(state, request));
  const { method } = request;
  if (method === 'OPTIONS') {
    return isCorsPath(path) ? PREFLIGHT : toWire(noPreflight(state));
  }
  let params: FlatParams;
  try {
    // Only a POST's body holds parameters; any other's is left unread, for the adapter to throw away.
    params = parseForm(method === 'POST' ? await readBody(request, state.limits) : query, state.limits);
  } catch (error) {
    const refused = unreadableRequest(state, error);
    const at = state.store.clock.now().toISOString();
    state.log.add({
      at,
      method,
      path: redactorOf(state, {}, undefined)(path),
      status: statusOf(refused),
      resultCode: resultCodeOf(refused)!,
      params: {},
    });
    return toWire(refused);
  }
  const at = state.store.clock.now().toISOString();
  const fault: FaultMode | undefined = state.faults.take(path);
  const authorization = request.headers.get('authorization') ?? undefined;
  const redact = redactorOf(state, params, authorization);
  const logged = { at, method, path: redact(path), params: state.log.params(params, redact), ...(fault ? { fault } : {}) };
  if (fault === 'hang') {
    state.log.add({ ...logged, status: 0 });
    return untilGone(request.signal);
  }
  if (fault === 'error') {
    const failed = systemError(state, 'The payment system is currently unavailable (fault injected by gw-sandbox).');
    state.log.add({ ...logged, status: statusOf(failed), resultCode: resultCodeOf(failed)! });
    return toWire(failed);
  }
  let routed: Routed;
  try {
    routed = route(state, { method, path, params, authorization, remoteAddress: caller.remoteAddress }, redact);
  } catch (error) {
    onError(error);
    routed = reply(systemError(state));
  }
  const resultCode = resultCodeOf(routed.reply);
  state.log.add({
    ...logged,
    status: fault === 'drop' ? 0 : statusOf(routed.reply),
    ...(resultCode ? { resultCode } : {}),
    ...(routed.paymentId ? { paymentId: routed.paymentId } : {}),
  });
  // Processed, then the connection is lost: the caller sees a network error and never the outcome.
  if (fault === 'drop') return DROP;
  return toWire(scrubbedRefusal(routed.reply, redact));
}

/**
 * Serves one request, as its wire answer or `DROP`. Never rejects: a bug
 * answers HTTP 500 `800.800.800` (or fixed bytes, when even that fails) and is
 * handed to `onError`. A `hang` fault never settles.
 */
export async function serve(
  state: SandboxState,
  request: PipelineRequest,
  caller: Caller = {},
  onError: (error: unknown) => void = () => {},
): Promise<WireAnswer | typeof DROP> {
  try {
    return await pipeline(state, request, caller, onError);
  } catch (error) {
    onError(error);
    try {
      return toWire(systemError(state));
    } catch (again) {
      onError(again);
      return { status: LAST_RESORT.status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: LAST_RESORT.text };
    }
  }
}

/** Answers one web `Request` with a `Response`; `Response.error()` means "cut the connection" (the `drop` fault). */
export async function answer(
  state: SandboxState,
  request: Request,
  caller: Caller = {},
  onError: (error: unknown) => void = () => {},
): Promise<Response> {
  const served = await serve(state, request, caller, onError);
  if (served === DROP) return Response.error();
  return new Response(served.body as BodyInit | null, { status: served.status, headers: served.headers });
}
