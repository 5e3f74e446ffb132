/**
 * The order's payment page, rendered by the shop's server with the whole
 * checkout in its HTML (`renderCheckout`): the browser starts the gateway's
 * widget while it parses the page, as with the gateway's own two lines, and
 * the page's module (demo/pages/pay.ts, which defines `<gw-checkout>`) is
 * loaded by the rendered inline script once the widget is ready, so it never
 * competes with the widget. After paying, the widget sends the shopper to the
 * result page (the form's action), where the server reads and verifies the status.
 */
import { renderCheckout } from 'gw-elements/server';
import { z } from 'zod';
import { money } from '../../lib/money.js';
import { reference } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input, type PageOptions } from '../route-definition.js';
import type { OrderView } from '../views.js';
import { html, trusted } from './html.js';

const PAGE_MODULE = '/pages/pay.ts';

export const payPageInput = input({ query: z.object({ order: reference }) });

/** The order's lines and total. */
export function orderSummary(order: OrderView) {
  return html`<div class="panel">
    ${order.lines.map(
      (line) =>
        html`<div class="summary-line"><span>${line.quantity} × ${line.name}</span><span>${money(line.amount, order.currency)}</span></div>`,
    )}
    <div class="summary-line total"><span>Total</span><span>${money(order.amount, order.currency)}</span></div>
  </div>`;
}

export function payPage({ query }: z.infer<typeof payPageInput>, { orders, gatewayUrl }: MerchantContext, { nonce }: PageOptions) {
  const order = orders.get(query.order);
  const heading = html`<h1>Pay for order ${order.id}</h1>
    <p class="lede">The card form below is the gateway's widget: card data goes from this page to the gateway, never through the shop's server.</p>
    ${orderSummary(order)}`;
  if (order.status === 'paid')
    return {
      title: 'Payment',
      module: PAGE_MODULE,
      main: html`${heading}
        <div class="notice ok" role="status">
          <p class="notice-title">This order is paid.</p>
          <div class="notice-body"><p><a href="/result.html?order=${encodeURIComponent(order.id)}">See the receipt</a></p></div>
        </div>`,
    };
  const checkout = renderCheckout(orders.checkoutOf(order.id), {
    baseUrl: gatewayUrl,
    shopperResultUrl: `/result.html?order=${encodeURIComponent(order.id)}`,
    brands: ['VISA', 'MASTER'],
    locale: 'en',
    elementScript: PAGE_MODULE,
    nonce,
  });
  return {
    title: 'Payment',
    head: trusted(checkout.head),
    link: checkout.link,
    main: html`${heading}
      <div id="checkout-status"></div>
      <section class="panel" aria-labelledby="pay-title">
        <h2 id="pay-title">Card details</h2>
        ${trusted(checkout.html)}
        <div id="test-cards"></div>
      </section>
      <div id="sandbox-controls"></div>`,
  };
}
