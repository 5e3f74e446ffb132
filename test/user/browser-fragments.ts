/**
 * The components page's fragments are browser code: docs.user.ts pastes each, verbatim, as a module of a Vite app
 * around the packed package, on a page of its own that holds what the fragment takes from the page (the markup it
 * queries, the module that defines an element it only names as a type, the shop's API it calls), builds the app,
 * opens each page in Chromium and checks what the fragment was written to do. A scenario claims its fragment by a
 * line only that fragment holds.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** What the page the fragment runs on holds; `__CHECKOUT__` and the others are filled in when the page is served. */
export interface BrowserScenario {
  /** A line of the fragment this scenario runs, and of no other. */
  readonly signature: string;
  /** The page's `lang` and `dir`. */
  readonly html?: string;
  /** The page's markup, before the fragment's module. */
  readonly body: string;
  /** The page's own module, run before the fragment (what defines an element the fragment only names as a type). */
  readonly pageModule?: string;
  /** The checkout the page is served with, on the card entity or on the MADA entity; none when absent. */
  readonly checkout?: 'cards' | 'mada';
  /** What must hold once the fragment has run; `returns` are the shopper returns the shop's API was sent. */
  check(page: Page, returns: URLSearchParams[]): Promise<void>;
}

/** A `<gw-checkout>` as a server renders it for the checkout served (its id, integrity and the gateway's base URL). */
const checkoutMarkup = (extra = '') =>
  `<gw-checkout checkout-id="__CHECKOUT_ID__" integrity="__INTEGRITY__" base-url="__BASE_URL__" shopper-result-url="/shop/result"${extra}></gw-checkout>`;

export const BROWSER_SCENARIOS: readonly BrowserScenario[] = [
  {
    signature: "import 'gw-elements/checkout'; // defines <gw-checkout>",
    body: checkoutMarkup(),
    checkout: 'cards',
    check: async (page) => void (await page.waitForSelector('gw-checkout[state="ready"] form.paymentWidgets .wpwl-button-pay')),
  },
  {
    signature: "import 'gw-elements/3ds-handler'; // defines <gw-3ds-handler>",
    body: '<gw-3ds-handler></gw-3ds-handler>',
    // Idle, the handler shows nothing: defined and upgraded is what the import does.
    check: async (page) => void (await page.waitForSelector('gw-3ds-handler[state="idle"]', { state: 'attached' })),
  },
  {
    signature: "handler.addEventListener('gw-3ds-complete'",
    body: '<gw-3ds-handler></gw-3ds-handler>',
    pageModule: "import 'gw-elements/3ds-handler';\n",
    async check(page, returns) {
      // The shop's API made a payment that needs 3-D Secure (frictionless); the handler ran it and the return reached the shop.
      await page.waitForSelector('gw-3ds-handler[state="complete"]');
      const deadline = Date.now() + 10_000;
      while (returns.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(returns.length, 1, 'the return was sent to the shop once');
      assert.match(returns[0]!.get('resourcePath') ?? '', /^\/v1\/payments\/[\w.-]+$/);
      assert.ok(returns[0]!.get('resourcePath')!.endsWith(returns[0]!.get('id')!), 'the return names the payment');
    },
  },
  {
    signature: "checkout.texts = { expired: 'انتهت الجلسة. ابدأ من جديد.' };",
    html: 'lang="ar" dir="rtl"',
    // A checkout whose deadline has passed, so the element shows its expired text.
    body: checkoutMarkup(' expires-at="2000-01-01T00:00:00Z"'),
    pageModule: "import 'gw-elements/checkout';\n",
    checkout: 'cards',
    async check(page) {
      await page.waitForSelector('gw-checkout[state="expired"]');
      const shown = await page.evaluate(() => document.querySelector('gw-checkout')!.shadowRoot!.textContent ?? '');
      assert.ok(shown.includes('انتهت الجلسة. ابدأ من جديد.'), `the page's text is shown: ${shown}`);
    },
  },
  {
    signature: "brandDetectionType: 'binlist'",
    body: checkoutMarkup(),
    checkout: 'mada',
    async check(page) {
      await page.waitForSelector('gw-checkout[state="ready"] form.paymentWidgets .wpwl-button-pay');
      const shown = await page.evaluate(() => ({
        brands: document.querySelector('form.paymentWidgets')!.getAttribute('data-brands'),
        detection: (window as { wpwlOptions?: { brandDetectionType?: string } }).wpwlOptions?.brandDetectionType,
      }));
      assert.deepEqual(shown, { brands: 'MADA APPLEPAY STC_PAY', detection: 'binlist' });
    },
  },
];
