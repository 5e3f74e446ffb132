/**
 * The sandbox's one request pipeline (src/sandbox/core/pipeline.ts) and merchant
 * proxy (core/merchant-proxy.ts) driven as the service worker drives them:
 * web `Request`s in, `Response`s out, on a web runtime (Date.now, Web Crypto,
 * a widget script handed in), with no Node adapter and no socket. The Node
 * server's own path through the same pipeline is what every other sandbox
 * test exercises.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hexOf } from '../../../src/sandbox/bytes.js';
import { answerMerchantProxy, type ProxyTarget } from '../../../src/sandbox/core/merchant-proxy.js';
import { answer, DROP, serve } from '../../../src/sandbox/core/pipeline.js';
import { webRandomBytes, type SandboxRuntime } from '../../../src/sandbox/core/runtime.js';
import { createSandboxState, type SandboxState } from '../../../src/sandbox/core/state.js';

const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
/** A token drawn per run, as the worker draws its own. */
const TOKEN = hexOf(webRandomBytes(16));
/** The worker's gateway lives under a path of the page's origin. */
const BASE = 'https://shop.example/storybook/__gw/gateway';
const WIDGET = { bytes: new TextEncoder().encode('/* widget */ window.wpwl = {};'), integrity: 'sha384-stand-in' };

function webSandbox(): SandboxState {
  const runtime: SandboxRuntime = { now: () => Date.now(), randomBytes: webRandomBytes, widgetScript: () => WIDGET };
  const state = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime });
  state.base = BASE;
  return state;
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

const checkoutFields = { entityId: ENTITY, amount: '24.90', currency: 'EUR', paymentType: 'DB', integrity: 'true' };

describe('the request pipeline on a web runtime', () => {
  test("routes by the path after the base URL's own, and serves the runtime's widget script with its integrity", async () => {
    const state = webSandbox();
    const created = await answer(state, new Request(`${BASE}/v1/checkouts`, form(checkoutFields)));
    assert.equal(created.status, 200);
    const body = (await created.json()) as { id: string; integrity: string };
    assert.equal(body.integrity, WIDGET.integrity);
    const script = await answer(state, new Request(`${BASE}/v1/paymentWidgets.js?checkoutId=${body.id}`));
    assert.equal(script.status, 200);
    assert.deepEqual(new Uint8Array(await script.arrayBuffer()), WIDGET.bytes);
    assert.equal(script.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(
      state.log.entries().map(({ method, path, status }) => [method, path, status]),
      [
        ['POST', '/v1/checkouts', 200],
        ['GET', '/v1/paymentWidgets.js', 200],
      ],
    );
  });

  test("the target an adapter passes is used as sent, and a method a Request cannot carry (TRACE) is answered 405 in the gateway's shape", async () => {
    const state = webSandbox();
    // What the Node adapter hands in: node's request as the pipeline reads it, no web Request.
    const traced = { method: 'TRACE', url: `${BASE}/ignored`, headers: new Headers(), body: null };
    const refused = await serve(state, traced, { target: '/v1/checkouts' });
    assert.ok(refused !== DROP);
    assert.equal(refused.status, 405);
    const body = JSON.parse(String(refused.body)) as { result: { code: string; description: string } };
    assert.equal(body.result.code, '200.300.404');
    assert.equal(body.result.description, 'no endpoint TRACE /v1/checkouts');
  });

  test('a preflight is answered for the widget only; a body over the limit is refused 413 before it is read whole', async () => {
    const state = webSandbox();
    const preflight = await answer(state, new Request(`${BASE}/v1/checkouts/X/widget`, { method: 'OPTIONS' }));
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, OPTIONS');
    assert.equal((await answer(state, new Request(`${BASE}/v1/payments`, { method: 'OPTIONS' }))).status, 405);
    let pulled = 0;
    // An endless body: the pipeline must stop reading it at the limit.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('a'.repeat(64 * 1024)));
      },
    });
    const tooLarge = await answer(
      state,
      new Request(`${BASE}/v1/payments`, { method: 'POST', body: endless, duplex: 'half' } as RequestInit),
    );
    assert.equal(tooLarge.status, 413);
    assert.ok(pulled <= Math.ceil(state.limits.bodyBytes / (64 * 1024)) + 2, `read ${pulled} chunks of an endless body`);
    assert.equal(state.log.entries().at(-1)?.status, 413);
  });

  test('faults: error answers 500, drop answers Response.error() after processing, hang leaves the request unanswered', async () => {
    const state = webSandbox();
    state.faults.set({ path: '/v1/checkouts', mode: 'error', count: 1 });
    assert.equal((await answer(state, new Request(`${BASE}/v1/checkouts`, form(checkoutFields)))).status, 500);
    state.faults.set({ path: '/v1/checkouts', mode: 'drop', count: 1 });
    const dropped = await answer(state, new Request(`${BASE}/v1/checkouts`, form(checkoutFields)));
    assert.equal(dropped.type, 'error');
    assert.equal(state.store.checkouts.size, 1, 'a dropped request was processed');
    state.faults.set({ path: '/v1/checkouts', mode: 'hang', count: 1 });
    const hung = answer(state, new Request(`${BASE}/v1/checkouts`, form(checkoutFields)));
    // The answer never settles; an answered request after it shows the pipeline went on serving.
    let settled = false;
    void hung.then(() => (settled = true));
    assert.equal((await answer(state, new Request(`${BASE}/v1/checkouts`, form(checkoutFields)))).status, 200);
    assert.equal(settled, false);
    assert.deepEqual(
      state.log.entries().map(({ status, fault }) => [status, fault]),
      [
        [500, 'error'],
        [0, 'drop'],
        [0, 'hang'],
        [200, undefined],
      ],
    );
  });

  test('a bug in a route answers 500 800.800.800 and is reported, never a rejection', async () => {
    const state = webSandbox();
    const errors: unknown[] = [];
    // The store's id source breaks: creating a checkout throws inside the route.
    state.store.nextCheckoutId = () => {
      throw new Error('planted bug');
    };
    const failed = await answer(state, new Request(`${BASE}/v1/checkouts`, form(checkoutFields)), {}, (error) => errors.push(error));
    assert.equal(failed.status, 500);
    assert.equal(((await failed.json()) as { result: { code: string } }).result.code, '800.800.800');
    assert.equal(errors.length, 1);
  });
});

