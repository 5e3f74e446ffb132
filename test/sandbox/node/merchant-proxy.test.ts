/**
 * The sandbox's merchant proxy (`createMerchantProxy`), the one back end that
 * Storybook and the browser tests put in front of a sandbox: it adds the token
 * on the server side and never hands it to the page, forwards only to its
 * sandbox, turns the sandbox's faults into answers, and leaves every other
 * path to the next handler.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createMerchantProxy } from '../../../src/sandbox/index.js';
import { useSandbox } from '../support.js';

const context = useSandbox();
let server: Server;
let base: string;

async function page(path: string, init?: RequestInit): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  for (const token of context.sandbox.tokens) assert.ok(!text.includes(token), `the token reached the page (${path})`);
  return { status: response.status, text, type: response.headers.get('content-type') };
}

const checkoutForm = () =>
  new URLSearchParams({ entityId: context.sandbox.entities[0]!, amount: '24.90', currency: 'EUR', paymentType: 'DB', integrity: 'true' });

describe('merchant proxy', () => {
  /** A page server with the proxy under /__gw and another under /__gw/second, and its own 418 for anything else. */
  before(async () => {
    const first = createMerchantProxy(context.sandbox);
    const second = createMerchantProxy(context.sandbox, { prefix: '/__gw/second' });
    server = createServer((request, response) => {
      first.middleware(
        request,
        response,
        () =>
          void second.handle(request, response).then((handled) => {
            if (!handled) response.writeHead(418, { 'content-type': 'text/plain' }).end('next handler');
          }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('config.json gives the sandbox URL and entity id, never the token', async () => {
    const { status, text } = await page('/__gw/config.json');
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(text), { sandboxUrl: context.sandbox.url, entityId: context.sandbox.entities[0] });
  });

  test("forwards POST bodies and GET queries with the token added; a page's own credentials are not passed on", async () => {
    const created = await page('/__gw/api/v1/checkouts', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer not-the-token', cookie: 'session=1' },
      body: checkoutForm(),
    });
    assert.equal(created.status, 200);
    assert.match(created.type ?? '', /json/);
    const checkout = JSON.parse(created.text) as { id: string; result: { code: string } };
    assert.equal(checkout.result.code, '000.200.100');
    const read = await page(`/__gw/second/api/v1/checkouts/${checkout.id}/payment?entityId=${context.sandbox.entities[0]}`);
    assert.notEqual(read.status, 401, 'the second proxy adds the token too');
    assert.match(JSON.parse(read.text).result.code, /^\d{3}\.\d{3}\.\d{3}$/);
  });

  test('a path that looks like another host still goes to the sandbox', async () => {
    const { status, text } = await page('/__gw/api//127.0.0.1:9/v1/checkouts');
    assert.notEqual(status, 502, 'the proxy did not try another host');
    assert.match(JSON.parse(text).result.code, /^\d{3}\.\d{3}\.\d{3}$/, 'the sandbox answered');
  });

  test('faults: an HTTP 500 passes through, a dropped connection is a 502 with a JSON body, bad parameters a 400', async () => {
    assert.equal((await page('/__gw/fault?path=/v1/checkouts&mode=error', { method: 'POST' })).status, 204);
    const failed = await page('/__gw/api/v1/checkouts', { method: 'POST', body: checkoutForm() });
    assert.equal(failed.status, 500);
    assert.equal((await page('/__gw/fault?path=/v1/checkouts&mode=drop', { method: 'POST' })).status, 204);
    const dropped = await page('/__gw/api/v1/checkouts', { method: 'POST', body: checkoutForm() });
    assert.equal(dropped.status, 502);
    assert.deepEqual(JSON.parse(dropped.text), { error: 'the sandbox did not answer' });
    for (const query of ['path=v1&mode=hang', 'path=/v1/checkouts&mode=explode', 'path=/v1/checkouts&mode=hang&count=1.5']) {
      assert.equal((await page(`/__gw/fault?${query}`, { method: 'POST' })).status, 400, query);
    }
    assert.equal((await page('/__gw/api/v1/checkouts', { method: 'POST', body: checkoutForm() })).status, 200, 'the faults were used up');
  });

  test('serves a same-origin shopper result page', async () => {
    const { status, type, text } = await page('/__gw/result?id=x&resourcePath=y');
    assert.equal(status, 200);
    assert.match(type ?? '', /text\/html/);
    assert.match(text, /Back at the shop/);
  });

  test('leaves every other path, and wrong methods, to the next handler', async () => {
    for (const [path, method] of [
      ['/', 'GET'],
      ['/__gwx/api/v1/checkouts', 'GET'],
      ['/__gw/nothing', 'GET'],
      ['/__gw/fault?path=/x', 'GET'],
      ['/__gw/config.json', 'POST'],
      ['/__gw', 'GET'],
    ] as const) {
      assert.equal((await page(path, { method })).status, 418, `${method} ${path}`);
    }
  });
});
