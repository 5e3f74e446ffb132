/**
 * End to end in Arabic: what `npm start` starts, an order created through the
 * demo's API, and its payment on the Arabic page (`/pay-ar.html`, `lang="ar"
 * dir="rtl"`) paid by a shopper with a test card in headless Chromium. The
 * widget speaks Arabic right to left from the page's `lang` alone. Fails on
 * any console error of the page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { startDemo, type RunningDemo } from '../../scripts/start.mjs';
import { axeViolations, launchChromium, watchedPage } from './browser.js';

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

describe('the checkout in Arabic', () => {
  test('an order paid on the right-to-left Arabic page with a test card reaches the result page', async () => {
    const response = await fetch(new URL('/api/orders', demo.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lines: [{ sku: 'espresso-beans', quantity: 1 }] }),
    });
    const { order } = (await response.json()) as { order: { id: string } };
    assert.equal(response.status, 200);

    const { page, problems } = await watchedPage(browser);
    page.setDefaultTimeout(15_000);
    await page.goto(new URL(`/pay-ar.html?order=${encodeURIComponent(order.id)}`, demo.url).href);
    const widget = page.locator('gw-checkout[state="ready"]');
    await widget.waitFor();
    const form = widget.locator('form.paymentWidgets');
    assert.equal(await form.getAttribute('lang'), 'ar');
    assert.equal(await form.getAttribute('dir'), 'rtl');
    // Right to left: the card number's label text starts at the field's right edge.
    const [label, field] = await Promise.all([
      page.evaluate(() => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('.wpwl-label-cardNumber')!);
        return range.getBoundingClientRect().toJSON() as DOMRect;
      }),
      widget.locator('.wpwl-control-cardNumber').boundingBox(),
    ]);
    assert.ok(Math.abs(label.right - (field!.x + field!.width)) < 1, "the label sits at the field's right edge");
    assert.deepEqual(await axeViolations(page), [], 'the Arabic payment page');

    await widget.getByLabel('رقم البطاقة').fill(CARDS.approved);
    await widget.getByLabel('تاريخ الانتهاء').fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
    await widget.getByLabel('رمز التحقق (CVV)').fill('123');
    await widget.getByLabel('اسم حامل البطاقة').fill('سارة العتيبي');
    await widget.getByRole('button', { name: 'ادفع الآن' }).click();
    await page.waitForURL(/\/result\.html\?order=.*&id=.*&resourcePath=/);
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
    assert.match(await page.locator('main').innerText(), /is paid/);
    await page.close();
    assert.deepEqual(problems, [], 'the pages logged errors');
  });

  test('without an order the server checks one out while rendering the page, and the call log shows the checkout it created', async () => {
    const { page, problems } = await watchedPage(browser);
    page.setDefaultTimeout(15_000);
    await page.goto(new URL('/pay-ar.html', demo.url).href);
    await page.locator('gw-checkout[state="ready"]').waitFor();
    assert.match(await page.locator('main h1').innerText(), /^الدفع للطلب KC-\d+$/);
    const log = page.locator('#api-log');
    await log.getByText('Check out: create a checkout').waitFor();
    assert.match(await log.innerText(), /POST\s+\/v1\/checkouts/);
    await page.close();
    assert.deepEqual(problems, [], 'the page logged errors');
  });
});
