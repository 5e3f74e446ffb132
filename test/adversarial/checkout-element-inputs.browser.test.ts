/**
 * `<gw-checkout>` against hostile input, in real Chromium against the sandbox:
 * every attribute a page can set (often from data the merchant's server passed
 * through) takes strings that are huge, empty, malformed, script URLs, other
 * origins, `Object.prototype`'s member names or near-misses of good values, and
 * `options` and `texts` take any value; then the widget, once loaded, calls the
 * element's callbacks with anything.
 *
 * Invariants: nothing is thrown out of the element or left uncaught; the state
 * is one of the documented ones and every `gw-error` carries a documented code;
 * a widget script is only ever loaded from the `base-url`'s own origin over
 * https (http on this machine only), in CORS mode, with well-formed integrity
 * metadata or none; a form only ever posts to an http(s) page; the element shows
 * only its own texts (never `undefined` or an object's spelling); removed, it
 * leaves no script, form or global behind.
 */
import { expect, oneEvent } from '@open-wc/testing';
import fc from 'fast-check';
import { assertInBrowser, nextTask } from '../support/browser-property.js';
import '../../src/components/gw-checkout/define.js';
import type { GwCheckout } from '../../src/components/gw-checkout/gw-checkout.js';
import type { GwErrorDetail } from '../../src/components/gw-checkout/events.js';
import { isIntegrityMetadata } from '../../src/contract/integrity.js';
import {
  createCheckout,
  sandboxUrl,
  settingsFor,
  shopperResultUrl,
  until,
  widgetScripts,
  type Checkout,
} from '../components/gw-checkout/support.js';

const STATES = ['idle', 'loading', 'ready', 'submitting', 'error', 'expired'];
const ERROR_CODES = ['script-load-failed', 'invalid-checkout', 'widget-error', 'missing-attribute'];

/** Strings no sane page sets, and some it might. */
const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u202e',
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'undefined',
    'null',
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'data:text/javascript,alert(1)',
    'blob:https://evil.example/1',
    '//evil.example',
    'http://evil.example',
    'https://user:secret@evil.example',
    'ftp://127.0.0.1',
    'sha384-',
    'sha384-!!!!',
    'sha1-AAAA',
    '9'.repeat(400),
    '-1',
    '1e400',
    'NaN',
    '2026-13-45T99:99:99Z',
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((length) => 'x'.repeat(length)),
);

/** A good value, a near miss of it, or anything hostile. */
const around = (good: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(good) },
    { weight: 1, arbitrary: fc.constantFrom(` ${good} `, good.toUpperCase()) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat({ max: good.length }), hostile).map(([at, text]) => good.slice(0, at) + text + good.slice(at)),
    },
    { weight: 1, arbitrary: hostile },
  );

interface Case {
  attributes: Record<string, string | undefined>;
  options: unknown;
  texts: unknown;
}

const caseOf = (checkout: Checkout): fc.Arbitrary<Case> =>
  fc.record({
    attributes: fc.record(
      {
        'checkout-id': around(checkout.id),
        'base-url': fc.oneof(
          { weight: 3, arbitrary: around(sandboxUrl) },
          { weight: 1, arbitrary: fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              `${sandboxUrl}/prefix?query=1#fragment`,
              sandboxUrl.replace('127.0.0.1', 'localhost'),
              'http://evil.example',
              'http://localhost.evil.example',
              'http://127.0.0.1.evil.example',
              'HTTP://LOCALHOST:1',
              'http://[::1]:1',
              'http://user@127.0.0.1:1',
              'https://127.0.0.1:1',
            ),
          },
        ),
        integrity: around(checkout.integrity),
        'shopper-result-url': around(shopperResultUrl),
        'expires-at': fc.oneof(hostile, fc.constant(new Date(Date.now() + 60_000).toISOString())),
        brands: fc.oneof(hostile, fc.constantFrom('VISA MASTER', 'MADA', 'APPLEPAY GOOGLEPAY')),
        locale: hostile,
        'widget-style': hostile,
        lang: fc.oneof(hostile, fc.constantFrom('ar', 'de-AT', 'fr', 'xx')),
        nonce: hostile,
      },
      { requiredKeys: ['checkout-id', 'base-url', 'shopper-result-url'] },
    ),
    options: fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.record({ locale: fc.anything(), style: fc.anything(), onReady: fc.anything(), onError: fc.anything(), labels: fc.anything() }),
    ),
    texts: fc.oneof(fc.anything({ maxDepth: 2 }), fc.record({ loading: fc.anything(), error: fc.anything(), expired: fc.anything() })),
  });

/** Whether a widget script's URL keeps the element's rules for `baseUrl`. */
function safeScript(script: HTMLScriptElement, baseUrl: string | undefined): void {
  const url = new URL(script.src);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  expect(url.protocol === 'https:' || (url.protocol === 'http:' && local), `script over ${url.protocol} from ${url.hostname}`).to.equal(
    true,
  );
  expect(url.origin, "the script comes from base-url's own origin").to.equal(new URL(baseUrl!.trim()).origin);
  expect(url.pathname.endsWith('/v1/paymentWidgets.js')).to.equal(true);
  expect(script.crossOrigin).to.equal('anonymous');
  expect(script.integrity === '' || isIntegrityMetadata(script.integrity), `integrity ${script.integrity.slice(0, 40)}`).to.equal(true);
}

/** The element's own visible texts, which must be texts (never `undefined`, `null` or `[object …]`). */
function shownText(element: GwCheckout): string {
  return element.shadowRoot?.textContent ?? '';
}

