/**
 * A merchant back end in front of a sandbox, for front-end tests, stories and
 * prototypes, written once over web `Request`/`Response`: browser code calls
 * the gateway's endpoints through it and it adds the access token on the
 * merchant's side, so the token never reaches a page. node/merchant-proxy.ts
 * mounts it on node:http and connect-style servers; the service worker
 * answers the static Storybook's pages with it.
 *
 * Routes, after the adapter's prefix (default `/__gw`):
 *   GET  /config.json     the sandbox URL and entity id (never the token)
 *   *    /api/<path>      forwarded to the sandbox's <path> with `Authorization: Bearer …`
 *   POST /fault?path=P&mode=M[&count=N]   the sandbox's next N requests to path P hang,
 *                         fail (HTTP 500) or drop (`Sandbox.fault`), to show or test waiting states
 *   GET  /result          a same-origin page standing for the merchant's shopper result URL
 */
import { checkFault, FAULT_MODES, isFaultRefusal, type FaultSetting } from '../controls/faults.js';

/** The sandbox behind the proxy, as an adapter reaches it. */
export interface ProxyTarget {
  /** The sandbox's base URL, as pages are told it (`config.json`). */
  readonly url: string;
  readonly token: string;
  readonly entityId: string;
  /** Sets a fault on the sandbox (already checked); throws a RangeError, with its reason, when too many are pending. */
  fault(setting: FaultSetting): void;
  /** Sends a request to the sandbox: over HTTP, or straight into its pipeline. */
  send(request: Request): Promise<Response>;
}

const RESULT_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back at the shop</title></head><body><p>Back at the shop.</p></body></html>';

/** Request headers passed on to the sandbox; the browser's own cookies or credentials never are. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'accept-language'];
/** Answer headers passed back to the browser. */
const FORWARDED_ANSWER_HEADERS = ['content-type', 'retry-after', 'cache-control'];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

async function forward(request: Request, target: ProxyTarget, rest: string): Promise<Response> {
  const headers = new Headers({ authorization: `Bearer ${target.token}` });
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Response;
  try {
    // Appended to the sandbox's URL as text, never resolved: `//elsewhere` stays on the sandbox. The body streams
    // through: the sandbox applies its own size limits and answers 413 itself.
    upstream = await target.send(
      new Request(`${target.url}${rest}`, {
        method: request.method,
        headers,
        ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
      } as RequestInit),
    );
  } catch {
    upstream = Response.error();
  }
  // A dropped connection (the sandbox's `drop` fault) or a stopped sandbox: the error's text is not the page's business.
  if (upstream.type === 'error') return json(502, { error: 'the sandbox did not answer' });
  const answerHeaders = new Headers();
  for (const name of FORWARDED_ANSWER_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) answerHeaders.set(name, value);
  }
  return new Response(upstream.body, { status: upstream.status, headers: answerHeaders });
}

const pathOf = (rest: string) => rest.split('?', 1)[0]!;

/** Whether the proxy answers this method and target (after its prefix); anything else is left to the page's own server. */
export function isMerchantProxyRoute(method: string, rest: string): boolean {
  const path = pathOf(rest);
  return (
    path.startsWith('/api/') ||
    (path === '/config.json' && method === 'GET') ||
    (path === '/result' && method === 'GET') ||
    (path === '/fault' && method === 'POST')
  );
}

/** Answers a request under the proxy's prefix (`rest`: the target after it, query included); undefined for no route of the proxy. */
export async function answerMerchantProxy(request: Request, rest: string, target: ProxyTarget): Promise<Response | undefined> {
  if (!isMerchantProxyRoute(request.method, rest)) return undefined;
  const path = pathOf(rest);
  if (path.startsWith('/api/')) return forward(request, target, rest.slice('/api'.length));
  if (path === '/config.json') return json(200, { sandboxUrl: target.url, entityId: target.entityId });
  if (path === '/result') return new Response(RESULT_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  // POST /fault
  const query = new URLSearchParams(rest.slice(path.length + 1));
  const fault = checkFault(query.get('path') ?? '', query.get('mode') ?? 'hang', query.get('count') ?? '1');
  if (isFaultRefusal(fault))
    return json(400, { error: `fault needs path=/…, mode=${FAULT_MODES.join('|')} and a whole count: ${fault.name} ${fault.message}` });
  try {
    target.fault(fault);
  } catch (error) {
    // Too many faults pending: refused like a bad one.
    return json(400, { error: (error as Error).message });
  }
  return new Response(null, { status: 204 });
}
