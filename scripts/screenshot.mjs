/**
 * `npm run screenshot`: writes docs/demo-checkout.png, the README's picture of
 * the demo's payment page (the widget inside <gw-checkout>, with the gateway
 * calls beside it). Starts what `npm start` starts, in system Chromium.
 */
import { mkdirSync } from 'node:fs';
import { launchChromium } from './chromium.mjs';
import { startDemo } from './start.mjs';

const OUTPUT = 'docs/demo-checkout.png';
const demo = await startDemo({ port: 0, quiet: true });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(demo.url);
  await page.getByRole('button', { name: /^Add to cart\W+Espresso beans, 1 kg$/ }).click();
  await page.getByRole('button', { name: /^Add to cart\W+Pour-over kit$/ }).click();
  await page.getByRole('button', { name: 'Check out' }).click();
  await page.locator('gw-checkout[state="ready"]').waitFor();
  const widget = page.locator('gw-checkout');
  await widget.getByLabel('Card number').fill('4200 0000 0000 0000');
  await widget.getByLabel('Expiry date').fill('12/30');
  await widget.getByLabel('Card holder').fill('Jane Jones');
  // The first step of the call log open, so the picture shows what the server sent.
  await page
    .locator('#api-log details')
    .first()
    .evaluate((details) => details.setAttribute('open', ''));
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: OUTPUT });
  console.log(`wrote ${OUTPUT}`);
} finally {
  await browser.close();
  await demo.close();
}