function watchUncaught(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => errors.push(event.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return {
    errors,
    stop() {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    },
  };
}

async function removed(element: GwCheckout, pageOptions: object): Promise<void> {
  element.remove();
  await until(
    () =>
      widgetScripts().length === 0 && !('wpwl' in window) && (window as unknown as { wpwlOptions?: object }).wpwlOptions === pageOptions,
    'removed without a trace',
    12_000,
  );
  expect(element.querySelector('form')).to.equal(null);
}

describe('<gw-checkout> against hostile input', () => {
  let checkout: Checkout;
  const pageOptions = { locale: 'en' };
  const quiet = { warn: console.warn, error: console.error };

  before(async () => {
    checkout = await createCheckout();
  });
  beforeEach(() => {
    (window as unknown as { wpwlOptions?: object }).wpwlOptions = pageOptions;
    // The element says on the console what its gw-error says: expected here, and it would bury the report.
    console.warn = console.error = () => {};
  });
  afterEach(() => {
    Object.assign(console, quiet);
    delete (window as unknown as { wpwlOptions?: object }).wpwlOptions;
  });

  it('any attribute, options and texts: a documented state and error, a safe script or none, its own texts, nothing left behind', async function () {
    this.timeout(240_000);
    const reached = new Set<string>();
    await assertInBrowser(
      fc.asyncProperty(caseOf(checkout), async ({ attributes, options, texts }) => {
        const uncaught = watchUncaught();
        // Every script added, as it is added: a refused one is gone again by the time the load ends.
        const added: HTMLScriptElement[] = [];
        const scripts = new MutationObserver((records) =>
          records.forEach((record) => added.push(...[...record.addedNodes].filter((node) => node instanceof HTMLScriptElement))),
        );
        scripts.observe(document.head, { childList: true });
        const element = document.createElement('gw-checkout');
        const errors: GwErrorDetail[] = [];
        element.addEventListener('gw-error', (event) => errors.push(event.detail as GwErrorDetail));
        try {
          for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
          element.options = options as GwCheckout['options'];
          element.texts = texts as GwCheckout['texts'];
          document.body.append(element);
          await nextTask();
          await until(() => element.state !== 'loading', 'the load to end', 12_000);
          await element.updateComplete;
          expect(STATES).to.include(element.state);
          reached.add(element.state);
          for (const error of errors) {
            expect(ERROR_CODES).to.include(error.code);
            expect(error.message).to.be.a('string');
          }
          if (element.state === 'error') expect(errors.length, 'an error state says why').to.be.greaterThan(0);
          for (const script of [...added, ...scripts.takeRecords().flatMap((record) => [...record.addedNodes])])
            if (script instanceof HTMLScriptElement) safeScript(script, attributes['base-url']);
          for (const form of element.querySelectorAll('form')) expect(['http:', 'https:']).to.include(new URL(form.action).protocol);
          // Own texts only: a `texts` value that is no string is ignored, as is a `lang` that names no language.
          expect(shownText(element)).to.not.match(/undefined|null|\[object|function/);
          await removed(element, pageOptions);
          expect(uncaught.errors, String(uncaught.errors[0])).to.have.length(0);
        } finally {
          uncaught.stop();
          scripts.disconnect();
          element.remove();
        }
      }),
      { numRuns: 60 },
    );
    // Good values are drawn most often, so most runs load the widget: a run that never did proved nothing of it.
    expect([...reached], 'the runs reached a loaded widget and a refusal').to.include.members(['ready', 'error']);
  });

  it('a widget calling back with anything: no throw escapes, the state stays documented, every event names the checkout', async function () {
    this.timeout(120_000);
    const element = document.createElement('gw-checkout');
    Object.assign(element, settingsFor(checkout));
    const ready = oneEvent(element, 'gw-ready');
    document.body.append(element);
    await ready;
    const events: CustomEvent[] = [];
    for (const name of ['gw-ready', 'gw-error', 'gw-expired', 'gw-brand-change', 'gw-before-submit'])
      element.addEventListener(name, (event) => events.push(event as CustomEvent));
    const uncaught = watchUncaught();
    const callbacks = ['onReady', 'onError', 'onChangeBrand', 'onBeforeSubmitCard'] as const;
    try {
      await assertInBrowser(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(...callbacks), fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 })), { maxLength: 8 }),
          async (calls) => {
            const options = (window as unknown as { wpwlOptions: Record<string, (...args: unknown[]) => unknown> }).wpwlOptions;
            for (const [name, args] of calls) {
              if (!element.isConnected || !('wpwlOptions' in window)) break;
              expect(() => options[name]!(...args), `${name} must not throw`).to.not.throw();
              await nextTask();
              expect(STATES).to.include(element.state);
            }
            for (const event of events) expect((event.detail as { checkoutId?: string }).checkoutId).to.equal(checkout.id);
            // A call that took the element to `submitting` is answered as a decline would be (the widget disables its
            // pay button, then enables it again), so the next run meets a form again rather than a payment under way.
            const button = element.querySelector<HTMLButtonElement>('.wpwl-button-pay');
            if (element.state === 'submitting' && button) {
              button.disabled = true;
              await nextTask();
              button.disabled = false;
              await until(() => element.state !== 'submitting', 'back on the form', 3_000);
            }
          },
        ),
        { numRuns: 40 },
      );
      expect(uncaught.errors, String(uncaught.errors[0])).to.have.length(0);
    } finally {
      uncaught.stop();
      await removed(element, pageOptions);
    }
  });
});
