/**
 * The merchant proxy (core/merchant-proxy.ts: `config.json`, `api/…` with the
 * token added, `fault`, `result`, under `prefix`, default `/__gw`) on Node's
 * `http` types: it mounts on node:http, connect/Express/Vite (`middleware`)
 * and Koa (`handle` with `ctx.req`/`ctx.res`). Anything else is left to the
 * next handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultMode } from '../controls/faults.js';
import { answerMerchantProxy, isMerchantProxyRoute, type ProxyTarget } from '../core/merchant-proxy.js';
import { sendWebResponse, webRequestOf } from './web.js';

/** The origin the `Request`s carry: only a carrier, the proxy reads the target after its prefix from node's request. */
const ORIGIN = 'http://gw-merchant-proxy.invalid/';

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

/** What the proxy needs of a running sandbox (a `Sandbox` from `startSandbox` is one). */
export interface ProxiedSandbox {
  readonly url: string;
  readonly tokens: readonly string[];
  readonly entities: readonly string[];
  fault(path: string, mode: FaultMode, count?: number): void;
}

/** The merchant proxy for `sandbox` (the token used is the sandbox's first), on node:http: core/merchant-proxy.ts answers. */
export function createMerchantProxy(sandbox: ProxiedSandbox, options: MerchantProxyOptions = {}): MerchantProxy {
  const prefix = (options.prefix ?? '/__gw').replace(/\/+$/, '');
  const target: ProxyTarget = {
    url: sandbox.url,
    token: sandbox.tokens[0] ?? '',
    entityId: sandbox.entities[0] ?? '',
    fault: ({ path, mode, count }) => sandbox.fault(path, mode, count),
    send: (request) => fetch(request),
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const url = request.url ?? '/';
    const rest = url.slice(prefix.length);
    // Checked before the body is touched: a request the proxy leaves alone keeps its body for the next handler.
    if (!url.startsWith(`${prefix}/`) || !isMerchantProxyRoute(request.method ?? 'GET', rest)) return false;
    let forwarded: Request;
    try {
      forwarded = webRequestOf(request, ORIGIN);
    } catch {
      // A method fetch cannot send (TRACE, CONNECT): nothing to forward.
      response.writeHead(405, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify({ error: `${request.method} is not forwarded to the sandbox` }));
      return true;
    }
    const answer = await answerMerchantProxy(forwarded, rest, target);
    if (!answer) return false;
    await sendWebResponse(response, answer);
    return true;
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
