/**
 * `renderCheckout`: the HTML a merchant's page holds for a checkout. Parsed
 * back with parse5 (the HTML spec's parser) and its inline script run in a
 * bare VM context: whatever the options hold, the page has exactly the
 * element, its form, one inline script and the widget script, each value
 * where it was meant to be; `link` is a header value. The browser side
 * (adoption by the element) is gw-checkout.rendered.browser.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { CHECKOUT_LIFETIME_MS, GatewayValidationError, renderCheckout, type RenderCheckoutOptions } from '../../src/server/index.js';
import { propertyRuns } from '../support/property-runs.js';

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['childNode'];

const CHECKOUT = {
  id: '8ac7a4a1845f7e9b01846035b3cd3a2b.uat01-vm-tx04',
  integrity: `sha384-${'A'.repeat(64)}`,
  timestamp: '2026-11-26 07:00:00.000+0000',
};
const BASE = { baseUrl: 'https://eu-test.oppwa.com', shopperResultUrl: 'https://shop.example/result' };

const elements = (nodes: Node[]) => nodes.filter((node): node is Element => 'tagName' in node);
const attributesOf = (element: Element) => Object.fromEntries(element.attrs.map(({ name, value }) => [name, value]));
const textOf = (element: Element) => element.childNodes.map((node) => ('value' in node ? node.value : '')).join('');

/** The fragment's parts, asserting its shape: <gw-checkout><div><form></form></div></gw-checkout>, <script>inline</script>, <script src>. */
function parse(html: string) {
  const top = elements(parseFragment(html).childNodes);
  assert.deepEqual(
    top.map((element) => element.tagName),
    ['gw-checkout', 'script', 'script'],
    html,
  );
  const [element, inline, widget] = top as [Element, Element, Element];
  const [area] = elements(element.childNodes);
  assert.equal(elements(element.childNodes).length, 1);
  const forms = elements(area!.childNodes);
  assert.deepEqual(
    forms.map((form) => form.tagName),
    ['form'],
  );
  return { element: attributesOf(element), area: attributesOf(area!), form: attributesOf(forms[0]!), inline, widget: attributesOf(widget) };
}

/** Runs the inline script in a context with just enough of a page; returns the globals it set. */
function runInline(inline: Element) {
  const listeners: string[] = [];
  const window: Record<string, unknown> = {};
  const context = {
    window,
    document: { addEventListener: (type: string) => listeners.push(type), createElement: () => ({}), head: { appendChild() {} } },
    setTimeout: () => 0,
  };
  runInNewContext(textOf(inline), context);
  return { window, listeners };
}

