/**
 * `widgetPreload`: the preload hint for a real sandbox checkout names the URL
 * the sandbox serves the widget at and the integrity the sandbox gave, and
 * refuses what would make a hint the element cannot reuse (or an unsafe tag).
 * The browser side (one fetch) is gw-checkout.preload.browser.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { GatewayValidationError, widgetPreload } from '../../src/server/index.js';
import { clientFor, useSandbox } from './fixtures.js';

const context = useSandbox();

describe('widgetPreload', () => {
  test('names the script the sandbox serves for the checkout, with its integrity, in a header and a tag', async () => {
    const checkout = await clientFor(context.sandbox).client.checkouts.create({ amount: '12.00', currency: 'EUR', paymentType: 'DB' });
    const hint = widgetPreload(checkout, { baseUrl: `${context.sandbox.url}/` });
    const script = await fetch(hint.url);
    assert.equal(script.status, 200);
    const digest = `sha384-${createHash('sha384')
      .update(Buffer.from(await script.arrayBuffer()))
      .digest('base64')}`;
    assert.equal(checkout.integrity, digest, "the sandbox's integrity is the served bytes' hash");
    assert.equal(hint.url, `${context.sandbox.url}/v1/paymentWidgets.js?checkoutId=${checkout.id}`);
    assert.equal(hint.link, `<${hint.url}>; rel=preload; as=script; crossorigin=anonymous; integrity="${digest}"`);
    assert.equal(hint.html, `<link rel="preload" as="script" href="${hint.url}" crossorigin="anonymous" integrity="${digest}">`);
    assert.equal(hint.preconnect.link, `<${context.sandbox.url}>; rel=preconnect; crossorigin=anonymous`);
    assert.equal(hint.preconnect.html, `<link rel="preconnect" href="${context.sandbox.url}" crossorigin="anonymous">`);
  });

  test("keeps a gateway path prefix, leaves integrity out when the checkout has none, and carries the page's nonce", () => {
    const hint = widgetPreload({ id: 'ABC.uat01-vm-tx03' }, { baseUrl: 'https://gw.example/pay//', nonce: 'r4nd0m+/=' });
    assert.equal(hint.url, 'https://gw.example/pay/v1/paymentWidgets.js?checkoutId=ABC.uat01-vm-tx03');
    assert.equal(hint.link, `<${hint.url}>; rel=preload; as=script; crossorigin=anonymous`);
    assert.equal(hint.html, `<link rel="preload" as="script" href="${hint.url}" crossorigin="anonymous" nonce="r4nd0m+/=">`);
  });

  test("takes a registration-only checkout's widget, `{id}/registration`, as the element does, and the sandbox serves it", async () => {
    const { id } = await clientFor(context.sandbox).client.checkouts.create({
      createRegistration: true,
      standingInstruction: { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' },
    });
    const hint = widgetPreload({ id: `${id}/registration` }, { baseUrl: context.sandbox.url });
    assert.equal(hint.url, `${context.sandbox.url}/v1/paymentWidgets.js?checkoutId=${id}%2Fregistration`);
    assert.equal((await fetch(hint.url)).status, 200);
    for (const id of ['/registration', 'a/../registration', 'ABC/payment', 'ABC/registration/registration'])
      assert.throws(() => widgetPreload({ id }, { baseUrl: 'https://gw.example' }), GatewayValidationError, id);
  });

  test('refuses, with a typed error, what the element would refuse or what could break out of the tag or header', () => {
    const ok = { id: 'ABC123' };
    const cases: [unknown, unknown][] = [
      [{ id: 'a/../b' }, { baseUrl: 'https://gw.example' }],
      [{ id: 'ABC"><script>' }, { baseUrl: 'https://gw.example' }],
      [{ ...ok, integrity: 'sha384-' }, { baseUrl: 'https://gw.example' }],
      [ok, { baseUrl: 'javascript:alert(1)' }],
      [ok, { baseUrl: 'https://user:pass@gw.example' }],
      // Card data goes there: plain http only on this machine, as <gw-checkout base-url> has it.
      [ok, { baseUrl: 'http://gw.example' }],
      [ok, { baseUrl: 'http://192.168.1.10:8080' }],
      [ok, { baseUrl: 'https://gw.example', nonce: 'x" onload="alert(1)' }],
      [ok, { baseUrl: 'https://gw.example', nonce: 'a\r\nSet-Cookie: x' }],
      [null, { baseUrl: 'https://gw.example' }],
      [ok, undefined],
    ];
    for (const [checkout, options] of cases)
      assert.throws(() => widgetPreload(checkout as never, options as never), GatewayValidationError, JSON.stringify([checkout, options]));
  });

  test('takes http on this machine; a query or fragment on the base URL is no part of the script URL, as the element writes it', () => {
    assert.equal(
      widgetPreload({ id: 'ABC123' }, { baseUrl: 'http://localhost:8080' }).url,
      'http://localhost:8080/v1/paymentWidgets.js?checkoutId=ABC123',
    );
    for (const baseUrl of ['https://gw.example?q=1#f', 'https://gw.example/#f', 'https://gw.example/?q=1'])
      assert.equal(widgetPreload({ id: 'ABC123' }, { baseUrl }).url, 'https://gw.example/v1/paymentWidgets.js?checkoutId=ABC123', baseUrl);
    assert.equal(
      widgetPreload({ id: 'ABC123' }, { baseUrl: 'https://gw.example/pay/?q=1' }).url,
      'https://gw.example/pay/v1/paymentWidgets.js?checkoutId=ABC123',
    );
  });

  test('whatever it is given, answers a header-safe hint or a typed error', () => {
    fc.assert(
      fc.property(
        fc.record({ id: fc.string(), integrity: fc.option(fc.string(), { nil: undefined }) }),
        fc.webUrl(),
        fc.option(fc.string(), { nil: undefined }),
        (checkout, baseUrl, nonce) => {
          try {
            const hint = widgetPreload(checkout, { baseUrl, nonce });
            assert.match(hint.link, /^[\x20-\x7e]+$/);
            assert.match(hint.preconnect.link, /^[\x20-\x7e]+$/);
            assert.ok(!/<(?!link )/.test(hint.html.replace(/^<link /, '')), hint.html);
          } catch (error) {
            assert.ok(error instanceof GatewayValidationError, String(error));
          }
        },
      ),
    );
  });
});
