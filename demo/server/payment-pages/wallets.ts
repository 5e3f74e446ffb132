/**
 * Wallets and MADA, rendered by the shop's server: one checkout on the entity
 * of the brands it shows (a KSA merchant's MADA entity with Apple Pay and STC
 * Pay, or the card entity with Google Pay) in the page's HTML with the
 * wpwlOptions integrators set (`renderCheckout`'s `widgetOptions`). The
 * wallets are the sandbox's stand-ins, never a real wallet. Back from the
 * widget (`?returned=1`), the page's module shows the payment as the server read it.
 */
import type { WpwlOptions } from 'gw-elements';
import { renderCheckout } from 'gw-elements/server';
import { z } from 'zod';
import type { MerchantContext } from '../merchant-context.js';
import { input, type PageOptions } from '../route-definition.js';
import { WALLET_SETUPS, type WalletSetup } from '../wallets.js';
import { html, trusted } from './html.js';

const PAGE_MODULE = '/pages/wallets.ts';

const WIDGET_OPTIONS = {
  brandDetection: true,
  brandDetectionType: 'binlist',
  brandDetectionPriority: ['MADA', 'VISA', 'MASTER'],
  applePay: {
    displayName: 'Kestrel Coffee',
    total: { label: 'Kestrel Coffee' },
    countryCode: 'SA',
    supportedNetworks: ['mada', 'visa', 'masterCard'],
    merchantCapabilities: ['supports3DS'],
  },
  googlePay: { gatewayMerchantId: 'the card entity (the server knows it)', merchantName: 'Kestrel Coffee' },
} satisfies WpwlOptions;

export const walletsPageInput = input({
  query: z.object({ setup: z.enum(['mada', 'cards']).optional(), returned: z.string().optional() }),
});

export async function walletsPage(
  { query }: z.infer<typeof walletsPageInput>,
  { gateway, gatewayUrl, wallets }: MerchantContext,
  { nonce }: PageOptions,
) {
  const title = 'Wallets and mada';
  // Back from the widget: the page's module reads the payment through the shop's API.
  if (query.returned) return { title, module: PAGE_MODULE, main: html`<h1>${title}</h1>` };
  const setup: WalletSetup = query.setup ?? 'mada';
  const { label, brands } = WALLET_SETUPS[setup];
  const checkout = renderCheckout(await wallets.createCheckout(gateway, setup), {
    baseUrl: gatewayUrl,
    shopperResultUrl: '/wallets.html?returned=1',
    brands,
    locale: 'en',
    widgetOptions: WIDGET_OPTIONS,
    elementScript: PAGE_MODULE,
    nonce,
  });
  return {
    title,
    head: trusted(checkout.head),
    link: checkout.link,
    callsLabel: `Create checkout (${label})`,
    main: html`<h1>${title}</h1>
      <p class="lede">A Saudi shop's payment options. The wallet buttons open the sandbox's stand-in for the wallet's sheet: choose Approve or Decline. STC Pay: any 05xxxxxxxx number, then one-time password 123456 (approves) or 000000 (declines). Mada card: 4464 0400 0000 0007, steered off a VISA/Mastercard form.</p>
      <form class="actions" method="get" action="/wallets.html" role="group" aria-label="Entity">
        ${(Object.keys(WALLET_SETUPS) as WalletSetup[]).map(
          (key) =>
            html`<button type="submit" name="setup" value="${key}"${key === setup ? null : html` class="secondary"`} aria-pressed="${String(key === setup)}">${WALLET_SETUPS[key].label}</button>`,
        )}
      </form>
      <section class="panel" aria-labelledby="pay-title">
        <h2 id="pay-title">Pay 45.00 SAR</h2>
        ${trusted(checkout.html)}
      </section>`,
  };
}
