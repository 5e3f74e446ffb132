/**
 * The README's server examples (docs/examples/server) run here against the real
 * sandbox, so they stay correct and type-checked: create a checkout, the
 * shopper pays in the widget, the return route answers the verified outcome.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { expressApp } from '../../docs/examples/server/express.js';
import { fastifyApp } from '../../docs/examples/server/fastify.js';
import { honoApp } from '../../docs/examples/server/hono.js';
import { nodeHttpServer } from '../../docs/examples/server/node-http.js';
import { payWithThreeDSecure } from '../../docs/examples/server/three-d-secure.js';
import type { Order, PaymentPage } from '../../docs/examples/server/shop.js';
import type { GatewayClient } from '../../src/server/index.js';
import { CARDS, clientFor, orderId, payInWidget, useSandbox } from '../server/fixtures.js';

const context = useSandbox();

type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

/** Each example as a fetch over its own routes, and how to stop it. */
const frameworks: Record<
  string,
  (client: GatewayClient, orders: Map<string, Order>, page: PaymentPage) => Promise<{ fetch: Fetcher; close(): Promise<unknown> }>
> = {
  async express(client, orders, page) {
    const server = expressApp(client, orders, page).listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { fetch: (path, init) => fetch(base + path, init), close: () => new Promise((resolve) => server.close(resolve)) };
  },
  async fastify(client, orders, page) {
    const app = fastifyApp(client, orders, page);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { fetch: (path, init) => fetch(base + path, init), close: () => app.close() };
  },
  async hono(client, orders, page) {
    const app = honoApp(client, orders, page);
    return { fetch: async (path, init) => app.request(path, init), close: async () => undefined };
  },
  async 'node:http'(client, orders, page) {
    const server = nodeHttpServer(client, orders, page).listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { fetch: (path, init) => fetch(base + path, init), close: () => new Promise((resolve) => server.close(resolve)) };
  },
};

/** The payment page's settings: the sandbox as the gateway, the shop's result page and its element module. */
const pageOn = (): PaymentPage => ({ baseUrl: context.sandbox.url, shopperResultUrl: '/order/result', elementScript: '/assets/checkout.js' });

