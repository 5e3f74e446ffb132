/**
 * Where the gateway serves its payment widget script for a checkout. One rule
 * for `<gw-checkout>`, which loads the script, and the server's preload hint
 * (`widgetPreload`): a preload is reused only for the very same URL, so both
 * must write it byte for byte alike or the browser fetches the script twice.
 */

/**
 * The widget script's URL for `checkoutId` on the gateway at `baseUrl` (origin, optionally with a path prefix; a
 * query or fragment on it is no part of the gateway's address and is left out, not glued before the path).
 */
export function widgetScriptUrl(baseUrl: string, checkoutId: string): URL {
  const base = new URL(baseUrl);
  const url = new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}/v1/paymentWidgets.js`);
  url.searchParams.set('checkoutId', checkoutId);
  return url;
}
