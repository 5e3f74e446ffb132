/**
 * The sandbox on node:http: a thin adapter over the one request pipeline
 * (core/pipeline.ts). Each request goes in as node read it and its wire
 * answer is written back; what only node's HTTP layer sees is answered
 * here, in the gateway's shape: requests its parser refuses (malformed HTTP,
 * headers too large, too slow), and an `Expect: 100-continue` body too large
 * to be worth sending.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { serve } from '../core/pipeline.js';
import type { SandboxState } from '../core/state.js';
import { parserRefusal } from '../protocol/fallbacks.js';
import { pipelineRequestOf, sendWire } from './web.js';

/** The origin the `Request`s carry: only a carrier, the target goes to the pipeline as sent. */
const ORIGIN = 'http://gw-sandbox.invalid/';

/** Serves one HTTP request. Never throws nor rejects: the pipeline answers every bug with HTTP 500; a write that fails cuts the connection. */
export async function handle(
  state: SandboxState,
  incoming: IncomingMessage,
  response: ServerResponse,
  onError: (error: unknown) => void,
): Promise<void> {
  try {
    // The caller has gone once the response closes unfinished: a request the `hang` fault holds is let go.
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    const request = pipelineRequestOf(incoming, ORIGIN, gone.signal);
    const caller = {
      target: incoming.url ?? '/',
      remoteAddress: incoming.socket.remoteAddress?.replace(/^::ffff:/, ''),
    };
    const answered = await serve(state, request, caller, onError);
    // A body cut short may have been answered already, by the HTTP parser's error.
    if (response.headersSent || response.destroyed) return;
    sendWire(response, answered);
  } catch (error) {
    onError(error);
    response.destroy();
  }
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
  const { status, text: body } = parserRefusal(state, error.code);
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.headersSent && !inFlight.req.complete) {
    // The bad bytes are this request's own body (cut short): it is the one answered, and the connection ends with it.
    inFlight.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      connection: 'close',
    });
    inFlight.end(body);
    return;
  }
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

/** How long an idle keep-alive connection stays open (see `createSandboxServer`). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Connections the kernel queues before the sandbox accepts them: Node's 511
 * makes a burst of thousands of connections wait for SYN retransmissions (or,
 * where the system aborts on overflow, be reset); the kernel caps it at its
 * own `somaxconn`.
 */
export const LISTEN_BACKLOG = 4096;

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
  // An idle keep-alive connection is closed by the server only after every common client has stopped reusing it (undici 4 s,
  // Node's agent by the server's hint, load balancers 60 s): closing at Node's 5 s races a client that just sent on it,
  // whose request is then reset unanswered. Headers still have to arrive within the timeout after that.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
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
