/**
 * Every page of the demo, as `npm start` serves it, photographed at a desktop
 * width and at a phone's (390 px) into reports/screenshots/demo/ (the test
 * run's artefacts: look at them after a change of a page or of the widget's
 * styles). Pages that need a state are brought there by clicking, as a
 * shopper would: the payment page with an order in it, the result page after
 * paying, the saved-card list in the widget. At 390 px no page may be wider
 * than the screen (a horizontal scroll on a phone).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startDemo, type RunningDemo } from '../../demo/main.js';
import { launchChromium, watchedPage } from './browser.js';

const OUTPUT = join('reports', 'screenshots', 'demo');
const SIZES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

let demo: RunningDemo;
let browser: Browser;

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  demo = await startDemo({ port: 0, quiet: true });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/** Lets fonts, frames and the widget settle, then writes one full-page picture per size. */
async function photograph(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300); // a layout pass after the resize
    await page.screenshot({ path: join(OUTPUT, `${name}-${size}.png`), fullPage: true });
    if (size === 'phone') {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `${name} is ${width} px wide on a ${viewport.width} px phone`);
    }
  }
}

/** A page of the demo at `path`, waited for `ready` (a selector), photographed as `name`. */
async function shoot(name: string, path: string, ready: string, prepare?: (page: Page) => Promise<void>): Promise<void> {
  const { page, problems } = await watchedPage(browser, SIZES.desktop);
  page.setDefaultTimeout(15_000);
  try {
    await page.goto(new URL(path, demo.url).href);
    await page.locator(ready).first().waitFor();
    await prepare?.(page);
    await photograph(page, name);
    assert.deepEqual(problems, [], `${name} logged errors`);
  } finally {
    await page.close();
  }
}

const PAGES: [name: string, path: string, ready: string][] = [
  ['shop', '/', 'button:has-text("Add to cart")'],
  ['card-payment', '/card-payment.html', 'main h1'],
  ['preauthorisation', '/orders.html', 'main h1'],
  ['payouts', '/payouts.html', 'main h1'],
  ['subscriptions', '/subscriptions.html', 'main h1'],
  ['saved-cards', '/saved-cards.html', 'main h1'],
  ['wallets', '/wallets.html', 'gw-checkout[state="ready"]'],
  ['arabic', '/pay-ar.html', 'gw-checkout[state="ready"]'],
  ['notifications', '/notifications.html', 'main h1'],
  ['transactions', '/transactions.html', 'main h1'],
];

for (const [name, path, ready] of PAGES) {
  test(`demo page ${name} (${path}) at desktop and 390 px`, () => shoot(name, path, ready));
}

test('the payment page with an order in it, and the result page after paying', async () => {
  await shoot('pay', '/', 'button:has-text("Add to cart")', async (page) => {
    await page.getByRole('button', { name: /^Add to cart\W+Espresso beans, 1 kg$/ }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.locator('gw-checkout[state="ready"]').waitFor();
  });
});

test('the saved-card list in the widget (one click)', async () => {
  await shoot('saved-cards-one-click', '/saved-cards.html', 'main h1', async (page) => {
    await page.getByRole('button', { name: 'Save a card' }).click();
    const widget = page.locator('gw-checkout');
    await widget.getByRole('button', { name: 'Save card' }).waitFor();
    await widget.getByLabel('Card number').fill('5454545454545454');
    await widget.getByLabel('Expiry date').fill('12/34');
    await widget.getByLabel('CVV').fill('123');
    await widget.getByLabel('Card holder').fill('Jane Jones');
    await widget.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('Card saved', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Buy a bag of coffee in one click' }).click();
    await widget.getByRole('radio').first().waitFor();
  });
});
