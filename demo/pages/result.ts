/**
 * The shopper result page (the widget form's action). The gateway sends the
 * shopper here with `id` and `resourcePath`; the shop's server reads the
 * payment status, verifies it against the order and says what happened.
 */
import { html, render, type TemplateResult } from 'lit';
import { api } from '../lib/api.js';
import { messageOf, money, mountPage, notice } from '../lib/layout.js';
import { paymentsTable } from '../lib/payments-table.js';
import type { OrderView, PaymentView, ReturnOutcome } from '../server/views.js';

const content = mountPage();
const query = new URLSearchParams(location.search);
const orderId = query.get('order') ?? '';

interface Answer {
  outcome: ReturnOutcome;
  message: string;
  order: OrderView;
  payment?: PaymentView;
  retryAfterSeconds?: number;
}

const payUrl = `/pay.html?order=${encodeURIComponent(orderId)}`;

async function startAgain(): Promise<void> {
  await api('POST', `/orders/${encodeURIComponent(orderId)}/checkout`, 'Start again: a new checkout');
  location.assign(payUrl);
}

const attemptsTable = (attempts: readonly PaymentView[]) =>
  attempts.length ? html`<h2>Payment attempts</h2>${paymentsTable(attempts, 'Payment attempts of this order')}` : '';

const refundsTable = (refunds: readonly PaymentView[]) =>
  refunds.length ? html`<h2>Refunded second charges</h2>${paymentsTable(refunds, 'Second charges of this order, refunded')}` : '';

function view(answer: Answer): TemplateResult {
  const { order } = answer;
  const ordinal = ['first', 'second', 'third'][order.attempts.length - 1] ?? `${order.attempts.length}th`;
  switch (answer.outcome) {
    case 'approved':
      return html`<h1>Thank you!</h1>
        ${notice('ok', `Order ${order.id} is paid: ${money(order.amount, order.currency)}`, html`<p>${answer.payment?.card ?? ''} · approved on the ${ordinal} attempt. ${answer.message}</p>`)}
        <div class="panel">${order.lines.map((line) => html`<div class="summary-line"><span>${line.quantity} × ${line.name}</span><span>${money(line.amount, order.currency)}</span></div>`)}</div>
        ${attemptsTable(order.attempts)}
        ${refundsTable(order.refunds)}
        <div class="actions"><a class="button" href="/">Back to the shop</a><a class="button secondary" href="/transactions.html?merchantTransactionId=${encodeURIComponent(order.id)}">See the transactions</a></div>`;
    case 'refunded':
      // The order was paid by another payment (a late 3-D Secure challenge on a checkout left behind by "start again", say).
      return html`<h1>Your order is paid once</h1>
        ${notice('info', 'A second charge was refunded', html`<p>${answer.message}</p><p>Order ${order.id} is paid: ${money(order.amount, order.currency)}. Nothing more is owed, and nothing more will be charged.</p>`)}
        ${attemptsTable(order.attempts)}
        ${refundsTable(order.refunds)}
        <div class="actions"><a class="button" href="/">Back to the shop</a><a class="button secondary" href="/transactions.html?merchantTransactionId=${encodeURIComponent(order.id)}">See the transactions</a></div>`;
    case 'declined':
      return html`<h1>Payment declined</h1>
        ${notice('bad', 'Your bank declined the payment', html`<p>${answer.message} (${answer.payment?.resultCode ?? ''}). Nothing was charged; you can try another card.</p>`)}
        <div class="actions"><a class="button" href=${payUrl}>Try another card</a></div>
        ${attemptsTable(order.attempts)}`;
    case 'expired':
      return html`<h1>Payment session expired</h1>
        ${notice('wait', 'Your payment session expired', html`<p>${answer.message} Nothing was charged.</p>`)}
        <div class="actions"><button type="button" @click=${startAgain}>Start again</button></div>`;
    case 'pending':
      return html`<h1>Payment not finished</h1>
        ${notice('wait', 'The payment is not complete yet', html`<p>${answer.message}</p>`)}
        <div class="actions"><a class="button" href=${payUrl}>Back to the payment</a></div>`;
    case 'throttled':
      setTimeout(load, ((answer.retryAfterSeconds ?? 30) + 1) * 1000);
      return html`<h1>Checking your payment…</h1>
        ${notice('wait', 'The gateway allows two status checks a minute', html`<p>We will check again in ${answer.retryAfterSeconds ?? 30} seconds.</p>`)}`;
    case 'uncertain':
      // Not decided yet (a 3-D Secure challenge may still complete): no new checkout is offered, the page asks again.
      if (answer.retryAfterSeconds === undefined) return unconfirmed(answer, order);
      setTimeout(load, (answer.retryAfterSeconds + 1) * 1000);
      return html`<h1>Checking your payment…</h1>
        ${notice('wait', 'Your payment is not decided yet', html`<p>${answer.message}</p><p>We will check again in ${answer.retryAfterSeconds} seconds. Please do not pay again.</p>`)}`;
    default:
      return unconfirmed(answer, order);
  }
}

function unconfirmed(answer: Answer, order: OrderView): TemplateResult {
  return html`<h1>We could not confirm your payment</h1>
        ${notice('bad', answer.outcome === 'mismatch' ? 'The payment does not match the order' : "The payment's outcome is not known", html`<p>${answer.message}</p><p>The order is not shipped until this is resolved.</p>`)}
        ${attemptsTable(order.attempts)}`;
}

async function load(): Promise<void> {
  render(
    html`<h1>Checking your payment…</h1><p class="muted" role="status">Asking the shop's server for the gateway's answer.</p>`,
    content,
  );
  try {
    const answer = await api<Answer>(
      'GET',
      `/orders/${encodeURIComponent(orderId)}/payment?${new URLSearchParams({ id: query.get('id') ?? '', resourcePath: query.get('resourcePath') ?? '' })}`,
      'Back from the widget: read and verify the status',
    );
    render(view(answer), content);
  } catch (error) {
    render(
      html`<h1>Your order</h1>${notice('bad', 'The payment status could not be read', html`<p>${messageOf(error)}</p><p><a href="/">Back to the shop</a></p>`)}`,
      content,
    );
  }
  content.focus();
}

await load();
