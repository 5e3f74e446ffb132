/**
 * The sandbox in a service worker, so a page served by any static host has a
 * gateway and a merchant back end (the static Storybook's, built by
 * scripts/sandbox-worker.ts): a thin adapter over the sandbox's own request
 * pipeline (core/pipeline.ts) and merchant proxy (core/merchant-proxy.ts).
 * Under `<scope>__gw/` it answers the proxy's routes (`config.json`, `api/…`
 * with the access token added here, `fault`, `result`) and the gateway itself
 * under `gateway/` (the widget script, its endpoints, the 3-D Secure pages).
 * Everything else goes to the network.
 */
import { base64Of } from '../bytes.js';
import { DEFAULT_ENTITIES, DEFAULT_ENTITY_ID } from '../defaults.js';
import { TOO_MANY_FAULTS } from '../controls/faults.js';
import { answerMerchantProxy, type ProxyTarget } from '../core/merchant-proxy.js';
import { answer } from '../core/pipeline.js';
import { webRandomBytes, type SandboxRuntime } from '../core/runtime.js';
import { createSandboxState, type SandboxState } from '../core/state.js';

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

/** A token of this worker's own, which stays in the worker as a merchant's stays on its server; the channels are the sandbox's defaults. */
const token = base64Of(webRandomBytes(24));

const onError = (error: unknown) => console.error('gw-sandbox service worker:', error);

const sandbox: Promise<SandboxState> = (async () => {
  const bytes = new TextEncoder().encode(GW_WIDGET_SCRIPT);
  // The integrity a checkout answers is the hash of exactly the bytes the script route serves.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  const widget = { bytes, integrity: `sha384-${base64Of(digest)}` };
  const runtime: SandboxRuntime = { now: () => Date.now(), randomBytes: webRandomBytes, widgetScript: () => widget };
  const state = createSandboxState({ tokens: [token], entities: DEFAULT_ENTITIES, runtime });
  state.base = GATEWAY_URL;
  return state;
})();

/** The gateway's requests under `gateway/`, then the merchant proxy's; undefined for anything else. */
async function answerOf(request: Request, url: URL): Promise<Response | undefined> {
  const rest = url.pathname.slice(PREFIX.length);
  const state = await sandbox;
  if (rest.startsWith('/gateway/')) return answer(state, request, { target: `${rest.slice('/gateway'.length)}${url.search}` }, onError);
  const target: ProxyTarget = {
    url: GATEWAY_URL,
    token,
    entityId: DEFAULT_ENTITY_ID,
    fault: (setting) => {
      if (!state.faults.set(setting)) throw new RangeError(`fault path ${TOO_MANY_FAULTS}`);
    },
    // Straight into the pipeline: the request never leaves the worker.
    send: (proxied) => answer(state, proxied, {}, onError),
  };
  return answerMerchantProxy(request, `${rest}${url.search}`, target);
}

const notFound = (path: string) =>
  new Response(JSON.stringify({ error: `no route ${path}` }), {
    status: 404,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== worker.location.origin || !url.pathname.startsWith(`${PREFIX}/`)) return;
  event.respondWith(answerOf(event.request, url).then((response) => response ?? notFound(url.pathname)));
});

// A new build's worker takes over at once, and the page that registered it is answered without a reload.
worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));
// A page loaded past the worker (a hard reload) asks to be claimed; any message also keeps the worker, and its state, alive.
worker.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(worker.clients.claim());
});
