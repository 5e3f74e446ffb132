/**
 * Lets the page start downloading the gateway's widget script with its HTML,
 * instead of after `<gw-checkout>`'s module has run: a `<link rel="preload">`
 * (or the same as a `Link` header, usable for 103 Early Hints) that
 * `<gw-checkout>` then reuses, because it asks for the same URL in the same
 * CORS mode with the same integrity. The browser fetches the script once.
 */
import { isSecureEndpoint } from '../contract/endpoint.js';
import { headerValue } from '../contract/header.js';
import { integrityProblem } from '../contract/integrity.js';
import { widgetCheckoutOf } from '../contract/resource-path.js';
import { widgetScriptUrl } from '../contract/widget-script.js';
import { invalidArgument, isObject } from './errors.js';

export interface WidgetPreloadOptions {
  /** The gateway's base URL, the same as the page's `<gw-checkout base-url>`. */
  readonly baseUrl: string;
  /** Your page's Content-Security-Policy nonce, for the `<link>` tags (leave out when the policy allows the gateway by host). */
  readonly nonce?: string;
}

/** A `Link` header value and the equivalent HTML tag. */
export interface ResourceHint {
  /** For a `Link` response header (or `response.writeEarlyHints({ link })` for 103 Early Hints). */
  readonly link: string;
  /** For the page's `<head>`, before any script. */
  readonly html: string;
}

export interface WidgetPreload extends ResourceHint {
  /** The widget script's URL, exactly as `<gw-checkout>` will ask for it. */
  readonly url: string;
  /**
   * Opens the connection to the gateway only: for a page that does not know its
   * checkout yet when its HTML is sent (the preload opens it too, so send one or the other).
   */
  readonly preconnect: ResourceHint;
}

const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Base64 and the SRI characters only: what a nonce may be, so that it is safe in an attribute and a header. */
const NONCE = /^[A-Za-z0-9+/=_-]+$/;

/**
 * The preload for `checkout`'s widget script. `integrity` and `crossorigin`
 * match what `<gw-checkout>` sets on its script: a preload that differs in
 * either is not reused, and the script would be fetched twice.
 *
 * @throws {GatewayValidationError} for a checkout without a gateway id, an integrity value the browser would not enforce, or a base URL that is not http(s).
 */
export function widgetPreload(
  checkout: { readonly id: string; readonly integrity?: string },
  options: WidgetPreloadOptions,
): WidgetPreload {
  // `{id}/registration` is a registration-only checkout's widget, as `<gw-checkout checkout-id>` takes it.
  if (!isObject(checkout) || typeof checkout.id !== 'string' || !widgetCheckoutOf(checkout.id))
    throw invalidArgument('checkout', 'must be the answer of checkouts.create, with its id (or `{id}/registration`)');
  const given = checkout.integrity;
  if (given !== undefined && (typeof given !== 'string' || integrityProblem(given)))
    throw invalidArgument('checkout.integrity', "must be the checkout's integrity value (sha384-…) as the gateway sent it");
  // Hashes are separated by any whitespace (SRI): one space each, so a line break never reaches a header or a tag.
  const integrity = given?.trim().split(/\s+/).join(' ');
  if (!isObject(options)) throw invalidArgument('options', 'must be { baseUrl }');
  // The element's own rule: the widget takes card data, so plain http only for a sandbox on this machine.
  const base = typeof options.baseUrl === 'string' && URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : undefined;
  if (!base || !isSecureEndpoint(base))
    throw invalidArgument('baseUrl', "must be the gateway's https URL (http on localhost only), as <gw-checkout base-url> has it");
  const { nonce } = options;
  if (nonce !== undefined && (typeof nonce !== 'string' || !NONCE.test(nonce)))
    throw invalidArgument('nonce', "must be your page's CSP nonce (base64)");
  // The element passes its base-url through URL parsing too, so both sides write the URL alike.
  const url = widgetScriptUrl(base.href, checkout.id).href;
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : '';
  const integrityParameter = integrity ? `; integrity="${integrity}"` : '';
  const integrityAttribute = integrity ? ` integrity="${escapeAttribute(integrity)}"` : '';
  return {
    url,
    link: headerValue(`<${url}>; rel=preload; as=script; crossorigin=anonymous${integrityParameter}`),
    html: `<link rel="preload" as="script" href="${escapeAttribute(url)}" crossorigin="anonymous"${integrityAttribute}${nonceAttribute}>`,
    preconnect: {
      link: headerValue(`<${base.origin}>; rel=preconnect; crossorigin=anonymous`),
      html: `<link rel="preconnect" href="${escapeAttribute(base.origin)}" crossorigin="anonymous">`,
    },
  };
}
