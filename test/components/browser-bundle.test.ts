/**
 * `gw-elements/browser`: a page without a bundler pastes one script tag and
 * gets both elements, Lit included. Built from source by the package build's
 * own function, loaded by one `<script type="module">` in headless Chromium,
 * and a real sandbox checkout shown by `<gw-checkout>`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium } from '../../scripts/chromium.mjs';
import { BROWSER_BUNDLE_FILE, buildBrowserBundle } from '../../scripts/browser-bundle.js';
import { DEFAULT_ENTITY_ID, DEFAULT_TOKEN, startSandbox, type Sandbox } from '../../src/sandbox/index.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-browser-bundle-'));
let sandbox: Sandbox;
let page: Server;
let pageUrl = '';
let checkout: { id: string; integrity: string };

before(async () => {
  await buildBrowserBundle(join(dir, BROWSER_BUNDLE_FILE));
  sandbox = await startSandbox({ port: 0, quiet: true });
  const response = await fetch(`${sandbox.url}/v1/checkouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entityId: DEFAULT_ENTITY_ID, amount: '12.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }),
  });
  checkout = (await response.json()) as typeof checkout;
  page = createServer((request, response) => {
    if (request.url === `/${BROWSER_BUNDLE_FILE}`) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(dir, BROWSER_BUNDLE_FILE)));
      return;
    }
    // The whole integration: one script tag, then the elements as markup.
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><title>Pay</title>
<script type="module" src="/${BROWSER_BUNDLE_FILE}"></script>
<gw-checkout checkout-id="${checkout.id}" integrity="${checkout.integrity}" base-url="${sandbox.url}" shopper-result-url="${pageUrl}result"></gw-checkout>
<gw-3ds-handler></gw-3ds-handler>`);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});

after(async () => {
  page?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('one script tag defines both elements and shows a real checkout, with no other module fetched', async () => {
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const scripts: string[] = [];
    tab.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const logged: string[] = [];
    tab.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`));
    await tab.goto(pageUrl);
    await tab.waitForSelector('gw-checkout[state="ready"] .wpwl-control-cardNumber', { timeout: 20_000 });
    // Each element's class registered under its own name (its static tagName, which minification keeps).
    const defined = await tab.evaluate(() =>
      ['gw-checkout', 'gw-3ds-handler'].map((name) => (customElements.get(name) as { tagName?: string } | undefined)?.tagName),
    );
    assert.deepEqual(defined, ['gw-checkout', 'gw-3ds-handler']);
    assert.equal(await tab.getAttribute('gw-3ds-handler', 'state'), 'idle');
    // The bundle and the gateway's widget: Lit came inside the bundle, not as a bare import the page cannot resolve.
    assert.deepEqual(scripts, [`/${BROWSER_BUNDLE_FILE}`, '/v1/paymentWidgets.js']);
    // Lit's production build: no dev-mode warning, and nothing failed.
    assert.deepEqual(
      logged.filter((line) => /^(error|warning):/.test(line) || /dev mode/i.test(line)),
      [],
    );
  } finally {
    await browser.close();
  }
});
