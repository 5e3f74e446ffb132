/**
 * The sandbox's HTTP front: parses each request within the limits, injects a
 * pending fault, routes it, writes the answer and keeps a bounded, masked log
 * line of it. Every request gets a well-formed answer in the gateway's shape:
 * malformed HTTP, too-large bodies and the sandbox's own bugs included.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { maskCardNumbers, type Redactor } from '../../contract/redaction.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { RequestLimitError } from '../limits.js';
import { envelope, failure, result } from '../protocol/envelope.js';
import { isCorsPath, route } from '../protocol/routes.js';
import type { SandboxState } from '../core/state.js';
import { redactorOf } from '../protocol/auth.js';
import { reply, type Routed } from '../protocol/context.js';
import { detached, parseForm, readBody, sendPreflight, sendReply, type FlatParams, type Reply } from '../protocol/wire.js';

const SYSTEM_ERROR = RESULT_CODES.systemUnavailable;

const systemError = (state: SandboxState, description?: string) =>
  failure(500, SYSTEM_ERROR, state.store.clock.now(), state.store.ndc(undefined), description === undefined ? {} : { description });

const resultCodeOf = (answer: Reply): string | undefined => {
  if (answer.kind === 'json') return answer.body.result.code;
  if (answer.kind === 'redirect') return answer.resultCode;
  return undefined;
};

const statusOf = (answer: Reply): number =>
  answer.kind === 'json' || answer.kind === 'html' ? answer.status : answer.kind === 'redirect' ? 303 : 200;

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

/** Serves one request; may throw on a bug, which `handle` turns into HTTP 500. */
async function serve(
  state: SandboxState,
  incoming: IncomingMessage,
  response: ServerResponse,
  onError: (error: unknown) => void,
): Promise<void> {
  const { path, query } = splitTarget(incoming.url ?? '/');
  const method = incoming.method ?? 'GET';
  if (method === 'OPTIONS') {
    if (isCorsPath(path)) return sendPreflight(response);
    return sendReply(
      response,
      failure(405, RESULT_CODES.invalidParameter, state.store.clock.now(), state.store.ndc(undefined), {
        description: 'no preflight here',
      }),
    );
  }
  let params: FlatParams;
  try {
    params = parseForm(method === 'POST' ? await readBody(incoming, state.limits) : query, state.limits);
  } catch (error) {
    const refusal = error instanceof RequestLimitError ? error : undefined;
    const status = refusal?.status ?? 400;
    const answer = failure(status, RESULT_CODES.invalidParameter, state.store.clock.now(), state.store.ndc(undefined), {
      description: refusal?.description ?? 'unreadable request body',
    });
    state.log.add({
      at: state.store.clock.now().toISOString(),
      method,
      path: redactorOf(state, {}, undefined)(path),
      status,
      resultCode: RESULT_CODES.invalidParameter,
      params: {},
    });
    // A body cut short may have been answered already, by the HTTP parser's error.
    if (!response.headersSent && !response.destroyed) sendReply(response, answer);
    return;
  }
  const at = state.store.clock.now().toISOString();
  const fault = state.faults.take(path);
  const redact = redactorOf(state, params, incoming.headers.authorization);
  const base = { at, method, path: redact(path), params: state.log.params(params, redact), ...(fault ? { fault } : {}) };
  if (fault === 'hang') {
    state.log.add({ ...base, status: 0 });
    return;
  }
  if (fault === 'error') {
    const answer = systemError(state, 'The payment system is currently unavailable (fault injected by gw-sandbox).');
    state.log.add({ ...base, status: 500, resultCode: SYSTEM_ERROR });
    return sendReply(response, answer);
  }
  let routed: Routed;
  try {
    routed = route(
      state,
      {
        method,
        path,
        params,
        authorization: incoming.headers.authorization,
        remoteAddress: incoming.socket.remoteAddress?.replace(/^::ffff:/, ''),
      },
      redact,
    );
  } catch (error) {
    onError(error);
    routed = reply(systemError(state));
  }
  const resultCode = resultCodeOf(routed.reply);
  const status = fault === 'drop' ? 0 : statusOf(routed.reply);
  state.log.add({ ...base, status, ...(resultCode ? { resultCode } : {}), ...(routed.paymentId ? { paymentId: routed.paymentId } : {}) });
  if (fault === 'drop') {
    incoming.socket.destroy();
    return;
  }
  sendReply(response, scrubbedFailure(routed.reply, redact));
}

