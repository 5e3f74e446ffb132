/**
 * End to end, as `npm start` runs it: on the Saved cards page a shopper saves
 * a card without paying (a registration-only checkout in `<gw-checkout>`),
 * pays in one click with it (the widget lists it), and deletes it (the
 * registration is deleted at the gateway).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { startDemo, type RunningDemo } from '../../demo/main.js';
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

const EXPIRY_YEAR = new Date().getFullYear() + 2;

async function saveInWidget(page: Page, cardNumber: string): Promise<void> {
  const widget = page.locator('gw-checkout');
  await widget.getByRole('button', { name: 'Save card' }).waitFor();
  await widget.getByLabel('Card number').fill(cardNumber);
  await widget.getByLabel('Expiry date').fill(`12/${String(EXPIRY_YEAR).slice(2)}`);
  await widget.getByLabel('CVV').fill('123');
  await widget.getByLabel('Card holder').fill('Jane Jones');
  await widget.getByRole('button', { name: 'Save card' }).click();
}

const savedCardsTable = (page: Page) => page.getByRole('region', { name: 'Your saved cards' }).getByRole('table');

describe('demo: saved cards', () => {
  test('save a card without paying, pay in one click with it, delete it', async () => {
    const { page, problems } = await watchedPage(browser);
    page.setDefaultTimeout(15_000);
    await page.goto(new URL('/saved-cards.html', demo.url).href);
    await page.getByText('No saved cards yet.').waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Buy a bag of coffee in one click' }).isDisabled(),
      true,
      'nothing to pay with yet',
    );

    await page.getByRole('button', { name: 'Save a card' }).click();
    assert.deepEqual(await axeViolations(page), [], 'the page with the registration form');
    await saveInWidget(page, CARDS.approvedMaster);
    await page.getByText('Card saved', { exact: true }).waitFor();
    assert.equal(new URL(page.url()).search, '', 'the return is read once and leaves a clean URL');
    const rows = await savedCardsTable(page).getByRole('row').allInnerTexts();
    assert.equal(rows.length, 2, 'a header and the saved card');
    assert.match(rows[1]!, new RegExp(`MASTER •••• 5454\\s+12/${EXPIRY_YEAR}`));
    const registration = demo.sandbox
      .requests()
      .find((request) => request.path === '/v1/checkouts' && request.params.createRegistration === 'true');
    assert.equal(registration?.params.paymentType, undefined, 'saving a card is no payment');
    assert.equal(registration?.params['standingInstruction.mode'], 'INITIAL');

    // The same card saved again: listed once, and the gateway's second registration deleted.
    const before = demo.sandbox.requests().length;
    await page.getByRole('button', { name: 'Save a card' }).click();
    await saveInWidget(page, CARDS.approvedMaster);
    await page.getByText('This card was already saved. Nothing was charged.').waitFor();
    assert.equal((await savedCardsTable(page).getByRole('row').allInnerTexts()).length, 2, 'still one saved card');
    const second = demo.sandbox
      .requests()
      .slice(before)
      .find((request) => request.method === 'DELETE' && request.path.startsWith('/v1/registrations/'));
    assert.ok(second, 'the duplicate registration is deleted at the gateway');

    await page.getByRole('button', { name: 'Buy a bag of coffee in one click' }).click();
    const widget = page.locator('gw-checkout');
    const saved = widget.getByRole('radio', { name: /MASTER •••• 5454/ });
    await saved.waitFor();
    assert.equal(await saved.isChecked(), true);
    assert.deepEqual(await axeViolations(page), [], 'the one-click widget');
    await widget.locator('form.wpwl-form-registrations').getByRole('button', { name: 'Pay now' }).click();
    await page.getByText('Paid in one click', { exact: true }).waitFor();
    const oneClick = demo.sandbox.requests().find((request) => request.path === '/v1/checkouts' && request.params['registrations[0].id']);
    assert.match(oneClick?.params['registrations[0].id'] ?? '', /^[0-9a-f]{32}$/);

    await page.getByRole('button', { name: 'Delete MASTER •••• 5454' }).click();
    await page.getByText('Card deleted', { exact: true }).waitFor();
    await page.getByText('No saved cards yet.').waitFor();
    const deleted = demo.sandbox
      .requests()
      .findLast((request) => /^\/v1\/registrations\/[0-9a-f]{32}$/.test(request.path) && request.method === 'DELETE');
    assert.equal(deleted?.path, `/v1/registrations/${oneClick?.params['registrations[0].id']}`);
    assert.deepEqual(await axeViolations(page), [], 'the saved cards page');
    await page.close();
    assert.deepEqual(problems, [], 'the demo page logged errors');
  });
});
