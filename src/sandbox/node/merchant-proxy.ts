/**
 * A merchant back end in front of a sandbox, for front-end tests, stories and
 * prototypes: browser code calls the gateway's endpoints through it and it adds
 * the access token on the server side, as a merchant's server would, so the
 * token never reaches a page. Node's `http` types only: it mounts on node:http,
 * connect/Express/Vite (`middleware`) and Koa (`handle` with `ctx.req`/`ctx.res`).
 *
 * Routes, under `prefix` (default `/__gw`):
 *   GET  {prefix}/config.json     the sandbox URL and entity id (never the token)
 *   *    {prefix}/api/<path>      forwarded to the sandbox's <path> with `Authorization: Bearer …`
 *   POST {prefix}/fault?path=P&mode=M[&count=N]   the sandbox's next N requests to path P hang,
 *                                 fail (HTTP 500) or drop (`Sandbox.fault`), to show or test waiting states
 *   GET  {prefix}/result          a same-origin page standing for the merchant's shopper result URL
 * Anything else is left to the next handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { checkFault, FAULT_MODES, isFaultRefusal, type FaultMode } from '../controls/faults.js';

export interface MerchantProxyOptions {
  /** The path every route lives under; default `/__gw`. */
  readonly prefix?: string;
}

export interface MerchantProxy {
  /** Answers a request under the prefix and resolves `true`; resolves `false` without touching the response otherwise. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  /** The same as connect-style middleware (Vite, Storybook, Express). */
  middleware(request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void;
}

const RESULT_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back at the shop</title></head><body><p>Back at the shop.</p></body></html>';

/** Request headers passed on to the sandbox; the browser's own cookies or credentials never are. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'accept-language'];
/** Answer headers passed back to the browser. */
const FORWARDED_ANSWER_HEADERS = ['content-type', 'retry-after', 'cache-control'];

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** The merchant proxy for `sandbox` (the token used is the sandbox's first). */
/** What the proxy needs of a running sandbox (a `Sandbox` from `startSandbox` is one). */
export interface ProxiedSandbox {
  readonly url: string;
  readonly tokens: readonly string[];
  readonly entities: readonly string[];
  fault(path: string, mode: FaultMode, count?: number): void;
}

export function createMerchantProxy(sandbox: ProxiedSandbox, options: MerchantProxyOptions = {}): MerchantProxy {
  const prefix = (options.prefix ?? '/__gw').replace(/\/+$/, '');

  async function forward(request: IncomingMessage, response: ServerResponse, target: string): Promise<void> {
    const method = request.method ?? 'GET';
    const headers: Record<string, string> = { authorization: `Bearer ${sandbox.tokens[0] ?? ''}` };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    let upstream: Response;
    try {
      // The body streams through: the sandbox applies its own size limits and answers 413 itself.
      upstream = await fetch(`${sandbox.url}${target}`, {
        method,
        headers,
        ...(hasBody ? { body: Readable.toWeb(request) as ReadableStream, duplex: 'half' } : {}),
      } as RequestInit);
    } catch {
      // A dropped connection (the sandbox's `drop` fault) or a stopped sandbox: the error's text is not the page's business.
      return sendJson(response, 502, { error: 'the sandbox did not answer' });
    }
    const answerHeaders: Record<string, string> = {};
    for (const name of FORWARDED_ANSWER_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) answerHeaders[name] = value;
    }
    response.writeHead(upstream.status, answerHeaders);
    if (!upstream.body) return void response.end();
    await pipeline(Readable.fromWeb(upstream.body as NodeReadableStream), response).catch(() => response.destroy());
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const target = request.url ?? '/';
    if (!target.startsWith(`${prefix}/`)) return false;
    const rest = target.slice(prefix.length);
    const [path = '', search = ''] = rest.split(/\?(.*)/s, 2);
    const method = request.method ?? 'GET';
    if (path.startsWith('/api/')) {
      // Appended to the sandbox's origin as text, never resolved as a URL: `//elsewhere` stays on the sandbox.
      await forward(request, response, rest.slice('/api'.length));
      return true;
    }
    if (path === '/config.json' && method === 'GET') {
      sendJson(response, 200, { sandboxUrl: sandbox.url, entityId: sandbox.entities[0] });
      return true;
    }
    if (path === '/result' && method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(RESULT_PAGE);
      return true;
    }
    if (path === '/fault' && method === 'POST') {
      const query = new URLSearchParams(search);
      const faultPath = query.get('path') ?? '';
      const fault = checkFault(faultPath, query.get('mode') ?? 'hang', query.get('count') ?? '1');
      if (isFaultRefusal(fault)) {
        sendJson(response, 400, {
          error: `fault needs path=/…, mode=${FAULT_MODES.join('|')} and a whole count: ${fault.name} ${fault.message}`,
        });
        return true;
      }
      sandbox.fault(fault.path, fault.mode, fault.count);
      response.writeHead(204).end();
      return true;
    }
    return false;
  }

  return {
    handle,
    middleware(request, response, next) {
      handle(request, response).then(
        (handled) => {
          if (!handled) next();
        },
        (error: unknown) => next(error),
      );
    },
  };
}
