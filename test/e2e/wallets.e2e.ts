/**
 * End to end, wallets and MADA: a KSA merchant's server (the server helper with
 * a card entity and a MADA entity) creates checkouts on the MADA entity, a plain
 * merchant page with the platform's two lines shows the sandbox's widget in headless
 * Chromium, and a shopper pays by clicking: the Apple Pay stand-in sheet, a MADA
 * card (steered off the VISA/MASTER form, paid on the MADA one) and STC Pay's
 * stand-in flow. The server then reads each payment from the shopper's return.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createGatewayClient, type GatewayClient } from '../../src/server/index.js';
import { CARDS, DEFAULT_MADA_ENTITY_ID, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { STC_PAY_OTPS } from '../../src/contract/wallet-stand-in.js';
import type { WpwlOptions } from '../../src/browser/widget-contract.js';
import { startDemo, type RunningDemo } from '../../scripts/start.mjs';
import { launchChromium, watchedPage } from './browser.js';

let sandbox: Sandbox;
let gateway: GatewayClient;
let shop: Server;
let shopUrl: string;
let browser: Browser;

/** The page the shop serves for one checkout: wpwlOptions, the widget script with its integrity, and the forms. */
const pages = new Map<string, string>();

const KSA_OPTIONS: WpwlOptions = {
  brandDetection: true,
  brandDetectionType: 'binlist',
  brandDetectionPriority: ['MADA', 'VISA', 'MASTER'],
  applePay: {
    displayName: 'E2E Shop',
    total: { label: 'E2E Shop' },
    countryCode: 'SA',
    supportedNetworks: ['mada', 'visa', 'masterCard'],
    merchantCapabilities: ['supports3DS'],
  },
};

before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  gateway = createGatewayClient({
    baseUrl: sandbox.url,
    accessToken: sandbox.tokens[0]!,
    entityId: sandbox.entities[0]!,
    entities: { MADA: DEFAULT_MADA_ENTITY_ID, APPLEPAY: DEFAULT_MADA_ENTITY_ID, STC_PAY: DEFAULT_MADA_ENTITY_ID },
  });
  shop = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://shop.local');
    const page = pages.get(url.pathname);
    // The result page stands for the shop's; anything else (the browser's favicon request) is empty.
    response.writeHead(page || url.pathname === '/result' ? 200 : 204, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? (url.pathname === '/result' ? '<!doctype html><title>Result</title><p>Thank you</p>' : ''));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await sandbox?.close();
});

