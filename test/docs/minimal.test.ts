/**
 * The README's minimal page and server (docs/examples/minimal), run as a
 * newcomer runs them: the server file as its own process, the page in
 * headless Chromium, the card typed into the sandbox widget's form, and the
 * return route answering the verified outcome.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../scripts/chromium.mjs';

let server: ChildProcess;
let origin: string;
let browser: Browser;

before(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'docs/examples/minimal/server.ts'], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  for await (const chunk of server.stdout!) {
    printed += String(chunk);
    const url = /open (http:\/\/localhost:\d+)/.exec(printed);
    if (url) { origin = url[1]!; break; }
  }
  assert.ok(origin, `the server printed its URL: ${printed}`);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (server.exitCode === null) { server.kill(); await once(server, 'exit'); }
});

test('the page shows the card form; paying returns to /result, which answers the verified outcome', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/`);
  await page.waitForSelector('gw-checkout[state="ready"]');
  await page.fill('.wpwl-control-cardNumber', '4200000000000000');
  await page.fill('.wpwl-control-expiry', '12 / 34');
  await page.fill('.wpwl-control-cvv', '123');
  await page.fill('.wpwl-control-cardHolder', 'Jane Jones');
  await Promise.all([page.waitForURL(/\/result\?/), page.click('.wpwl-button-pay')]);
  assert.match(await page.textContent('body') ?? '', /^approved: /);
  assert.deepEqual(errors, []);
});

test('a return for a checkout this server never created is refused without a gateway call', async () => {
  const answer = await fetch(`${origin}/result?id=0123456789ABCDEF0123456789ABCDEF.sbx01-vm-tx01&resourcePath=/v1/checkouts/x/payment`);
  assert.equal(answer.status, 404);
});
