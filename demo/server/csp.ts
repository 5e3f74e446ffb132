/**
 * The Content-Security-Policy a shop page needs for `<gw-checkout>` and
 * `<gw-3ds-handler>`: the README's recipe as a function. The demo pages are
 * served under it, so the end-to-end test proves the recipe is enough.
 */

export interface PolicyOptions {
  /** Where the 3DS method and challenge (ACS) pages may come from. With a real gateway they belong to card issuers, so `https:`. */
  readonly threeDsHosts?: readonly string[];
  /** Extra sources of the page itself (a dev server's websocket, ...). */
  readonly connectSrc?: readonly string[];
  /** The page's nonce, for a page with inline scripts (`renderCheckout`'s); new for every response. */
  readonly nonce?: string;
}

/** The policy for pages on `'self'` that use the gateway at `gatewayOrigin` (e.g. `https://eu-test.oppwa.com`). */
export function checkoutContentSecurityPolicy(gatewayOrigin: string, options: PolicyOptions = {}): string {
  const gateway = new URL(gatewayOrigin).origin;
  const threeDs = options.threeDsHosts ?? ['https:'];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // The widget script (with its integrity hash), loaded from the gateway; a rendered checkout's inline script by its nonce.
    'script-src': ["'self'", gateway, ...(options.nonce ? [`'nonce-${options.nonce}'`] : [])],
    // The widget reads its checkout and sends the card to the gateway from the page.
    'connect-src': ["'self'", gateway, ...(options.connectSrc ?? [])],
    // The gateway's widget styles its form (the platform's published recipe allows inline styles).
    'style-src': ["'self'", "'unsafe-inline'", gateway],
    'img-src': ["'self'", 'data:', gateway],
    // 3-D Secure: the method frame and the challenge frame, each filled by a form post; the challenge
    // frame ends on the shop's own shopper result URL, hence 'self'.
    'frame-src': ["'self'", gateway, ...threeDs],
    'form-action': ["'self'", gateway, ...threeDs],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}