/** A checkout on the entity of `brands`, and the shop's page with one form per entry of `forms`. */
async function checkoutPage(path: string, brands: ('VISA' | 'MADA' | 'APPLEPAY' | 'STC_PAY')[], forms: string[]): Promise<string> {
  const checkout = await gateway.checkouts.create(
    { amount: '45.00', currency: 'SAR', paymentType: 'DB', merchantTransactionId: `E2E-${path.slice(1)}` },
    { brands },
  );
  pages.set(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay</title>
<script>window.wpwlOptions = ${JSON.stringify(KSA_OPTIONS)};</script>
<script src="${sandbox.url}/v1/paymentWidgets.js?checkoutId=${checkout.id}" integrity="${checkout.integrity}" crossorigin="anonymous"></script>
</head><body><main>${forms.map((dataBrands) => `<form action="${shopUrl}/result" class="paymentWidgets" data-brands="${dataBrands}"></form>`).join('')}</main></body></html>`,
  );
  return `${shopUrl}${path}`;
}

/** The shopper's return, read by the shop's server as it would be: `id` and `resourcePath` from the result URL. */
async function shopperReturn(page: Page) {
  await page.waitForURL(`${shopUrl}/result?**`);
  const url = new URL(page.url());
  return gateway.handleShopperReturn({ id: url.searchParams.get('id') ?? '', resourcePath: url.searchParams.get('resourcePath') ?? '' });
}

async function shopperPage(): Promise<{ page: Page; done: () => Promise<void> }> {
  const { page, problems } = await watchedPage(browser);
  page.setDefaultTimeout(15_000);
  return {
    page,
    done: async () => {
      await page.close();
      // A refused wrong one-time password is an HTTP 400, which the browser logs.
      assert.deepEqual(
        problems.filter((problem) => !/status of 400/.test(problem)),
        [],
        'the page logged errors',
      );
    },
  };
}

describe('wallets and MADA, end to end', () => {
  test('Apple Pay: the stand-in sheet says what it is; Approve pays, and the server reads an APPLEPAY payment without card data', async () => {
    const { page, done } = await shopperPage();
    await page.goto(await checkoutPage('/apple-pay', ['APPLEPAY'], ['APPLEPAY']));
    await page.getByRole('button', { name: 'Pay with Apple Pay' }).click();
    const sheet = page.getByRole('dialog', { name: 'Apple Pay (sandbox stand-in)' });
    await sheet.getByText("This is the sandbox's stand-in").waitFor();
    await sheet.getByText('E2E Shop: 45.00 SAR').waitFor();
    await sheet.getByRole('button', { name: 'Approve' }).click();
    const payment = await shopperReturn(page);
    assert.equal(payment.paymentBrand, 'APPLEPAY');
    assert.equal(payment.paymentType, 'DB');
    assert.equal(payment.amount, '45.00');
    assert.equal(payment.card, undefined);
    await done();
  });

  test("MADA: refused on the card entity's VISA/MASTER form with the steering message, paid on the MADA entity's form", async () => {
    const { page, done } = await shopperPage();
    // One entity per brand group, as KSA merchants have: the widget offers a checkout's form only the brands its entity has.
    await page.goto(await checkoutPage('/cards', ['VISA'], ['VISA MASTER']));
    const cards = page.locator('form.paymentWidgets');
    await cards.getByLabel('Card number').fill(CARDS.mada);
    await cards.getByText('This is a mada card').waitFor();
    await page.goto(await checkoutPage('/mada', ['MADA'], ['MADA']));
    const mada = page.locator('form.paymentWidgets');
    const year = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');
    await mada.getByLabel('Card number').fill(CARDS.mada);
    await mada.getByLabel('Expiry date').fill(`12 / ${year}`);
    await mada.getByLabel('CVV').fill('123');
    await mada.getByLabel('Card holder').fill('Noura Alharbi');
    await mada.getByRole('button', { name: 'Pay now' }).click();
    const payment = await shopperReturn(page);
    assert.equal(payment.paymentBrand, 'MADA');
    assert.equal(payment.card?.last4Digits, '0007');
    await done();
  });

  test('STC Pay (stand-in): mobile number, a wrong one-time password refused on the form, then the approving one', async () => {
    const { page, done } = await shopperPage();
    await page.goto(await checkoutPage('/stc-pay', ['STC_PAY'], ['STC_PAY']));
    await page.getByLabel('Mobile number').fill('0512345678');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('One-time password').fill('999999');
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    await page.getByText('Wrong one-time password').waitFor();
    await page.getByLabel('One-time password').fill(STC_PAY_OTPS.approved);
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    const payment = await shopperReturn(page);
    assert.equal(payment.paymentBrand, 'STC_PAY');
    assert.equal(payment.customer?.mobile, '0512345678');
    await done();
  });
});

describe("the demo's wallets page", () => {
  let demo: RunningDemo;
  before(async () => {
    demo = await startDemo({ port: 0, quiet: true });
  });
  after(async () => {
    await demo?.close();
  });

  test("the MADA entity's Apple Pay stand-in pays and the page shows the payment the server read; Google Pay is on the card entity", async () => {
    const { page, done } = await shopperPage();
    await page.goto(new URL('/wallets.html', demo.url).href);
    await page.getByRole('button', { name: 'Pay with Apple Pay' }).click();
    await page.getByRole('dialog', { name: 'Apple Pay (sandbox stand-in)' }).getByRole('button', { name: 'Approve' }).click();
    await page.getByText('APPLEPAY: ').waitFor();
    await page.getByText('no card data (a wallet)').waitFor();
    await page.getByRole('link', { name: 'Pay again' }).click();
    await page.getByRole('button', { name: /Card entity/ }).click();
    await page.getByRole('button', { name: 'Pay with Google Pay' }).click();
    await page.getByRole('dialog', { name: 'Google Pay (sandbox stand-in)' }).getByRole('button', { name: 'Approve' }).click();
    await page.getByText('GOOGLEPAY: ').waitFor();
    await done();
  });
});
