/**
 * The payment page: `<gw-checkout>` renders the gateway's widget for the
 * order's checkout. After paying, the widget sends the shopper to the result
 * page (the form's action), where the server reads and verifies the status.
 */
import 'gw-elements';
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { messageOf, money, mountPage, notice } from '../lib/layout.js';
import { testCardTable } from '../lib/test-cards.js';
import type { OrderView } from '../server/views.js';

const content = mountPage();
const config = await shopConfig();
const orderId = new URLSearchParams(location.search).get('order') ?? '';

let order: OrderView | undefined;
/** What the page says above the widget: nothing, the sandbox hint, or why the checkout cannot be used any more. */
let status: { kind: 'none' } | { kind: 'clock-moved' } | { kind: 'expired'; message: string } | { kind: 'failed'; message: string } = {
  kind: 'none',
};

async function startAgain(): Promise<void> {
  // A new checkout for the same order: the element sees a new checkout-id and loads a fresh widget.
  ({ order } = await api<{ order: OrderView }>('POST', `/orders/${encodeURIComponent(orderId)}/checkout`, 'Start again: a new checkout'));
  status = { kind: 'none' };
  draw();
}

async function expireCheckout(): Promise<void> {
  await api('POST', '/sandbox/expire-checkouts', 'Sandbox: move the clock 31 minutes');
  status = { kind: 'clock-moved' };
  draw();
}

function onError(event: CustomEvent<{ code: string; message: string }>): void {
  const { code, message } = event.detail;
  status =
    code === 'invalid-checkout'
      ? { kind: 'expired', message: 'The gateway no longer accepts this payment session.' }
      : { kind: 'failed', message };
  draw();
}

function onExpired(): void {
  status = { kind: 'expired', message: 'Payment sessions last 30 minutes.' };
  draw();
}

function statusNotice() {
  switch (status.kind) {
    case 'clock-moved':
      return notice(
        'info',
        'The sandbox clock moved 31 minutes ahead',
        'This checkout is now past its 30-minute lifetime at the gateway. Enter a card and press Pay to see what the shopper sees.',
      );
    case 'expired':
      return notice(
        'wait',
        'Your payment session expired',
        html`<p>${status.message} Nothing was charged.</p><div class="actions"><button type="button" @click=${startAgain}>Start again</button></div>`,
      );
    case 'failed':
      return notice(
        'bad',
        'The payment form failed',
        html`<p>${status.message}</p><div class="actions"><button type="button" @click=${startAgain}>Start again</button></div>`,
      );
    default:
      return '';
  }
}

function draw(): void {
  if (!order) return;
  const resultUrl = new URL(`/result.html?order=${encodeURIComponent(order.id)}`, location.href).href;
  render(
    html`
      <h1>Pay for order ${order.id}</h1>
      <p class="lede">The card form below is the gateway's widget: card data goes from this page to the gateway, never through the shop's server.</p>
      <div class="panel">
        ${order.lines.map((line) => html`<div class="summary-line"><span>${line.quantity} × ${line.name}</span><span>${money(line.amount, order!.currency)}</span></div>`)}
        <div class="summary-line total"><span>Total</span><span>${money(order.amount, order.currency)}</span></div>
      </div>
      ${
        order.status === 'paid'
          ? notice('ok', 'This order is paid.', html`<p><a href=${resultUrl}>See the receipt</a></p>`)
          : html`
            ${statusNotice()}
            <section class="panel" aria-labelledby="pay-title">
              <h2 id="pay-title">Card details</h2>
              <gw-checkout
                checkout-id=${order.checkoutId}
                integrity=${order.integrity}
                expires-at=${order.checkoutExpiresAt}
                base-url=${config.gatewayUrl}
                shopper-result-url=${resultUrl}
                brands="VISA MASTER"
                locale="en"
                @gw-error=${onError}
                @gw-expired=${onExpired}
              ></gw-checkout>
              ${testCardTable(config.testCards, (behaviour) => behaviour.kind === 'approve' || behaviour.kind === 'decline', 'Test cards')}
            </section>
            ${
              config.canExpireCheckouts
                ? html`<section class="panel" aria-labelledby="sandbox-title">
                  <h2 id="sandbox-title">Sandbox controls</h2>
                  <p class="muted">Checkouts expire after 30 minutes. The sandbox can move its clock so you can see what the shopper sees then.</p>
                  <button type="button" class="secondary" @click=${expireCheckout}>Let this checkout expire</button>
                </section>`
                : ''
            }
          `
      }
    `,
    content,
  );
}

try {
  ({ order } = await api<{ order: OrderView }>('GET', `/orders/${encodeURIComponent(orderId)}`, 'Load the order'));
  draw();
} catch (error) {
  render(
    html`<h1>Payment</h1>${notice('bad', 'This order cannot be paid', html`<p>${messageOf(error)}</p><p><a href="/">Back to the shop</a></p>`)}`,
    content,
  );
}
