/**
 * Wallets and MADA: one `<gw-checkout>` on the entity of the brands it shows
 * (a KSA merchant's MADA entity with Apple Pay and STC Pay, or the card entity
 * with Google Pay), with the wpwlOptions integrators set. The wallets here are
 * the sandbox's stand-ins, never a real wallet. Back from the widget, the page
 * shows the payment as the server read it.
 */
import 'gw-elements';
import { html, render } from 'lit';
import type { PaymentBrand, WpwlOptions } from 'gw-elements';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { messageOf, mountPage, notice } from '../lib/layout.js';

const content = mountPage();
const config = await shopConfig();

const SETUPS = {
  mada: { label: 'MADA entity: Apple Pay, STC Pay, mada cards', brands: ['APPLEPAY', 'STC_PAY', 'MADA'] },
  cards: { label: 'Card entity: Google Pay, VISA, Mastercard', brands: ['GOOGLEPAY', 'VISA', 'MASTER'] },
} satisfies Record<string, { label: string; brands: PaymentBrand[] }>;
type Setup = keyof typeof SETUPS;

const options: WpwlOptions = {
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
};

const resultUrl = new URL('/wallets.html?returned=1', location.href).href;

async function show(setup: Setup): Promise<void> {
  const { brands, label } = SETUPS[setup];
  const checkout = await api<{ id: string; integrity: string }>('POST', '/wallets/checkout', `Create checkout (${label})`, { brands });
  render(
    html`
      <h1>Wallets and mada</h1>
      <p class="lede">A Saudi shop's payment options. The wallet buttons open the sandbox's stand-in for the wallet's sheet: choose Approve or Decline. STC Pay: any 05xxxxxxxx number, then one-time password 123456 (approves) or 000000 (declines). Mada card: 4464 0400 0000 0007, steered off a VISA/Mastercard form.</p>
      <div class="actions" role="group" aria-label="Entity">
        ${(Object.keys(SETUPS) as Setup[]).map((key) => html`<button type="button" class=${key === setup ? '' : 'secondary'} aria-pressed=${String(key === setup)} @click=${() => void show(key)}>${SETUPS[key].label}</button>`)}
      </div>
      <section class="panel" aria-labelledby="pay-title">
        <h2 id="pay-title">Pay 45.00 SAR</h2>
        <gw-checkout checkout-id=${checkout.id} integrity=${checkout.integrity} base-url=${config.gatewayUrl} shopper-result-url=${resultUrl} locale="en" .brands=${brands} .options=${options}></gw-checkout>
      </section>
    `,
    content,
  );
}

async function showReturn(query: URLSearchParams): Promise<void> {
  const { payment } = await api<{
    payment: {
      paymentBrand?: string;
      paymentType?: string;
      amount?: string;
      currency?: string;
      result: { code: string; description: string };
      last4Digits?: string;
    };
  }>(
    'GET',
    `/wallets/payment?${new URLSearchParams({ id: query.get('id') ?? '', resourcePath: query.get('resourcePath') ?? '' })}`,
    'Get payment status',
  );
  render(
    html`
      <h1>Wallets and mada</h1>
      ${notice('info', `${payment.paymentBrand ?? 'Payment'}: ${payment.result.description}`, html`<p>${payment.paymentType} ${payment.amount} ${payment.currency}, result ${payment.result.code}${payment.last4Digits ? `, card ending ${payment.last4Digits}` : ', no card data (a wallet)'}.</p><p><a href="/wallets.html">Pay again</a></p>`)}
    `,
    content,
  );
}

try {
  const query = new URLSearchParams(location.search);
  await (query.has('resourcePath') ? showReturn(query) : show('mada'));
} catch (error) {
  render(html`<h1>Wallets and mada</h1>${notice('bad', 'This page could not be loaded', html`<p>${messageOf(error)}</p>`)}`, content);
}
