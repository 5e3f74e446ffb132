/**
 * The whole checkout in the page's HTML: `<gw-checkout>` with the widget's
 * `form.paymentWidgets` already inside, a small inline script that sets
 * `wpwlOptions`, and the widget script with its `integrity` and `crossorigin`,
 * as the gateway's own two-line integration has them. The browser starts the
 * widget while it parses the page, exactly as with those two lines; the
 * element's code may arrive later (`elementScript` loads it once the widget is
 * ready) and adopts what is there when it upgrades.
 */
import { CHECKOUT_LIFETIME_MS } from '../contract/limits.js';
import {
  RECORDED_CALLBACKS,
  RENDERED_CHECKOUT_GLOBAL,
  RENDERED_ELEMENT_ATTRIBUTE,
  RENDERED_SCRIPT_ATTRIBUTE,
  WIDGET_AREA_CLASS,
  widgetLocale,
} from '../contract/rendered-checkout.js';
import { parseGatewayTimestamp } from '../contract/timestamp.js';
import { invalidArgument, isObject } from './errors.js';
import { widgetPreload } from './widget-preload.js';

/** A JSON value, what `widgetOptions` may hold (the page's callbacks go on the element's `options` property). */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export interface RenderCheckoutOptions {
  /** The gateway's base URL, as `<gw-checkout base-url>` has it. */
  readonly baseUrl: string;
  /** Where the widget sends the shopper after paying: an http(s) URL or a path on your site. */
  readonly shopperResultUrl: string;
  /** The brands the form offers (`data-brands`). Default `['VISA', 'MASTER']`, as the element's. */
  readonly brands?: readonly string[];
  /** The element's `lang` (its own texts, and the widget's language unless `locale` says otherwise). */
  readonly lang?: string;
  /** The widget's `locale`, when it differs from `lang`. */
  readonly locale?: string;
  /** The widget's layout. */
  readonly widgetStyle?: 'card' | 'plain';
  /**
   * Other `wpwlOptions` the widget reads when it loads (`labels`, `iframeStyles`,
   * `requireCvv`, …), as JSON. Callbacks cannot be rendered: listen to the
   * element's events, or set its `options` property.
   */
  readonly widgetOptions?: Readonly<Record<string, JsonValue>>;
  /**
   * The URL of your module that defines `<gw-checkout>` (the one importing
   * `gw-elements/checkout`). Given, the inline script loads it once the widget is
   * ready or has failed, so its bytes never share the line with the widget's.
   * Leave it out when your page loads that module itself.
   */
  readonly elementScript?: string;
  /** Your page's Content-Security-Policy nonce, for the inline script, the widget script and the preload. */
  readonly nonce?: string;
}

export interface RenderedCheckoutHtml {
  /** For the page's `<body>`, where the form goes: the element, the inline script and the widget script. */
  readonly html: string;
  /** Optional, for the top of `<head>`: the widget script's preload, so its download starts before the body's HTML arrives. */
  readonly head: string;
  /** The same preload as a `Link` response header value (or 103 Early Hints). */
  readonly link: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** JSON that is also safe inside an inline `<script>`: no `<` (so no `</script>` or `<!--`), no line separators. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const BRAND = /^[A-Za-z0-9_]+$/;

/** An http(s) URL, or a path the page's URL resolves (never `javascript:` and the like). */
function pageUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '' || !URL.canParse(value, 'https://page.invalid/')) return false;
  const { protocol } = new URL(value, 'https://page.invalid/');
  return protocol === 'https:' || protocol === 'http:';
}

/** When the checkout expires on the gateway's clock: creation (the answer's `timestamp`) plus its lifetime. */
function expiryOf(timestamp: unknown): string | undefined {
  const created = typeof timestamp === 'string' ? parseGatewayTimestamp(timestamp) : Number.NaN;
  return Number.isNaN(created) ? undefined : new Date(created + CHECKOUT_LIFETIME_MS).toISOString();
}

/**
 * The inline script: sets `wpwlOptions` before the widget script runs, and
 * until the element takes over, records the widget's callbacks for it and
 * holds the pay button (`onBeforeSubmitCard` is false: the element's
 * cancelable `gw-before-submit` must have its say before any payment). It
 * loads `elementScript` when the widget is ready or has failed, or after 10 s
 * whatever happened.
 */
function inlineScript(optionsJson: string, elementScript: string | undefined, nonce: string | undefined): string {
  // The options go in as JSON text that the page parses, twice (the element's copy and the widget's): read as an object
  // literal or copied with Object.assign, a `"__proto__"` key (a label of that name, say) would set a prototype
  // instead of being an option.
  const args = [RENDERED_CHECKOUT_GLOBAL, optionsJson, RECORDED_CALLBACKS, RENDERED_SCRIPT_ATTRIBUTE, elementScript ?? '', nonce ?? '']
    .map(scriptJson)
    .join(',');
  return (
    '(function(g,t,c,a,u,n){' +
    'var w=window,d=document,j=JSON.parse,r=w[g]={options:j(t),events:[]},p=w.wpwlOptions=j(t),l;' +
    "function m(){if(l||!u)return;l=d.createElement('script');l.type='module';l.src=u;if(n)l.nonce=n;d.head.appendChild(l)}" +
    "c.forEach(function(k){p[k]=function(){r.events.push([k,[].slice.call(arguments)]);if(k!='onChangeBrand')m()}});" +
    'p.onBeforeSubmitCard=function(){return false};' +
    "['load','error'].forEach(function(t){d.addEventListener(t,function(e){var s=e.target;" +
    "if(s&&s.hasAttribute&&s.hasAttribute(a)){s.setAttribute('data-gw-state',t=='load'?'loaded':'failed');if(t=='error')m()}},true)});" +
    `setTimeout(m,1e4)})(${args})`
  );
}

