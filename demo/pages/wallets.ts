/**
 * The wallets page's module. The shop's server renders the page with its
 * checkout in the HTML (demo/server/payment-pages/wallets.ts) and the page's
 * inline script loads this module once the widget is ready: it fills the
 * shop's frame and defines `<gw-checkout>`, which adopts the widget. Back from
 * the widget, it shows the payment as the server read it.
 */
import 'gw-elements/checkout';
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { messageOf, mountPage, notice } from '../lib/layout.js';

const content = mountPage();

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

const query = new URLSearchParams(location.search);
if (query.has('resourcePath'))
  await showReturn(query).catch((error: unknown) =>
    render(html`<h1>Wallets and mada</h1>${notice('bad', 'This page could not be loaded', html`<p>${messageOf(error)}</p>`)}`, content),
  );
