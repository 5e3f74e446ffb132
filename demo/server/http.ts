/**
 * The little HTTP plumbing the demo merchant needs on `node:http`: a route
 * table with `:params`, JSON in and out, and one error shape for the pages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A mistake in what the browser sent: answered 400 with its message. */
export class BadRequest extends Error {}

export interface RouteContext {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
  readonly request: IncomingMessage;
  /** The origin the shopper's browser used (behind the dev server's proxy), for return URLs. */
  readonly origin: string;
}

export type Handler = (context: RouteContext) => Promise<unknown>;

interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: Handler;
}

/** `route('GET', '/api/orders/:id', handler)`. */
export function route(method: string, path: string, handler: Handler): Route {
  const names: string[] = [];
  const source = path.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${source}$`), names, handler };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new BadRequest('request body too large');
    chunks.push(chunk);
  }
  if (!size) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new BadRequest('the body must be a JSON object');
}

function originOf(request: IncomingMessage): string {
  const forwardedHost = request.headers['x-forwarded-host'];
  const host = (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost) ?? request.headers.host ?? 'localhost';
  const forwardedProto = request.headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwardedProto) ? forwardedProto[0] : forwardedProto) ?? 'http';
  return `${proto.split(',')[0]}://${host.split(',')[0]}`;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** A request listener answering the routes, 404 for anything else. */
export function router(routes: readonly Route[], onError: (error: unknown) => { status: number; body: unknown }) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://merchant.invalid');
    for (const candidate of routes) {
      if (candidate.method !== request.method) continue;
      const match = candidate.pattern.exec(url.pathname);
      if (!match) continue;
      const params = Object.fromEntries(candidate.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
      try {
        const body = request.method === 'GET' ? {} : await readJson(request);
        send(response, 200, await candidate.handler({ params, query: url.searchParams, body, request, origin: originOf(request) }));
      } catch (error) {
        const answer = error instanceof BadRequest ? { status: 400, body: { error: error.message } } : onError(error);
        send(response, answer.status, answer.body);
      }
      return;
    }
    send(response, 404, { error: `no route ${request.method} ${url.pathname}` });
  };
}

/** A string field of a JSON body, or a 400. */
export function text(body: Record<string, unknown>, name: string, pattern?: RegExp): string {
  const value = body[name];
  if (typeof value !== 'string' || !value || (pattern && !pattern.test(value))) throw new BadRequest(`${name} is missing or malformed`);
  return value;
}