/**
 * Renders the checkout you just created into your page's HTML, so the widget
 * starts as early as with the gateway's own two lines. Put `html` where the
 * form goes (it holds `<gw-checkout>` with the form, an inline script and the
 * widget script), and optionally `head` first in `<head>` or `link` as a
 * response header. Every value is HTML-escaped; `link` is a valid header value.
 *
 * @throws {GatewayValidationError} for a checkout without a gateway id, an integrity value the browser would not enforce, a base URL that is not http(s), or an option that cannot be rendered safely.
 */
export function renderCheckout(
  checkout: { readonly id: string; readonly integrity?: string; readonly timestamp?: string },
  options: RenderCheckoutOptions,
): RenderedCheckoutHtml {
  if (!isObject(options)) throw invalidArgument('options', 'must be { baseUrl, shopperResultUrl }');
  const preload = widgetPreload(checkout, { baseUrl: options.baseUrl, nonce: options.nonce });
  const { shopperResultUrl, brands = ['VISA', 'MASTER'], lang, locale, widgetStyle, widgetOptions = {}, elementScript, nonce } = options;
  if (!pageUrl(shopperResultUrl)) throw invalidArgument('shopperResultUrl', 'must be an http(s) URL or a path on your site');
  if (!Array.isArray(brands) || !brands.length || !brands.every((brand) => typeof brand === 'string' && BRAND.test(brand)))
    throw invalidArgument('brands', "must be brand names in the platform's spelling, e.g. ['VISA', 'MASTER']");
  for (const [name, tag] of [
    ['lang', lang],
    ['locale', locale],
  ] as const)
    if (tag !== undefined && (typeof tag !== 'string' || !LANGUAGE_TAG.test(tag)))
      throw invalidArgument(name, 'must be a language tag, e.g. de or de-AT');
  if (widgetStyle !== undefined && widgetStyle !== 'card' && widgetStyle !== 'plain')
    throw invalidArgument('widgetStyle', "must be 'card' or 'plain'");
  if (!isObject(widgetOptions)) throw invalidArgument('widgetOptions', 'must be an object of JSON values');
  if (elementScript !== undefined && !pageUrl(elementScript))
    throw invalidArgument('elementScript', 'must be an http(s) URL or a path on your site');

  const dataBrands = brands.join(' ');
  // The element and the inline script agree on what the widget loads with: the element's own rule (`widgetLocale`)
  // is applied here, where the widget's options are written.
  let optionsJson: string;
  try {
    // Copied and written inside: a getter that throws, a BigInt, a cycle or nesting too deep to write is the caller's
    // mistake, told as one.
    const wpwl: Record<string, JsonValue> = { ...widgetOptions };
    const chosen = widgetLocale(locale, wpwl.locale, lang);
    if (chosen) wpwl.locale = chosen;
    if (widgetStyle) wpwl.style = widgetStyle;
    optionsJson = JSON.stringify(wpwl);
  } catch {
    throw invalidArgument('widgetOptions', 'must be an object of JSON values');
  }
  const attributes: [string, string | undefined][] = [
    ['checkout-id', checkout.id],
    ['base-url', options.baseUrl],
    ['integrity', checkout.integrity],
    ['shopper-result-url', shopperResultUrl],
    ['brands', dataBrands],
    ['expires-at', expiryOf(checkout.timestamp)],
    ['lang', lang],
    ['locale', locale],
    ['widget-style', widgetStyle],
    ['nonce', nonce],
    [RENDERED_ELEMENT_ATTRIBUTE, ''],
  ];
  const attributeText = (list: [string, string | undefined][]) =>
    list.map(([name, value]) => (value === undefined ? '' : value === '' ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`)).join('');
  const nonceAttribute = attributeText([['nonce', nonce]]);
  const html =
    `<gw-checkout${attributeText(attributes)}>` +
    `<div class="${WIDGET_AREA_CLASS}"><form class="paymentWidgets"${attributeText([
      ['action', shopperResultUrl],
      ['data-brands', dataBrands],
    ])}></form></div></gw-checkout>\n` +
    `<script${nonceAttribute}>${inlineScript(optionsJson, elementScript, nonce)}</script>\n` +
    // Parser-blocking like the gateway's own line, so the browser fetches it at the same (high) priority.
    `<script${attributeText([
      ['src', preload.url],
      ['integrity', checkout.integrity],
      ['crossorigin', 'anonymous'],
      [RENDERED_SCRIPT_ATTRIBUTE, ''],
      ['data-gw-state', 'pending'],
      ['nonce', nonce],
    ])}></script>`;
  return { html, head: preload.html, link: preload.link };
}
