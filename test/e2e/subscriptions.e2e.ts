/**
 * End to end, as `npm start` runs it: a shopper subscribes through a 3-D
 * Secure challenge, the shop charges the saved card a month later on the
 * sandbox's clock and the subscription is cancelled; the Notifications page
 * lists what the merchant received and decrypted, each approved payment
 * fulfilled exactly once although it was reported twice (the shop's own
 * answer and a notification).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
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

describe('demo: subscriptions and notifications', () => {
  test('subscribe with 3-D Secure, a month later the saved card is charged without the shopper, cancel; each payment fulfilled once', async () => {
    const { page, problems } = await watchedPage(browser);
    page.setDefaultTimeout(15_000);
    await page.goto(new URL('/subscriptions.html', demo.url).href);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const acs = await frameWith(page, 'button[value="complete"]');
    assert.deepEqual(await axeViolations(page), [], 'the page during the challenge');
    await acs.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByText('Subscribed', { exact: true }).waitFor();
    const subscription = page.locator('article').first();
    assert.match(await subscription.innerText(), /Months of coffee sent\s+1\b/);

    await page.getByRole('button', { name: 'Next month: charge the subscriptions' }).click();
    await page.getByText('1 monthly charge approved').waitFor();
    assert.match(await subscription.innerText(), /Months of coffee sent\s+2\b/);
    assert.equal(await subscription.getByRole('row').filter({ hasText: '(DB)' }).count(), 2, 'the sign-up and one monthly charge');
    assert.deepEqual(await axeViolations(page), [], 'the subscriptions page');

    // The merchant-initiated charge went to the saved card with the first payment's id, and without 3DS.
    const mit = demo.sandbox.requests().find((request) => /^\/v1\/registrations\/[0-9a-f]{32}\/payments$/.test(request.path));
    assert.equal(mit?.params['standingInstruction.mode'], 'REPEATED');
    assert.match(mit?.params['standingInstruction.initialTransactionId'] ?? '', /^[A-Z0-9]{15}$/);

    await subscription.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText('Subscription cancelled').waitFor();
    assert.match(await subscription.innerText(), /Status\s+cancelled/);
    assert.equal(
      await page.getByRole('button', { name: 'Next month: charge the subscriptions' }).isDisabled(),
      true,
      'nothing left to charge',
    );

    await demo.sandbox.notifications.idle();
    await page.getByRole('link', { name: 'Notifications' }).click();
    const table = page.getByRole('table', { name: 'Notifications received, newest first' });
    await table.waitFor();
    const rows = await table.getByRole('row').allInnerTexts();
    const debits = rows.filter((row) => /PAYMENT.*\(DB\)/.test(row));
    assert.equal(debits.filter((row) => /000\.200\.000/.test(row)).length, 1, 'the sign-up pending 3-D Secure');
    const approved = debits.filter((row) => /000\.100\.110/.test(row));
    assert.equal(approved.length, 2, 'the sign-up approved and the monthly charge');
    for (const row of approved) assert.match(row, /fulfilled now|already fulfilled/);
    assert.ok(
      rows.some((row) => /REGISTRATION\s+CREATED/.test(row)),
      'the saved card',
    );
    assert.ok(
      rows.some((row) => /REGISTRATION\s+DELETED/.test(row)),
      'the cancelled card',
    );
    await page.goto(new URL('/subscriptions.html', demo.url).href);
    assert.match(
      await page.locator('article').first().innerText(),
      /Months of coffee sent\s+2\b/,
      'two payments, each reported twice, fulfilled twice in all',
    );
    assert.ok(
      demo.sandbox.notifications.list().every((delivery) => delivery.state === 'delivered'),
      'the merchant answered every notification 2xx',
    );

    await page.goto(new URL('/notifications.html', demo.url).href);
    await page.locator('main h1').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the notifications page');
    await page.close();
    assert.deepEqual(problems, [], 'the demo pages logged errors');
  });
});