describe("the checkout page's routes", () => {
  for (const [name, start] of Object.entries(frameworks)) {
    test(`${name}: create checkout, shopper pays, the return is verified; declines and bad paths answered`, async () => {
      const { client } = clientFor(context.sandbox);
      const order = orderId(name.replace(':', '-'));
      const declinedOrder = orderId('declined');
      const app = await start(
        client,
        new Map([
          [order, { amount: '49.99', currency: 'EUR' }],
          [declinedOrder, { amount: '5.00', currency: 'EUR' }],
        ]),
        pageOn(),
      );
      try {
        const post = (body: unknown) =>
          app.fetch('/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        assert.equal((await post({ orderId: 'unknown' })).status, 404);
        const created = (await (await post({ orderId: order })).json()) as { checkoutId: string; integrity: string };
        assert.match(created.integrity, /^sha384-/);
        await payInWidget(context.sandbox, created.checkoutId);
        const returnPath = (id: string, resourcePath = `/v1/checkouts/${id}/payment`) =>
          `/payment-result?${new URLSearchParams({ id, resourcePath })}`;
        const result = await app.fetch(returnPath(created.checkoutId));
        assert.equal(result.status, 200);
        assert.equal(((await result.json()) as { status: string }).status, 'paid');
        const reload = await app.fetch(returnPath(created.checkoutId));
        assert.equal(reload.status, 200, 'a reload is answered from the status store');
        assert.equal((await app.fetch(returnPath(created.checkoutId, '/__sandbox/reset'))).status, 400);

        const declined = (await (await post({ orderId: declinedOrder })).json()) as { checkoutId: string };
        await payInWidget(context.sandbox, declined.checkoutId, CARDS.declined);
        const answer = await app.fetch(returnPath(declined.checkoutId));
        assert.equal(answer.status, 402);
      } finally {
        await app.close();
      }
    });
  }
});

describe('the payment page, its checkout rendered into the HTML', () => {
  for (const [name, start] of Object.entries(frameworks)) {
    test(`${name}: GET /pay renders the element, its form and the widget script; the shopper pays that checkout`, async () => {
      const { client } = clientFor(context.sandbox);
      const order = orderId(`page-${name.replace(':', '-')}`);
      const app = await start(client, new Map([[order, { amount: '12.50', currency: 'EUR' }]]), pageOn());
      try {
        const unknown = await app.fetch('/pay?orderId=unknown');
        assert.equal(unknown.status, 404);
        assert.match(await unknown.text(), /<p role="alert">Unknown order/);
        assert.equal((await app.fetch('/pay')).status, 404, 'no orderId: no checkout');

        const page = await app.fetch(`/pay?${new URLSearchParams({ orderId: order })}`);
        assert.equal(page.status, 200);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
        const html = await page.text();
        assert.match(html, /<h1>Pay 12\.50 EUR<\/h1>/);
        const checkoutId = /<gw-checkout[^>]* checkout-id="([^"]+)"/.exec(html)?.[1];
        assert.ok(checkoutId, 'the element names its checkout');
        const script = /<script[^>]* src="([^"]+)"[^>]*>/.exec(html.slice(html.indexOf('paymentWidgets')))?.[0] ?? '';
        assert.ok(script.includes(`${context.sandbox.url}/v1/paymentWidgets.js?checkoutId=${checkoutId}`), script);
        assert.match(script, /integrity="sha384-[A-Za-z0-9+/]{64}"/);
        assert.match(script, /crossorigin="anonymous"/);
        assert.match(html, /<form[^>]* class="paymentWidgets"[^>]* action="\/order\/result"/);
        assert.ok(html.includes('/assets/checkout.js'), 'the element module is loaded by the inline script');
        assert.match(page.headers.get('link') ?? '', new RegExp(`paymentWidgets\\.js\\?checkoutId=${checkoutId}>; rel=preload; as=script`));

        // The widget script the page names is the gateway's for that checkout, and its bytes match the integrity.
        const widget = await fetch(/ src="([^"]+)"/.exec(script)![1]!.replaceAll('&amp;', '&'));
        const digest = createHash('sha384').update(Buffer.from(await widget.arrayBuffer())).digest('base64');
        assert.ok(script.includes(`integrity="sha384-${digest}"`), 'the integrity the page names is the served bytes\' digest');
        await payInWidget(context.sandbox, checkoutId);
        const result = await app.fetch(`/payment-result?${new URLSearchParams({ id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` })}`);
        assert.equal(((await result.json()) as { status: string }).status, 'paid');
      } finally {
        await app.close();
      }
    });
  }
});

describe('a gateway that refuses the merchant', () => {
  for (const [name, start] of Object.entries(frameworks)) {
    test(`${name}: a wrong token answers the page 502 with a message and the server keeps answering`, async (t) => {
      const logged = t.mock.method(console, 'error', () => undefined);
      const { client } = clientFor(context.sandbox, { accessToken: 'not-the-token' });
      const order = orderId(`refused-${name.replace(':', '-')}`);
      const app = await start(client, new Map([[order, { amount: '49.99', currency: 'EUR' }]]), pageOn());
      try {
        const page = await app.fetch(`/pay?orderId=${order}`);
        assert.equal(page.status, 502);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(await page.text(), /<p role="alert">The payment service is unavailable/);
        for (let attempt = 0; attempt < 2; attempt++) {
          const answer = await app.fetch('/checkout', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ orderId: order }),
          });
          assert.equal(answer.status, 502);
          assert.match(((await answer.json()) as { error: string }).error, /payment service is unavailable/);
        }
        assert.equal(logged.mock.callCount(), 3, 'each refusal is logged');
        assert.doesNotMatch(String(logged.mock.calls[0]!.arguments[0]), /not-the-token/);
      } finally {
        await app.close();
      }
    });
  }
});

describe('server-to-server with 3-D Secure', () => {
  test('a 3DS card answers the redirect for <gw-3ds-handler>; a plain card is paid at once', async () => {
    const { client } = clientFor(context.sandbox);
    const input = {
      cvv: '123',
      email: 'jane@example.com',
      ip: '192.0.2.10',
      browser: { acceptHeader: 'text/html', userAgent: 'Mozilla/5.0', language: 'de-AT' },
    };
    const pending = await payWithThreeDSecure(client, { ...input, orderId: orderId('3ds'), cardNumber: CARDS.challenge });
    assert.ok('redirect' in pending && pending.redirect.url.startsWith(context.sandbox.url));
    const paid = await payWithThreeDSecure(client, { ...input, orderId: orderId('plain'), cardNumber: CARDS.approved });
    assert.ok('paid' in paid && paid.paid.id);
  });

  test('a debit the gateway answers pending, with no redirect, is returned pending: neither paid nor an error', async () => {
    // The sandbox has no card that stays pending at the gateway: its answer is rewritten as one waiting for confirmation.
    const { client } = clientFor(context.sandbox, {
      fetch: async (url, init) => {
        const answer = await fetch(url, init);
        const body = { ...((await answer.json()) as object), result: { code: '800.400.500', description: 'Waiting for confirmation of non-instant payment. Denied for now.' } };
        return new Response(JSON.stringify(body), { status: answer.status, headers: { 'content-type': 'application/json' } });
      },
    });
    const input = { cvv: '123', email: 'jane@example.com', ip: '192.0.2.10', browser: { acceptHeader: 'text/html', userAgent: 'Mozilla/5.0', language: 'en' } };
    const answer = await payWithThreeDSecure(client, { ...input, orderId: orderId('pending'), cardNumber: CARDS.approved });
    assert.ok('pending' in answer, JSON.stringify(answer));
    assert.equal(answer.pending.result.code, '800.400.500');
  });
});