/**
 * A refusal quotes what was sent (parameterErrors values, a path, an id as
 * `ndc`): scrubbed of the request's secrets and of any card number. Other
 * answers are built from records already kept scrubbed (see `storable`).
 */
function scrubbedFailure(answer: Reply, redact: Redactor): Reply {
  if (answer.kind !== 'json' || answer.status < 400) return answer;
  const body = redact.deep(answer.body);
  return { ...answer, body: typeof body.ndc === 'string' ? { ...body, ndc: maskCardNumbers(body.ndc) } : body };
}

/** The last resort when even building an answer failed: fixed bytes, no clock, no store. */
const LAST_RESORT = JSON.stringify({ result: { code: SYSTEM_ERROR, description: 'unexpected error in gw-sandbox' } });

/** Answers HTTP 500 in the gateway's shape, if the answer has not started yet; else cuts the connection, so the client is never left waiting. */
function answerBug(state: SandboxState, response: ServerResponse): void {
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return;
  }
  try {
    sendReply(response, systemError(state));
  } catch {
    response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(LAST_RESORT) });
    response.end(LAST_RESORT);
  }
}

/** Serves one HTTP request. Never throws nor rejects: a bug answers HTTP 500 `800.800.800` and is handed to `onError`. */
export async function handle(
  state: SandboxState,
  incoming: IncomingMessage,
  response: ServerResponse,
  onError: (error: unknown) => void,
): Promise<void> {
  try {
    await serve(state, incoming, response, onError);
  } catch (error) {
    onError(error);
    try {
      answerBug(state, response);
    } catch (again) {
      onError(again);
      response.destroy();
    }
  }
}

/** Why node's HTTP parser refused a request, as an answer: status and description. */
function clientErrorAnswer(code: string | undefined): { status: number; description: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, description: 'request headers too large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, description: 'request not received in time' };
  if (code === 'HPE_INVALID_EOF_STATE') return { status: 400, description: 'request ended before its body was complete' };
  return { status: 400, description: 'malformed HTTP request' };
}

/** Calls `then` once no answer is in flight on the socket: pipelined requests before the bad one are answered first, in order. */
function whenIdle(socket: Duplex, then: () => void): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!inFlight) return then();
  inFlight.once('finish', () => setImmediate(() => whenIdle(socket, then)));
  inFlight.once('close', () => setImmediate(() => whenIdle(socket, then)));
}

/**
 * Answers a request node's HTTP parser refused (bad method, target, header or
 * framing; headers too large; too slow) in the gateway's shape, after the
 * answers to the requests before it on the connection, then closes it: after
 * a framing error nothing more on it can be trusted.
 */
function answerClientError(state: SandboxState, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const { status, description } = clientErrorAnswer(error.code);
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.headersSent && !inFlight.req.complete) {
    // The bad bytes are this request's own body (cut short): it is the one answered, and the connection ends with it.
    inFlight.setHeader('connection', 'close');
    sendReply(
      inFlight,
      failure(status, RESULT_CODES.invalidParameter, state.store.clock.now(), state.store.ndc(undefined), { description }),
    );
    return;
  }
  const body = JSON.stringify(
    envelope({ result: result(RESULT_CODES.invalidParameter, description) }, state.store.clock.now(), state.store.ndc(undefined)),
  );
  let answered = false;
  whenIdle(socket, () => {
    if (answered) return;
    answered = true;
    if (!socket.writable) return void socket.destroy();
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * The sandbox's HTTP server. Every request is handled inside `handle`'s guard;
 * requests the HTTP parser refuses are answered by `answerClientError`; a body
 * announced with `Expect: 100-continue` that is too large is refused before
 * the client sends it.
 */
export function createSandboxServer(state: SandboxState, onError: (error: unknown) => void): Server {
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handle(state, request, response, onError).catch(onError);
  };
  const server = createServer(listener);
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!(Number(request.headers['content-length'] ?? 0) > state.limits.bodyBytes)) response.writeContinue();
    listener(request, response);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    try {
      answerClientError(state, error, socket);
    } catch (again) {
      onError(again);
      socket.destroy();
    }
  });
  return server;
}
