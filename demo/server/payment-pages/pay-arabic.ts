/**
 * The payment page in Arabic, right to left, rendered like the English one
 * (pay.ts): the page says `lang="ar" dir="rtl"`, `renderCheckout` gives the
 * element and the widget `lang="ar"` from the first byte, and the page's
 * module (demo/pages/pay-ar.ts) imports the element's Arabic texts with it.
 * `/pay-ar.html?order=…` for any order; without one, the server checks out a
 * bag of espresso beans first. The shop's header and call log stay in English.
 */
import { renderCheckout } from 'gw-elements/server';
import { z } from 'zod';
import { money } from '../../lib/money.js';
import { reference } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input, type PageOptions } from '../route-definition.js';
import { html, trusted } from './html.js';

export const payArabicPageInput = input({ query: z.object({ order: reference.optional() }) });

export async function payArabicPage(
  { query }: z.infer<typeof payArabicPageInput>,
  { orders, gateway, gatewayUrl }: MerchantContext,
  { nonce }: PageOptions,
) {
  const order = query.order ? orders.get(query.order) : await orders.create(gateway, [{ sku: 'espresso-beans', quantity: 1 }]);
  const checkout = renderCheckout(orders.checkoutOf(order.id), {
    baseUrl: gatewayUrl,
    shopperResultUrl: `/result.html?order=${encodeURIComponent(order.id)}`,
    brands: ['VISA', 'MASTER'],
    lang: 'ar',
    elementScript: '/pages/pay-ar.ts',
    nonce,
  });
  return {
    title: 'الدفع',
    lang: 'ar' as const,
    head: trusted(checkout.head),
    link: checkout.link,
    callsLabel: 'Check out: create a checkout',
    main: html`<h1>الدفع للطلب ${order.id}</h1>
      <p class="lede">المبلغ: ${money(order.amount, order.currency, 'ar')}</p>
      <section class="panel" aria-labelledby="pay-title">
        <h2 id="pay-title">بيانات البطاقة</h2>
        ${trusted(checkout.html)}
      </section>`,
  };
}