describe('the merchant proxy over the pipeline, as the service worker mounts it', () => {
  const proxyOf = (state: SandboxState): ProxyTarget => ({
    url: BASE,
    token: TOKEN,
    entityId: ENTITY,
    fault: (setting) => state.faults.set(setting),
    send: (request) => answer(state, request),
  });

  test('adds the token to /api/… calls, never hands it to the page, and leaves other paths alone', async () => {
    const state = webSandbox();
    const target = proxyOf(state);
    const page = (path: string, init?: RequestInit) =>
      answerMerchantProxy(new Request(`https://shop.example/__gw${path}`, init), path, target);
    const config = await page('/config.json');
    assert.deepEqual(await config!.json(), { sandboxUrl: BASE, entityId: ENTITY });
    const created = await page('/api/v1/checkouts', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(checkoutFields).toString(),
    });
    assert.equal(created!.status, 200);
    const text = await created!.text();
    assert.ok(!text.includes(TOKEN), 'the token reached the page');
    assert.match(text, /"id":"[0-9A-F]{32}\.sbx01-vm-tx01"/);
    assert.equal(await page('/elsewhere'), undefined);
    assert.equal(await page('/config.json', { method: 'POST' }), undefined);
  });

  test('/fault sets a checked fault; a dropped answer becomes 502 with a fixed text', async () => {
    const state = webSandbox();
    const target = proxyOf(state);
    const post = (path: string) => answerMerchantProxy(new Request(`https://shop.example/__gw${path}`, { method: 'POST' }), path, target);
    const refused = await post('/fault?path=v1&mode=drop');
    assert.equal(refused!.status, 400);
    assert.match(
      ((await refused!.json()) as { error: string }).error,
      /^fault needs path=\/…, mode=hang\|error\|drop and a whole count: path /,
    );
    assert.equal((await post('/fault?path=/v1/checkouts&mode=drop'))!.status, 204);
    const dropped = await post('/api/v1/checkouts');
    assert.equal(dropped!.status, 502);
    assert.deepEqual(await dropped!.json(), { error: 'the sandbox did not answer' });
  });
});
