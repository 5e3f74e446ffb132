/**
 * <gw-checkout> refuses an `integrity` value the browser would not enforce (it
 * silently skips the check for malformed metadata and runs the script as it
 * comes): `gw-error` `missing-attribute`, a console message, and no widget
 * script, form or `wpwlOptions` on the page. Hand-picked cases and fast-check
 * near-misses of a real checkout's value, in real Chromium against the sandbox.
 */
import { expect, oneEvent } from '@open-wc/testing';
import fc from 'fast-check';
import '../../../src/components/gw-checkout/define.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
import type { GwErrorDetail } from '../../../src/components/gw-checkout/events.js';
import { createCheckout, type Checkout, settingsFor, widgetScripts } from './support.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

let checkout: Checkout;
before(async () => {
  checkout = await createCheckout();
});

/** Mounts a checkout with `integrity`, and reports what the page got: the error, the console lines, and any widget trace. */
async function mountWith(integrity: string): Promise<{ detail: GwErrorDetail; logged: unknown[][]; element: GwCheckout }> {
  const element = document.createElement('gw-checkout');
  Object.assign(element, { ...settingsFor(checkout), integrity });
  const logged: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const failed = oneEvent(element, 'gw-error');
    document.body.append(element);
    const { detail } = await failed;
    // Anything queued by the load would be in the page by the next task.
    await nextTask();
    return { detail, logged, element };
  } finally {
    console.error = original;
  }
}

async function expectRefused(integrity: string): Promise<void> {
  const { detail, logged, element } = await mountWith(integrity);
  try {
    expect(detail.code, integrity).to.equal('missing-attribute');
    expect(detail.attribute, integrity).to.equal('integrity');
    expect(element.state).to.equal('error');
    expect(widgetScripts(), `no script for ${JSON.stringify(integrity)}`).to.have.length(0);
    expect(document.querySelector('form.paymentWidgets')).to.equal(null);
    expect('wpwlOptions' in window).to.equal(false);
    expect(logged.map((args) => String(args[0])).join('\n'), 'the developer is told on the console').to.contain('<gw-checkout>: integrity');
  } finally {
    element.remove();
  }
}

afterEach(async () => {
  for (const element of document.querySelectorAll('gw-checkout')) element.remove();
  await nextTask();
});

describe('<gw-checkout> integrity: only metadata the browser enforces', () => {
  const digest48 = btoa('x'.repeat(48));
  for (const value of [
    'undefined',
    'null',
    '',
    ' ',
    'sha384-',
    'sha384',
    `md5-${btoa('x'.repeat(16))}`,
    `sha1-${btoa('x'.repeat(20))}`,
    `SHA384-${digest48}`,
    `sha384-${digest48.slice(1)}`,
    `sha384-${digest48}=`,
    `sha256-${digest48}`,
    `sha384-${digest48.slice(0, -1)}!`,
    // A well-formed hash next to a malformed one: the browser would use the good one, but the typo hides nothing else.
    `sha384-${digest48} sha384-oops`,
  ]) {
    it(`refuses ${JSON.stringify(value)}: gw-error, a console message, nothing injected`, () => expectRefused(value));
  }

  it("refuses near-misses of a real checkout's integrity (fast-check)", async () => {
    const [, digest] = /^sha384-(.+)$/.exec(checkout.integrity)!;
    const base64 = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
    const nearMiss = fc.oneof(
      // Wrong length: characters dropped or added.
      fc.integer({ min: 1, max: digest!.length }).map((cut) => `sha384-${digest!.slice(0, digest!.length - cut)}`),
      fc.array(base64, { minLength: 1, maxLength: 8 }).map((extra) => `sha384-${digest}${extra.join('')}`),
      // An algorithm SRI does not know, or a misspelt one.
      fc
        .constantFrom('md5', 'sha1', 'sha224', 'sha', 'SHA384', 'Sha384', 'sha-384', 'sha3-384', 'sha384 ', '')
        .map((algorithm) => `${algorithm}-${digest}`),
      // A character outside standard base64 somewhere in the digest.
      fc
        .tuple(fc.nat({ max: digest!.length - 1 }), fc.constantFrom('!', '.', '*', '%', '"', 'é', '\u0000'))
        .map(([at, bad]) => `sha384-${digest!.slice(0, at)}${bad}${digest!.slice(at + 1)}`),
      // Padding that a 48-byte digest does not have.
      fc.constantFrom('=', '==').map((padding) => `sha384-${digest}${padding}`),
    );
    await fc.assert(fc.asyncProperty(nearMiss, expectRefused), { numRuns: 40 });
  });

  it('lets well-formed metadata through to the browser, which enforces it (a wrong sha512 fails to load)', async () => {
    const { detail, element } = await mountWith(`sha512-${btoa('y'.repeat(64))}`);
    expect(detail.code).to.equal('script-load-failed');
    element.remove();
  });
});
