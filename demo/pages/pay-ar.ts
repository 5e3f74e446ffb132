/**
 * The payment page in Arabic, right to left: the page says `lang="ar" dir="rtl"`
 * and imports the element's Arabic texts, and `<gw-checkout>` takes both (its
 * own texts from `lang`, the widget's locale from it too). `/pay-ar.html?order=…`
 * for any order; without one, the page checks out a bag of espresso beans
 * first. The shop's header and call log stay in English (their own `lang`).
 */
import 'gw-elements';
import 'gw-elements/checkout/translations/ar';
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { messageOf, mountPage } from '../lib/layout.js';
import type { OrderView } from '../server/views.js';

const content = mountPage();
const orderId = new URLSearchParams(location.search).get('order');
const amount = (order: OrderView) =>
  new Intl.NumberFormat('ar', { style: 'currency', currency: order.currency }).format(Number(order.amount));

try {
  const config = await shopConfig();
  const { order } = orderId
    ? await api<{ order: OrderView }>('GET', `/orders/${encodeURIComponent(orderId)}`, 'Load the order')
    : await api<{ order: OrderView }>('POST', '/orders', 'Check out: create a checkout', {
        lines: [{ sku: 'espresso-beans', quantity: 1 }],
      });
  const resultUrl = new URL(`/result.html?order=${encodeURIComponent(order.id)}`, location.href).href;
  render(
    html`
      <h1>الدفع للطلب ${order.id}</h1>
      <p class="lede">المبلغ: ${amount(order)}</p>
      <section class="panel" aria-labelledby="pay-title">
        <h2 id="pay-title">بيانات البطاقة</h2>
        <gw-checkout
          checkout-id=${order.checkoutId}
          integrity=${order.integrity}
          expires-at=${order.checkoutExpiresAt}
          base-url=${config.gatewayUrl}
          shopper-result-url=${resultUrl}
          brands="VISA MASTER"
        ></gw-checkout>
      </section>
    `,
    content,
  );
} catch (error) {
  render(html`<h1>الدفع</h1><p role="alert">${messageOf(error)}</p>`, content);
}
