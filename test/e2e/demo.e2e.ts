/**
 * End to end: starts exactly what `npm start` starts (demo/main.ts
 * `startDemo`) and walks the demo as a shopper would, by clicking, in headless
 * Chromium: cart → pay in the widget on the page the shop's server rendered
 * (`renderCheckout`) → result (declined, then approved on a
 * second try; expired with "start again"), and a card payment through a 3-D
 * Secure challenge; "start again" while a challenge on the old checkout is
 * open, finished late: refunded, and the shopper told so. Fails on any console
 * error of the demo's pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { startDemo, type RunningDemo } from '../../demo/main.js';
import { axeViolations, frameWith, launchChromium, watchedPage } from './browser.js';

let demo: RunningDemo;
let browser: Browser;

before(async () => {
  demo = await startDemo({ port: 0, quiet: true });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/**
 * A page of the demo that fails the test on console errors when `done` is
 * called, except those `expected` names (the browser logs a gateway's refusal,
 * an HTTP 400, as a console error).
 */
async function shopperPage(expected: readonly RegExp[] = []): Promise<{ page: Page; done: () => Promise<void> }> {
  const { page, problems } = await watchedPage(browser);
  page.setDefaultTimeout(15_000);
  return {
    page,
    done: async () => {
      await page.close();
      assert.deepEqual(
        problems.filter((problem) => !expected.some((pattern) => pattern.test(problem))),
        [],
        'the demo pages logged errors',
      );
    },
  };
}

/** Types a card into the gateway's widget (it renders into the page's form.paymentWidgets) and presses pay. */
async function payInWidget(page: Page, cardNumber: string): Promise<void> {
  const widget = page.locator('gw-checkout');
  await widget.locator('.wpwl-button-pay').waitFor();
  await widget.getByLabel('Card number').fill(cardNumber);
  await widget.getByLabel('Expiry date').fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
  await widget.getByLabel('CVV').fill('123');
  await widget.getByLabel('Card holder').fill('Jane Jones');
  await widget.getByRole('button', { name: 'Pay now' }).click();
}

/** From the shop's front page: two products into the cart, check out, land on the payment page. */
async function checkOut(page: Page): Promise<void> {
  await page.goto(demo.url);
  await page.getByRole('button', { name: /^Add to cart\W+Espresso beans, 1 kg$/ }).click();
  await page.getByRole('button', { name: /^Add to cart\W+Pour-over kit$/ }).click();
  await page.getByRole('button', { name: 'Check out' }).click();
  await page.waitForURL(/\/pay\.html\?order=/);
  await page.locator('gw-checkout[state="ready"]').waitFor();
}