describe('renderCheckout', () => {
  test("renders the element with the form inside, the inline script and the widget script with the checkout's integrity", () => {
    const rendered = renderCheckout(CHECKOUT, { ...BASE, brands: ['MADA', 'VISA'], lang: 'ar', widgetStyle: 'plain', nonce: 'n0nce+/=' });
    const { element, area, form, inline, widget } = parse(rendered.html);
    const url = `https://eu-test.oppwa.com/v1/paymentWidgets.js?checkoutId=${CHECKOUT.id}`;
    assert.deepEqual(element, {
      'checkout-id': CHECKOUT.id,
      'base-url': BASE.baseUrl,
      integrity: CHECKOUT.integrity,
      'shopper-result-url': BASE.shopperResultUrl,
      brands: 'MADA VISA',
      'expires-at': new Date(Date.parse('2026-11-26T07:00:00Z') + CHECKOUT_LIFETIME_MS).toISOString(),
      lang: 'ar',
      'widget-style': 'plain',
      nonce: 'n0nce+/=',
      // The element waits for the markup after it when it upgrades while the page is parsed.
      'data-gw-rendered': '',
    });
    assert.deepEqual(area, { class: 'gw-checkout-widget' });
    assert.deepEqual(form, { class: 'paymentWidgets', action: BASE.shopperResultUrl, 'data-brands': 'MADA VISA' });
    assert.deepEqual(attributesOf(inline), { nonce: 'n0nce+/=' });
    assert.deepEqual(widget, {
      src: url,
      integrity: CHECKOUT.integrity,
      crossorigin: 'anonymous',
      'data-gw-widget': '',
      'data-gw-state': 'pending',
      nonce: 'n0nce+/=',
    });
    assert.equal(rendered.link, `<${url}>; rel=preload; as=script; crossorigin=anonymous; integrity="${CHECKOUT.integrity}"`);
    assert.equal(
      rendered.head,
      `<link rel="preload" as="script" href="${url}" crossorigin="anonymous" integrity="${CHECKOUT.integrity}" nonce="n0nce+/=">`,
    );
    const { window, listeners } = runInline(inline);
    const options = window.wpwlOptions as Record<string, unknown>;
    assert.equal(options.locale, 'ar');
    assert.equal(options.style, 'plain');
    // Until the element runs: the widget's callbacks are recorded for it, and no payment goes out.
    assert.equal((options.onBeforeSubmitCard as () => boolean)(), false);
    (options.onChangeBrand as (brand: string) => void)('VISA');
    (options.onReady as () => void)();
    assert.deepEqual(JSON.parse(JSON.stringify((window.gwRenderedCheckout as { events: unknown }).events)), [
      ['onChangeBrand', ['VISA']],
      ['onReady', []],
    ]);
    assert.deepEqual(listeners.sort(), ['error', 'load']);
  });

  test('leaves out what the checkout or the options do not give: no integrity, no expiry, default brands', () => {
    const { element, form, widget } = parse(renderCheckout({ id: CHECKOUT.id }, BASE).html);
    assert.deepEqual(Object.keys(element), ['checkout-id', 'base-url', 'shopper-result-url', 'brands', 'data-gw-rendered']);
    assert.equal(form['data-brands'], 'VISA MASTER');
    assert.equal(widget.integrity, undefined);
  });

  test('refuses, with a typed error, what it cannot render safely', () => {
    const cases: [unknown, unknown][] = [
      [{ id: 'a/../b' }, BASE],
      [{ ...CHECKOUT, integrity: 'sha384-' }, BASE],
      [CHECKOUT, { ...BASE, baseUrl: 'javascript:alert(1)' }],
      [CHECKOUT, { ...BASE, shopperResultUrl: 'javascript:alert(1)' }],
      [CHECKOUT, { ...BASE, shopperResultUrl: '' }],
      [CHECKOUT, { ...BASE, brands: ['VISA" onclick="x'] }],
      [CHECKOUT, { ...BASE, brands: [] }],
      [CHECKOUT, { ...BASE, lang: 'de"><script>' }],
      [CHECKOUT, { ...BASE, locale: 'de\r\n' }],
      [CHECKOUT, { ...BASE, widgetStyle: 'fancy' }],
      [CHECKOUT, { ...BASE, widgetOptions: 'locale=de' }],
      [CHECKOUT, { ...BASE, elementScript: 'data:text/javascript,alert(1)' }],
      [CHECKOUT, { ...BASE, nonce: 'x" onload="alert(1)' }],
      [CHECKOUT, undefined],
    ];
    for (const [checkout, options] of cases)
      assert.throws(() => renderCheckout(checkout as never, options as never), GatewayValidationError, JSON.stringify([checkout, options]));
    // Options no JSON can write: typed too, never the serialiser's own TypeError or RangeError.
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let deep: unknown = {};
    for (let level = 0; level < 100_000; level++) deep = { deep };
    const throwing = Object.defineProperty({}, 'label', {
      enumerable: true,
      get() {
        throw new Error('a getter of the page');
      },
    });
    for (const widgetOptions of [{ n: 1n }, cycle, deep, throwing])
      assert.throws(() => renderCheckout(CHECKOUT, { ...BASE, widgetOptions } as never), GatewayValidationError);
  });

  test("the widget's language by the element's rule: locale, else the options' own locale, else lang", () => {
    const localeOf = (options: Partial<RenderCheckoutOptions>) =>
      (runInline(parse(renderCheckout(CHECKOUT, { ...BASE, ...options }).html).inline).window.wpwlOptions as Record<string, unknown>)
        .locale;
    assert.equal(localeOf({ lang: 'de', widgetOptions: { locale: 'en' } }), 'en');
    assert.equal(localeOf({ lang: 'de', locale: 'fr', widgetOptions: { locale: 'en' } }), 'fr');
    assert.equal(localeOf({ lang: 'de' }), 'de');
    assert.equal(localeOf({}), undefined);
  });

  test('a "__proto__" option is an option on the page, for the widget as for the element, never a prototype', () => {
    const widgetOptions = JSON.parse('{"__proto__":{"requireCvv":false},"locale":"de"}') as Record<string, never>;
    const { window } = runInline(parse(renderCheckout(CHECKOUT, { ...BASE, widgetOptions }).html).inline);
    const options = window.wpwlOptions as Record<string, unknown>;
    assert.equal(
      Object.getPrototypeOf(Object.getPrototypeOf(options)),
      null,
      "a plain object: its prototype is the page's Object.prototype",
    );
    assert.equal(options.requireCvv, undefined);
    assert.ok(Object.hasOwn(options, '__proto__'));
    assert.equal(options.locale, 'de');
  });

  test('whatever the result URL, labels and element script hold, each lands where it was meant to, and link is a header value', () => {
    const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<never>;
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        fc.dictionary(fc.string(), json),
        fc.webPath(),
        fc.constantFrom('</script><script>alert(1)</script>', '<!--', '\u2028', '"\'&<>'),
        (shopperResultUrl, labels, path, hostile) => {
          const elementScript = `/assets${path}?${encodeURIComponent(hostile)}`;
          const widgetOptions: RenderCheckoutOptions['widgetOptions'] = { labels: { ...labels, hostile }, requireCvv: false };
          const rendered = renderCheckout(CHECKOUT, {
            ...BASE,
            shopperResultUrl: `${shopperResultUrl}#${hostile}`,
            widgetOptions,
            elementScript,
          });
          const { element, form, inline } = parse(rendered.html);
          assert.equal(element['shopper-result-url'], `${shopperResultUrl}#${hostile}`);
          assert.equal(form.action, `${shopperResultUrl}#${hostile}`);
          const { window } = runInline(inline);
          const options = JSON.parse(JSON.stringify(window.wpwlOptions)) as Record<string, unknown>;
          assert.deepEqual(options, JSON.parse(JSON.stringify(widgetOptions)));
          assert.match(rendered.link, /^[\x20-\x7e]+$/);
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });
});
