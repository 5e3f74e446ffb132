/**
 * Preauthorisation: hold an amount on the card when the order is placed,
 * capture it in parts as items ship, refund a capture when something comes back.
 */
import { html, render } from 'lit';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { messageOf, money, mountPage, notice } from '../lib/layout.js';
import { paymentsTable } from '../lib/payments-table.js';
import { testCardOptions } from '../lib/test-cards.js';
import type { PaymentAnswer, PaymentView, ReservationView } from '../server/views.js';

const content = mountPage();
const config = await shopConfig();

let reservations: ReservationView[] = (await api<{ reservations: ReservationView[] }>('GET', '/reservations', 'Load the orders'))
  .reservations;
let cardNumber: string = CARDS.approved;
let holdAmount = '120.00';
const captureAmounts = new Map<string, string>();
let last: { tone: 'ok' | 'bad'; title: string; text: string } | undefined;
let busy = false;

function replace(reservation: ReservationView): void {
  const id = reservation.preauthorization.id;
  reservations = [reservation, ...reservations.filter((candidate) => candidate.preauthorization.id !== id)];
}

/** Runs one action against the shop's server and shows its outcome. */
async function act(label: string, path: string, body: unknown, success: string): Promise<void> {
  busy = true;
  draw();
  try {
    const answer = await api<PaymentAnswer & { reservation?: ReservationView }>('POST', path, label, body);
    if (answer.reservation) replace(answer.reservation);
    last =
      answer.outcome === 'approved'
        ? { tone: 'ok', title: success, text: answer.message }
        : { tone: 'bad', title: `${label}: not done`, text: answer.message };
  } catch (error) {
    last = { tone: 'bad', title: `${label}: failed`, text: messageOf(error) };
  }
  busy = false;
  draw();
}

const hold = (event: SubmitEvent) => {
  event.preventDefault();
  return act('Place order: preauthorise', '/reservations', { cardNumber, amount: holdAmount }, `Held ${money(holdAmount)} on the card`);
};

function reservationView(reservation: ReservationView) {
  const pa = reservation.preauthorization;
  const captureAmount =
    captureAmounts.get(pa.id) ??
    (reservation.remainingAmount === pa.amount ? (Number(pa.amount) / 2).toFixed(2) : reservation.remainingAmount);
  const path = `/reservations/${encodeURIComponent(pa.id)}`;
  // What is left of a capture to refund: once it is all refunded, the gateway would refuse another (700.400.200).
  const refund = (capture: PaymentView) => {
    const refundable = reservation.refundable[capture.id];
    if (capture.paymentType !== 'CP' || refundable === undefined) return '';
    const left = refundable !== '0.00';
    return html`<button type="button" class="secondary" ?disabled=${busy || !left} title=${left ? `Refund ${money(refundable)}` : 'Refunded in full'} @click=${() =>
      act(
        'Refund the capture',
        `${path}/refunds`,
        { captureId: capture.id, amount: refundable },
        `Refunded ${money(refundable)}`,
      )}>${left ? 'Refund' : 'Refunded'}</button>`;
  };
  const approved = pa.kind === 'approved';
  // A reversal releases the whole hold, so the platform allows it only before anything was captured (else 700.400.300).
  const canReverse = approved && !reservation.reversed && reservation.capturedAmount === '0.00';
  const canCapture = approved && !reservation.reversed && reservation.remainingAmount !== '0.00';
  return html`<article class="panel" aria-labelledby="order-${pa.id}">
    <h2 id="order-${pa.id}">Order ${pa.merchantTransactionId}</h2>
    <div class="row">
      <div><span class="muted">Held</span><br /><strong>${money(pa.amount)}</strong></div>
      <div><span class="muted">Captured</span><br /><strong>${money(reservation.capturedAmount)}</strong></div>
      <div><span class="muted">Still held</span><br /><strong>${money(reservation.remainingAmount)}</strong></div>
      <div><span class="muted">Refunded</span><br /><strong>${money(reservation.refundedAmount)}</strong></div>
    </div>
    <form class="actions" @submit=${(event: SubmitEvent) => {
      event.preventDefault();
      const amount = String(new FormData(event.target as HTMLFormElement).get('amount') ?? '');
      captureAmounts.set(pa.id, amount);
      return act('Ship items: capture', `${path}/captures`, { amount }, `Captured ${money(amount)}`);
    }}>
      <label for="capture-${pa.id}">Capture (EUR)</label>
      <input id="capture-${pa.id}" name="amount" class="narrow" inputmode="decimal" .value=${captureAmount} ?disabled=${!canCapture} />
      <button type="submit" ?disabled=${busy || !canCapture}>Capture</button>
      <button type="button" class="secondary" ?disabled=${busy || !canReverse} @click=${() => act('Cancel the order: reverse', `${path}/reversal`, {}, 'Hold released')}>Reverse</button>
    </form>
    ${reservation.reversed ? html`<p class="muted">Reversed: the hold on the card is released, nothing more can be captured.</p>` : ''}
    ${paymentsTable([pa, ...reservation.captures, ...reservation.refunds, ...reservation.reversals], `Payments of order ${pa.merchantTransactionId}`, refund)}
  </article>`;
}

function draw(): void {
  render(
    html`
      <h1>Preauthorisation, captures and refunds</h1>
      <p class="lede">Hold the order's amount when it is placed (paymentType PA), capture what ships (CP, several partial captures are allowed), refund a capture when goods come back (RF), or reverse the hold when the order is cancelled before anything shipped (RV). Captures, refunds and the reversal are filed under the order's reference, so a report by it lists them all.</p>
      ${last ? notice(last.tone, last.title, last.text) : ''}
      <form class="panel stack" @submit=${hold} aria-labelledby="hold-title">
        <h2 id="hold-title">Place an order</h2>
        <div class="row">
          <div class="field">
            <label for="hold-card">Test card</label>
            <select id="hold-card" @change=${(event: Event) => (cardNumber = (event.target as HTMLSelectElement).value)}>
              ${testCardOptions(config.testCards, (behaviour) => behaviour.kind === 'approve' || behaviour.kind === 'decline', cardNumber)}
            </select>
          </div>
          <div class="field">
            <label for="hold-amount">Amount (EUR)</label>
            <input id="hold-amount" inputmode="decimal" .value=${holdAmount} @change=${(event: Event) => (holdAmount = (event.target as HTMLInputElement).value)} />
          </div>
        </div>
        <div class="actions"><button type="submit" ?disabled=${busy}>Place order and hold the amount</button></div>
      </form>
      ${reservations.map(reservationView)}
    `,
    content,
  );
}

draw();
