/**
 * The sandbox in a service worker, so a page served by any static host has a
 * gateway and a merchant back end (the static Storybook's, built by
 * scripts/sandbox-worker.ts). It answers, under `<scope>__gw/`, the merchant proxy's routes (`config.json`,
 * `api/…` with the access token added here, `fault`, `result`; see
 * merchant-proxy.ts) and the gateway itself under `gateway/` (the widget
 * script, its endpoints, the 3-D Secure pages), from the sandbox's own request
 * core running in the worker. Everything else goes to the network.
 */
import {
  bodyTooLarge,
  checkFault,
  createSandboxState,
  DEFAULT_ENTITIES,
  DEFAULT_ENTITY_ID,
  failure,
  FAULT_MODES,
  isCorsPath,
  isFaultRefusal,
  maskCardNumbers,
  parseForm,
  redactorOf,
  reply,
  RequestLimitError,
  RESULT_CODES,
  TOO_MANY_FAULTS,
  route,
  type FaultMode,
  type Redactor,
  type Reply,
  type Routed,
  type SandboxState,
  type WidgetScript,
} from './engine.js';
import { Buffer, Bytes, randomBytes } from './node-shims.js';
import { provideWidgetScript } from './widget-script.js';

/** The widget script's text, put in by the bundle (scripts/sandbox-worker.ts). */
declare const GW_WIDGET_SCRIPT: string;

/** What this module uses of the service worker's global scope (the project's types are the DOM's, not a worker's). */
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(answer: Promise<Response> | Response): void;
}
interface WorkerScope {
  readonly location: Location;
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(
    type: 'install' | 'activate' | 'message',
    listener: (event: Event & { waitUntil(promise: Promise<unknown>): void; data?: unknown }) => void,
  ): void;
}
const worker = self as unknown as WorkerScope;

const PREFIX = `${new URL(worker.registration.scope).pathname}__gw`;
/** The sandbox's base URL: the gateway's paths (`/v1/…`) are appended to it. */
const GATEWAY_URL = `${worker.location.origin}${PREFIX}/gateway`;

const RESULT_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back at the shop</title></head><body><p>Back at the shop.</p></body></html>';

/** A token of this worker's own, which stays in the worker as a merchant's stays on its server; the channels are the sandbox's defaults. */
const token = randomBytes(24).toString('base64');
const entityId = DEFAULT_ENTITY_ID;

const sandbox: Promise<SandboxState> = (async () => {
  const bytes = Buffer.from(GW_WIDGET_SCRIPT);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  // The integrity a checkout answers is the hash of exactly the bytes the script route serves.
  // The core types the bytes as Node's Buffer; in this bundle every Buffer is node-shims.ts's.
  provideWidgetScript({ bytes: bytes as unknown as WidgetScript['bytes'], integrity: `sha384-${new Bytes(digest).toString('base64')}` });
  const state = createSandboxState({ tokens: [token], entities: DEFAULT_ENTITIES });
  state.base = GATEWAY_URL;
  return state;
})();

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept',
};

function answerOf(request: Request, answer: Reply): Response {
  const headers = { 'cache-control': 'no-store' };
  switch (answer.kind) {
    case 'json':
      return new Response(answer.text ?? JSON.stringify(answer.body), {
        status: answer.status,
        headers: { ...headers, 'content-type': 'application/json; charset=utf-8', ...(answer.cors ? CORS_HEADERS : {}) },
      });
    case 'html':
      return new Response(answer.html, { status: answer.status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } });
    case 'redirect':
      return Response.redirect(new URL(answer.location, request.url).href, 303);
    case 'script':
      return new Response(new Uint8Array(answer.bytes), {
        headers: {
          'content-type': 'application/javascript; charset=utf-8',
          'cache-control': 'no-cache',
          'access-control-allow-origin': '*',
        },
      });
  }
}

/** A refusal quotes what was sent: scrubbed of the request's secrets and any card number, as the sandbox's HTTP front does. */
function scrubbed(answer: Reply, redact: Redactor): Reply {
  if (answer.kind !== 'json' || answer.status < 400) return answer;
  const body = redact.deep(answer.body);
  return { ...answer, body: typeof body.ndc === 'string' ? { ...body, ndc: maskCardNumbers(body.ndc) } : body };
}

const systemError = (state: SandboxState, description?: string) =>
  failure(
    500,
    RESULT_CODES.systemUnavailable,
    state.store.clock.now(),
    state.store.ndc(undefined),
    description === undefined ? {} : { description },
  );

