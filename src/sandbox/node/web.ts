/**
 * node:http and the sandbox's pipeline, both ways, for its Node adapters: the
 * server hands node's request to the pipeline as it is read and writes the
 * wire answer; the merchant proxy, which forwards with `fetch`, goes through
 * web `Request`s and `Response`s. A request's body streams in as it arrives;
 * an answer, always small, goes out in one write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DROP, type BodySource, type PipelineRequest } from '../core/pipeline.js';
import type { WireAnswer } from '../protocol/wire.js';

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

/**
 * Node's body as the pipeline reads it (`BodySource`), without a web stream:
 * chunks are handed over as they arrive, and the socket is paused while the
 * reader has not asked for more. Cancelling reads the rest and throws it away
 * rather than closing the connection, so the client, still writing, sees the
 * answer and not a reset.
 */
function bodySourceOf(incoming: IncomingMessage): BodySource {
  const chunks: Uint8Array[] = [];
  let ended = false;
  let failure: unknown;
  let waiting: (() => void) | undefined;
  const wake = () => {
    waiting?.();
    waiting = undefined;
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    incoming.pause();
    wake();
  };
  incoming.on('data', onData);
  incoming.once('end', () => ((ended = true), wake()));
  incoming.once('error', (error) => ((failure = error), wake()));
  const cancel = async () => {
    ended = true;
    chunks.length = 0;
    incoming.off('data', onData).resume();
  };
  const read = async (): Promise<{ done: boolean; value?: Uint8Array }> => {
    for (;;) {
      const chunk = chunks.shift();
      if (chunk) return { done: false, value: chunk };
      if (failure !== undefined) throw failure;
      if (ended) return { done: true };
      incoming.resume();
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  return { getReader: () => ({ read, cancel }), cancel };
}

/**
 * Node's request in the shape the pipeline reads (core/pipeline.ts,
 * `PipelineRequest`), without building a web `Request`: headers are read where
 * they are, and the body is read only if the pipeline reads it. `signal`
 * aborts once the caller has gone.
 */
export function pipelineRequestOf(incoming: IncomingMessage, origin: string, signal?: AbortSignal): PipelineRequest {
  let body: BodySource | undefined;
  return {
    method: incoming.method ?? 'GET',
    url: origin,
    ...(signal ? { signal } : {}),
    headers: {
      get(name) {
        const value = incoming.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    get body() {
      return (body ??= bodySourceOf(incoming));
    },
  };
}

/** Writes a wire answer with its length; `DROP` cuts the connection instead. */
export function sendWire(response: ServerResponse, answer: WireAnswer | typeof DROP): void {
  if (answer === DROP) {
    response.socket?.destroy();
    response.destroy();
    return;
  }
  const length = answer.body === null ? 0 : typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.length;
  response.writeHead(answer.status, answer.status === 204 ? answer.headers : { ...answer.headers, 'content-length': String(length) });
  response.end(answer.body ?? undefined);
}

/**
 * The incoming request as a web `Request` on `origin`. Its URL is only a
 * carrier: the target the client sent, which a URL would normalise or refuse,
 * is read from node's request where it is needed. Throws for a method the
 * fetch standard forbids (CONNECT, TRACE, TRACK).
 */
export function webRequestOf(incoming: IncomingMessage, origin: string): Request {
  const method = incoming.method ?? 'GET';
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