describe('npm start demo', () => {
  test('serves the pages on one URL and proxies /api to the merchant, which never sends the token', async () => {
    const response = await fetch(new URL('/api/config', demo.url));
    assert.equal(response.status, 200);
    const body = await response.text();
    assert.match(body, /"gatewayUrl":"http:\/\/127\.0\.0\.1:\d+"/);
    for (const token of demo.sandbox.tokens) assert.ok(!body.includes(token), 'the access token reached the browser');
  });

  test("serves the pages under the README's Content-Security-Policy, so every flow below runs under it", async () => {
    const policy = (await fetch(demo.url)).headers.get('content-security-policy') ?? '';
    assert.match(policy, new RegExp(`script-src 'self' ${demo.sandboxUrl}(;|$)`));
    assert.match(policy, /form-action 'self' http:\/\/127\.0\.0\.1:\d+(;|$)/);
    assert.doesNotMatch(policy, /script-src[^;]*'unsafe-(inline|eval)'/);
  });

  test("the payment page is the shop server's, with the checkout in its HTML (renderCheckout): the widget starts first, the element's module after it, and it pays", async () => {
    const { page, done } = await shopperPage();
    const order: string[] = [];
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname === '/v1/paymentWidgets.js') order.push('widget script loaded');
    });
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/pages/pay.ts') order.push('page module requested');
    });
    const payPage = page.waitForResponse((response) => new URL(response.url()).pathname === '/pay.html');
    await checkOut(page);
    const response = await payPage;
    const html = await response.text();
    // What the browser parses before any of the element's code: the element with its form, and the widget script with its integrity.
    const checkoutId =
      /<gw-checkout checkout-id="([^"]+)"[^>]*><div class="[^"]+"><form class="paymentWidgets" action="\/result\.html\?order=[^"]+"/.exec(
        html,
      )?.[1];
    assert.ok(checkoutId, 'the element and its form are in the HTML');
    assert.match(
      html,
      new RegExp(
        `<script src="${demo.sandboxUrl}/v1/paymentWidgets\\.js\\?checkoutId=${checkoutId}" integrity="sha384-[^"]+" crossorigin="anonymous"`,
      ),
    );
    assert.doesNotMatch(html, /<script type="module"/, "the page's module is not loaded by the HTML: the rendered inline script loads it");
    // The rendered inline script runs by the response's own nonce, under the policy of the other pages otherwise.
    const policy = response.headers()['content-security-policy'] ?? '';
    const nonce = /script-src 'self' \S+ 'nonce-([^']+)'(;|$)/.exec(policy)?.[1];
    assert.ok(nonce, `a nonce in script-src: ${policy}`);
    assert.ok(html.includes(`<script nonce="${nonce}">`));
    assert.doesNotMatch(policy, /script-src[^;]*'unsafe-(inline|eval)'/);
    assert.deepEqual(order.slice(0, 2), ['widget script loaded', 'page module requested']);
    assert.equal(await page.locator('gw-checkout').getAttribute('checkout-id'), checkoutId, 'the element adopted the rendered checkout');
    await payInWidget(page, CARDS.approved);
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await done();
  });

  test('cart → widget: a declined card, then an approved one → the result page shows the verified payment and both attempts', async () => {
    const { page, done } = await shopperPage();
    await checkOut(page);
    assert.match(await page.locator('main').innerText(), /Total\s+€73\.90/);
    await payInWidget(page, CARDS.declined);
    await page.locator('gw-checkout').getByText('The payment was declined').waitFor();
    await page.locator('gw-checkout[state="ready"]').waitFor();
    await payInWidget(page, CARDS.approved);
    await page.waitForURL(/\/result\.html\?order=.*&id=.*&resourcePath=/);
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    const main = await page.locator('main').innerText();
    assert.match(main, /is paid: €73\.90/);
    assert.match(main, /approved on the second attempt/);
    assert.match(main, /800\.100\.152/, 'the declined attempt is listed');
    assert.match(main, /000\.100\.110/, 'the approval is listed');
    assert.deepEqual(await axeViolations(page), [], 'the result page');
    // The call log holds masked fields only: no card number went to the merchant at all in this flow.
    const log = (await page.evaluate(() => sessionStorage.getItem('gw-demo:calls'))) ?? '';
    assert.match(log, /"path":"\/v1\/checkouts"/);
    assert.match(log, /"path":"\/v1\/checkouts\/[^/"]+\/payment/);
    assert.ok(!log.includes(CARDS.approved) && !log.includes(CARDS.declined));
    await done();
  });

  test('an expired checkout: the gateway refuses the payment, the shopper is offered "Start again", and the new checkout is paid', async () => {
    const { page, done } = await shopperPage([
      /400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/v1\/checkouts\/[\w.-]+\/widget\/payments\)/,
    ]);
    await checkOut(page);
    await page.getByRole('button', { name: 'Let this checkout expire' }).click();
    await page.getByText('The sandbox clock moved 31 minutes ahead').waitFor();
    await payInWidget(page, CARDS.approved);
    // The payment page (on gw-expired) or the result page (after the widget's redirect) says so; both offer a new checkout.
    await page.getByText('Your payment session expired', { exact: true }).waitFor();
    assert.match(await page.locator('main').innerText(), /Nothing was charged/);
    await page.getByRole('button', { name: 'Start again' }).click();
    await page.waitForURL(/\/pay\.html\?order=/);
    await page.locator('gw-checkout[state="ready"]').waitFor();
    await payInWidget(page, CARDS.approved);
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    assert.match(await page.locator('main').innerText(), /approved on the first attempt/);
    await done();
  });

  test('"start again" while a 3-D Secure challenge on the old checkout is open: both are paid, the late one is refunded and its shopper told so', async () => {
    const expiredRefusal = /400 \(Bad Request\) \(http:\/\/127\.0\.0\.1:\d+\/v1\/checkouts\/[\w.-]+\/widget(\/payments)?\)/;
    // The issuer's challenge page is the top page here (the widget navigates to it): the browser asks the sandbox for a favicon it has not.
    const first = await shopperPage([/404 \(Not Found\) \(http:\/\/127\.0\.0\.1:\d+\/favicon\.ico\)/]);
    await checkOut(first.page);
    const payUrl = first.page.url();
    // 20 minutes into the checkout the shopper starts paying with a challenge card, and leaves the issuer's page open.
    demo.sandbox.clock.advance(20 * 60);
    await payInWidget(first.page, CARDS.challengeNoMethod);
    const acs = await frameWith(first.page, 'button[value="complete"]');
    // 11 minutes later the checkout has expired (30 minutes), the challenge has not (30 minutes from its start).
    demo.sandbox.clock.advance(11 * 60);
    const second = await shopperPage([expiredRefusal]);
    // Another tab on the same order: the gateway no longer knows its checkout, the page offers "Start again".
    await second.page.goto(payUrl);
    await second.page.getByText('Your payment session expired', { exact: true }).waitFor();
    await second.page.getByRole('button', { name: 'Start again' }).click();
    await second.page.waitForURL(/\/pay\.html\?order=/);
    await second.page.locator('gw-checkout[state="ready"]').waitFor();
    await payInWidget(second.page, CARDS.approved);
    await second.page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await second.done();
    // Back in the first tab the challenge is finished: the bank approves a second charge, the shop refunds it and says so.
    await acs.getByRole('button', { name: 'Complete authentication' }).click();
    await first.page.waitForURL(/\/result\.html\?order=/);
    await first.page.getByRole('heading', { name: 'Your order is paid once' }).waitFor();
    const main = await first.page.locator('main').innerText();
    assert.match(main, /A second charge was refunded/);
    assert.match(main, /refunded to your card/);
    assert.match(main, /Refunded second charges/);
    assert.deepEqual(await axeViolations(first.page), [], 'the result page of the refunded charge');
    await first.done();
  });

  test('3-D Secure challenge: the shopper completes authentication and the server reads an approved payment', async () => {
    const { page, done } = await shopperPage();
    await page.goto(new URL('/card-payment.html', demo.url).href);
    await page.getByLabel('Test card').selectOption(CARDS.challenge);
    await page.getByLabel('Challenge window').selectOption('03');
    await page.getByRole('button', { name: 'Pay' }).click();
    const handler = page.locator('gw-3ds-handler');
    await handler.waitFor();
    const acs = await frameWith(page, 'button[value="complete"]');
    assert.deepEqual(await axeViolations(page), [], 'the page during the challenge');
    await acs.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByText('Paid €38.00').waitFor();
    assert.equal(await handler.count(), 0, 'the handler is gone once the payment is settled');
    const log = page.locator('#api-log');
    await log.getByText('/v1/payments', { exact: true }).first().waitFor();
    assert.match(await log.innerText(), /POST\s+\/v1\/payments/);
    assert.match(await log.innerText(), /GET\s+\/v1\/payments\//);
    const stored = (await page.evaluate(() => sessionStorage.getItem('gw-demo:calls'))) ?? '';
    assert.ok(stored.includes('"card.number":"420000******0042"'), 'the card number is shown masked');
    assert.ok(!stored.includes(CARDS.challenge) && !stored.includes('"card.cvv":"123"'), 'no full card number or security code in the log');
    await done();
  });

  test('3-D Secure stopped on the page (challenge-timeout): the payment is read, never called failed, and read again once the issuer approved it', async () => {
    const { page, done } = await shopperPage();
    await page.clock.install();
    await page.goto(new URL('/card-payment.html', demo.url).href);
    await page.getByLabel('Test card').selectOption(CARDS.challenge);
    const created = page.waitForResponse(
      (response) => response.url().endsWith('/api/card-payments') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Pay' }).click();
    const { payment } = (await (await created).json()) as { payment: { id: string } };
    await page.locator('gw-3ds-handler[state="challenge"]').waitFor();
    // The shopper takes longer than the element's challenge timeout (10 minutes); the challenge stays open at the issuer.
    await page.clock.fastForward(600_001);
    await page.getByText('The payment is not finished yet').waitFor();
    assert.match(await page.locator('main').innerText(), /3-D Secure stopped on this page \(challenge-timeout\)/);
    assert.equal(await page.getByRole('button', { name: 'Make another payment' }).count(), 0, 'no new payment is offered');
    // The shopper authenticated at the issuer after all: the payment is approved, and the page's next read says so.
    const completion = await fetch(`${demo.sandboxUrl}/__sandbox/payments/${payment.id}/three-d-secure`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.sandbox.tokens[0]}` },
      body: new URLSearchParams({ outcome: 'approved' }),
    });
    assert.equal(completion.status, 200);
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByText('Paid €38.00').waitFor();
    await done();
  });

  test('3-D Secure frictionless: no challenge is shown and the payment is approved', async () => {
    const { page, done } = await shopperPage();
    await page.goto(new URL('/card-payment.html', demo.url).href);
    await page.getByLabel('Test card').selectOption(CARDS.frictionless);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Paid €38.00').waitFor();
    assert.match(await page.locator('main').innerText(), /000\.\d{3}\.\d{3}/);
    await done();
  });

  test('preauthorisation: hold, two partial captures, a capture above what is held refused, one capture refunded', async () => {
    const { page, done } = await shopperPage();
    await page.goto(new URL('/orders.html', demo.url).href);
    await page.getByLabel('Amount (EUR)').fill('120.00');
    await page.getByRole('button', { name: 'Place order and hold the amount' }).click();
    await page.getByText('Held €120.00 on the card').waitFor();
    const order = page.locator('article').first();
    await order.getByLabel('Capture (EUR)').fill('50.00');
    await order.getByRole('button', { name: 'Capture' }).click();
    await page.getByText('Captured €50.00').waitFor();
    await order.getByLabel('Capture (EUR)').fill('30.00');
    await order.getByRole('button', { name: 'Capture' }).click();
    await page.getByText('Captured €30.00').waitFor();
    const summary = await order.innerText();
    assert.match(summary, /Captured\s+€80\.00/);
    assert.match(summary, /Still held\s+€40\.00/);
    // Capturing more than is still held is refused by the gateway, and the page says so.
    await order.getByLabel('Capture (EUR)').fill('50.00');
    await order.getByRole('button', { name: 'Capture' }).click();
    await page.getByText('Ship items: capture: not done').waitFor();
    assert.equal((await page.locator('main').innerText()).split('700.400.100').length - 1, 1, "the refusal's code is printed once");
    assert.ok(await order.getByRole('button', { name: 'Reverse' }).isDisabled(), 'nothing captured may be reversed no more');
    await order.getByRole('button', { name: 'Refund', exact: true }).first().click();
    await page.getByText('Refunded €50.00').waitFor();
    assert.match(await order.innerText(), /Refunded\s+€50\.00/);
    assert.equal(await order.getByRole('row').filter({ hasText: '(RF)' }).count(), 1);
    assert.equal(await order.getByRole('row').filter({ hasText: '(CP)' }).count(), 2, 'the refused capture is no capture');
    assert.ok(
      await order.getByRole('button', { name: 'Refunded', exact: true }).isDisabled(),
      'a capture refunded in full offers no second refund',
    );
    assert.equal(await order.getByRole('button', { name: 'Refund', exact: true }).count(), 1, 'the other capture can still be refunded');

    // The order's reference finds the hold, its captures and its refund in the gateway's report.
    const reference = /Order (\S+)/.exec(await order.getByRole('heading').innerText())?.[1] ?? '';
    await page.goto(new URL(`/transactions.html?merchantTransactionId=${encodeURIComponent(reference)}`, demo.url).href);
    await page.getByRole('button', { name: 'Look up' }).click();
    const report = page.getByRole('table', { name: `Transactions of ${reference}` });
    await report.getByText('(RF)').waitFor();
    // The refused capture is a transaction of its own, as the platform's report lists it: listed, with no amount.
    const captures = report.getByRole('row').filter({ hasText: '(CP)' });
    assert.equal(await captures.count(), 3, `the captures, the refused one too, are found under ${reference}`);
    assert.equal(await captures.filter({ hasText: '700.400.100' }).count(), 1, 'one of them the refused capture');
    await done();
  });

  test('preauthorisation: an order cancelled before anything shipped is reversed, and nothing more can be captured', async () => {
    const { page, done } = await shopperPage();
    await page.goto(new URL('/orders.html', demo.url).href);
    await page.getByLabel('Amount (EUR)').fill('42.00');
    await page.getByRole('button', { name: 'Place order and hold the amount' }).click();
    await page.getByText('Held €42.00 on the card').waitFor();
    const order = page.locator('article').first();
    await order.getByRole('button', { name: 'Reverse' }).click();
    await page.getByText('Hold released').waitFor();
    assert.equal(await order.getByRole('row').filter({ hasText: '(RV)' }).count(), 1);
    assert.ok(await order.getByRole('button', { name: 'Capture' }).isDisabled());
    assert.ok(await order.getByRole('button', { name: 'Reverse' }).isDisabled());
    await done();
  });

  test('payout: save a card, send a credit to its registrationId, find it in the transactions report', async () => {
    const { page, done } = await shopperPage();
    await page.goto(new URL('/payouts.html', demo.url).href);
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('Card saved', { exact: true }).waitFor();
    await page.getByLabel('Amount (EUR)').fill('25.00');
    await page.getByRole('button', { name: 'Send payout' }).click();
    await page.getByText('Sent €25.00').waitFor();
    const payouts = await page.getByRole('table', { name: 'Payouts sent' }).innerText();
    assert.match(payouts, /\(CD\)/);
    await page.getByRole('link', { name: 'Transactions' }).click();
    const references = page.getByRole('button', { name: /^payout-\d+$/ });
    await references.first().click();
    await page.getByText(/1 transaction for payout-\d+/).waitFor();
    assert.match(await page.locator('main table').innerText(), /credit \(payout\)[\s\S]*€25\.00/);
    await done();
  });

  test('every page passes axe-core (WCAG 2.1 A and AA), the payment page with the widget shown', async () => {
    const { page, done } = await shopperPage();
    for (const path of ['/', '/card-payment.html', '/orders.html', '/payouts.html', '/transactions.html']) {
      await page.goto(new URL(path, demo.url).href);
      await page.locator('main h1').waitFor();
      assert.deepEqual(await axeViolations(page), [], path);
    }
    await checkOut(page);
    assert.deepEqual(await axeViolations(page), [], 'payment page');
    await done();
  });
});