/** One gateway request through the sandbox's core: limits, faults, the route, the log, as its HTTP front serves it. */
async function gateway(
  state: SandboxState,
  request: Request,
  path: string,
  query: string,
  authorization: string | undefined,
): Promise<Response> {
  const method = request.method;
  if (method === 'OPTIONS') {
    if (isCorsPath(path)) return new Response(null, { status: 204, headers: { ...CORS_HEADERS, 'access-control-max-age': '600' } });
    return answerOf(
      request,
      failure(405, RESULT_CODES.invalidParameter, state.store.clock.now(), state.store.ndc(undefined), {
        description: 'no preflight here',
      }),
    );
  }
  const log = (entry: { status: number; resultCode?: string; paymentId?: string; fault?: FaultMode; params?: Record<string, string> }) =>
    state.log.add({
      at: state.store.clock.now().toISOString(),
      method,
      path: redactorOf(state, {}, undefined)(path),
      params: {},
      ...entry,
    });
  let params: Record<string, string>;
  try {
    const body = method === 'POST' ? await request.text() : query;
    if (Buffer.byteLength(body) > state.limits.bodyBytes) throw bodyTooLarge(state.limits);
    params = parseForm(body, state.limits);
  } catch (error) {
    const refusal = error instanceof RequestLimitError ? error : undefined;
    const status = refusal?.status ?? 400;
    log({ status, resultCode: RESULT_CODES.invalidParameter });
    return answerOf(
      request,
      failure(status, RESULT_CODES.invalidParameter, state.store.clock.now(), state.store.ndc(undefined), {
        description: refusal?.description ?? 'unreadable request body',
      }),
    );
  }
  const fault = state.faults.take(path);
  const redact = redactorOf(state, params, authorization);
  const logged = { params: state.log.params(params, redact), ...(fault ? { fault } : {}) };
  // A hung request is never answered: the page waits, as it would for a gateway that does not answer.
  if (fault === 'hang') return (log({ ...logged, status: 0 }), new Promise<never>(() => {}));
  if (fault === 'error') {
    log({ ...logged, status: 500, resultCode: RESULT_CODES.systemUnavailable });
    return answerOf(request, systemError(state, 'The payment system is currently unavailable (fault injected by gw-sandbox).'));
  }
  let routed: Routed;
  try {
    routed = route(state, { method, path, params, authorization });
  } catch (error) {
    console.error('gw-sandbox service worker:', error);
    routed = reply(systemError(state));
  }
  const answer = routed.reply;
  const resultCode =
    answer.kind === 'json'
      ? (answer.body.result as { code?: string } | undefined)?.code
      : answer.kind === 'redirect'
        ? answer.resultCode
        : undefined;
  const status =
    fault === 'drop' ? 0 : answer.kind === 'json' || answer.kind === 'html' ? answer.status : answer.kind === 'redirect' ? 303 : 200;
  log({ ...logged, status, ...(resultCode ? { resultCode } : {}), ...(routed.paymentId ? { paymentId: routed.paymentId } : {}) });
  // Processed, then the connection is lost: the page sees a network error and never the outcome.
  if (fault === 'drop') return Response.error();
  return answerOf(request, scrubbed(answer, redact));
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

/** The merchant proxy's routes (merchant-proxy.ts), then the gateway's; undefined for anything else. */
async function answer(request: Request, url: URL): Promise<Response | undefined> {
  const rest = url.pathname.slice(PREFIX.length);
  const state = await sandbox;
  if (rest.startsWith('/gateway/'))
    return gateway(state, request, rest.slice('/gateway'.length), url.search.slice(1), request.headers.get('authorization') ?? undefined);
  if (rest.startsWith('/api/')) return gateway(state, request, rest.slice('/api'.length), url.search.slice(1), `Bearer ${token}`);
  if (rest === '/config.json' && request.method === 'GET') return json(200, { sandboxUrl: GATEWAY_URL, entityId });
  if (rest === '/result' && request.method === 'GET')
    return new Response(RESULT_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  if (rest === '/fault' && request.method === 'POST') {
    const fault = checkFault(
      url.searchParams.get('path') ?? '',
      url.searchParams.get('mode') ?? 'hang',
      url.searchParams.get('count') ?? '1',
    );
    if (isFaultRefusal(fault))
      return json(400, { error: `fault needs path=/…, mode=${FAULT_MODES.join('|')} and a whole count: ${fault.name} ${fault.message}` });
    if (!state.faults.set(fault)) return json(400, { error: `fault path ${TOO_MANY_FAULTS}` });
    return new Response(null, { status: 204 });
  }
  return undefined;
}

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== worker.location.origin || !url.pathname.startsWith(`${PREFIX}/`)) return;
  event.respondWith(answer(event.request, url).then((response) => response ?? json(404, { error: `no route ${url.pathname}` })));
});

// A new build's worker takes over at once, and the page that registered it is answered without a reload.
worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));
// A page loaded past the worker (a hard reload) asks to be claimed; any message also keeps the worker, and its state, alive.
worker.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(worker.clients.claim());
});
