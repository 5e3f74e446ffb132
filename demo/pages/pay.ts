/**
 * The payment page's module. The shop's server renders the page with the
 * order and its checkout in the HTML (demo/server/payment-pages/pay.ts), so
 * the widget starts while the page is parsed; the page's inline script loads
 * this module once the widget is ready. It fills the shop's frame, defines
 * `<gw-checkout>`, which adopts the widget, and says what happens to the
 * checkout: the sandbox hint, its expiry, "start again".
 */
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { mountPage, notice } from '../lib/layout.js';
import { testCardTable } from '../lib/test-cards.js';
import type { OrderView } from '../server/views.js';

mountPage();
const orderId = new URLSearchParams(location.search).get('order') ?? '';
const checkout = document.querySelector('gw-checkout');
const areas = {
  status: document.querySelector<HTMLElement>('#checkout-status'),
  testCards: document.querySelector<HTMLElement>('#test-cards'),
  sandbox: document.querySelector<HTMLElement>('#sandbox-controls'),
};

/** What the page says above the widget: nothing, the sandbox hint, or why the checkout cannot be used any more. */
type Status = { kind: 'none' } | { kind: 'clock-moved' } | { kind: 'expired'; message: string } | { kind: 'failed'; message: string };

async function startAgain(): Promise<void> {
  // A new checkout for the same order: the element sees a new checkout-id and loads a fresh widget.
  const { order } = await api<{ order: OrderView }>(
    'POST',
    `/orders/${encodeURIComponent(orderId)}/checkout`,
    'Start again: a new checkout',
  );
  checkout?.setAttribute('integrity', order.integrity);
  checkout?.setAttribute('expires-at', String(order.checkoutExpiresAt));
  checkout?.setAttribute('checkout-id', order.checkoutId);
  showStatus({ kind: 'none' });
}

async function expireCheckout(): Promise<void> {
  await api('POST', '/sandbox/expire-checkouts', 'Sandbox: move the clock 31 minutes');
  showStatus({ kind: 'clock-moved' });
}

function statusNotice(status: Status) {
  const startAgainButton = html`<div class="actions"><button type="button" @click=${startAgain}>Start again</button></div>`;
  switch (status.kind) {
    case 'clock-moved':
      return notice(
        'info',
        'The sandbox clock moved 31 minutes ahead',
        'This checkout is now past its 30-minute lifetime at the gateway. Enter a card and press Pay to see what the shopper sees.',
      );
    case 'expired':
      return notice('wait', 'Your payment session expired', html`<p>${status.message} Nothing was charged.</p>${startAgainButton}`);
    case 'failed':
      return notice('bad', 'The payment form failed', html`<p>${status.message}</p>${startAgainButton}`);
    default:
      return '';
  }
}

function showStatus(status: Status): void {
  if (areas.status) render(statusNotice(status), areas.status);
}

// Listeners first, then the element: when it upgrades it replays what the widget reported before this module ran.
checkout?.addEventListener('gw-error', (event) => {
  const { code, message } = event.detail;
  showStatus(
    code === 'invalid-checkout'
      ? { kind: 'expired', message: 'The gateway no longer accepts this payment session.' }
      : { kind: 'failed', message },
  );
});
checkout?.addEventListener('gw-expired', () => showStatus({ kind: 'expired', message: 'Payment sessions last 30 minutes.' }));
await import('gw-elements/checkout');

const config = await shopConfig();
if (areas.testCards)
  render(
    testCardTable(config.testCards, (behaviour) => behaviour.kind === 'approve' || behaviour.kind === 'decline', 'Test cards'),
    areas.testCards,
  );
if (areas.sandbox && config.canExpireCheckouts)
  render(
    html`<section class="panel" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox controls</h2>
      <p class="muted">Checkouts expire after 30 minutes. The sandbox can move its clock so you can see what the shopper sees then.</p>
      <button type="button" class="secondary" @click=${expireCheckout}>Let this checkout expire</button>
    </section>`,
    areas.sandbox,
  );
