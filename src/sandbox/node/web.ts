/**
 * node:http and the web's `Request`/`Response`, both ways, for the sandbox's
 * Node adapters (its server and the merchant proxy): a request's body streams
 * in as it arrives; an answer, always small, goes out in one write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The body as a web stream, read off the socket as fast as it is read. Cancelling it (a body refused as too large) reads
 * the rest and throws it away rather than closing the connection, so the
 * client, still writing, sees the answer and not a reset.
 */
function bodyOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  let onData: (chunk: Buffer) => void;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (end: () => void) => {
        if (done) return;
        done = true;
        end();
      };
      onData = (chunk) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        // Backpressure: no more is read off the socket than the reader takes.
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      };
      incoming.on('data', onData);
      incoming.once('end', () => finish(() => controller.close()));
      incoming.once('error', (error) => finish(() => controller.error(error)));
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      done = true;
      incoming.off('data', onData).resume();
    },
  });
}

/** Methods node's HTTP parser takes and a web `Request` refuses to carry (the fetch standard forbids them). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The incoming request as a web `Request` on `origin`. Its URL is only a
 * carrier: the target the client sent, which a URL would normalise or refuse,
 * is handed to the pipeline as it came (`Caller.target`), and so is a method
 * the fetch standard forbids (`Caller.method`; carried here as POST, body and all).
 */
export function webRequestOf(incoming: IncomingMessage, origin: string): Request {
  const sent = incoming.method ?? 'GET';
  const method = FORBIDDEN_METHODS.has(sent) ? 'POST' : sent;
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(origin, {
    method,
    headers,
    ...(hasBody ? { body: bodyOf(incoming), duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Writes a web `Response` to node's answer; a
 * `Response.error()` (the `drop` fault, a proxied answer that never came)
 * cuts the connection instead.
 */
export async function sendWebResponse(response: ServerResponse, answer: Response): Promise<void> {
  if (answer.type === 'error') {
    response.socket?.destroy();
    response.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  if (!answer.body) {
    if (answer.status !== 204) headers['content-length'] = '0';
    response.writeHead(answer.status, headers).end();
    return;
  }
  let bytes: Uint8Array;
  try {
    // Every answer the sandbox writes is built whole and small: one write, with its length.
    bytes = new Uint8Array(await answer.arrayBuffer());
  } catch {
    // A proxied answer cut off half-way: the client sees the connection cut too.
    response.destroy();
    return;
  }
  headers['content-length'] = String(bytes.length);
  response.writeHead(answer.status, headers).end(bytes);
}
