/**
 * A server-to-server card payment: the shop's server sends the card to the
 * gateway; when the issuer wants 3-D Secure, `<gw-3ds-handler>` runs the
 * method and challenge frames, and the server reads the final status.
 */
import 'gw-elements';
import { html, render } from 'lit';
import type { ThreeDsRedirect } from 'gw-elements/3ds-handler';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { api } from '../lib/api.js';
import { shopperBrowser } from '../lib/shopper-browser.js';
import { shopConfig } from '../lib/config.js';
import { messageOf, money, mountPage, notice } from '../lib/layout.js';
import { testCardOptions } from '../lib/test-cards.js';
import type { PaymentAnswer } from '../server/views.js';

const content = mountPage();
const config = await shopConfig();

const WINDOWS = [
  ['01', '250 × 400'],
  ['02', '390 × 400'],
  ['03', '500 × 600'],
  ['04', '600 × 400'],
  ['05', 'full page'],
] as const;

type Step =
  | { kind: 'form' }
  | { kind: 'sending' }
  | { kind: 'three-ds'; redirect: ThreeDsRedirect; paymentId: string; window: string }
  | { kind: 'done'; outcome: PaymentAnswer; paymentId?: string };
let step: Step = { kind: 'form' };
let cardNumber: string = CARDS.challenge;
let challengeWindow = '03';
let amount = '38.00';

async function pay(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  step = { kind: 'sending' };
  draw();
  try {
    const answer = await api<PaymentAnswer & { redirect?: ThreeDsRedirect }>(
      'POST',
      '/card-payments',
      'Pay: server-to-server card payment',
      {
        cardNumber,
        amount,
        challengeWindow,
        browser: shopperBrowser(),
      },
    );
    step =
      answer.outcome === 'pending' && answer.redirect && answer.payment
        ? { kind: 'three-ds', redirect: answer.redirect, paymentId: answer.payment.id, window: challengeWindow }
        : { kind: 'done', outcome: answer };
  } catch (error) {
    step = { kind: 'done', outcome: { outcome: 'failed', message: messageOf(error) } };
  }
  draw();
}

/** What the shop's server says of the payment, or "unknown" when it could not be asked: never "failed" for a payment sent. */
async function read(paymentId: string, path: string, label: string, before = ''): Promise<Step> {
  try {
    const outcome = await api<PaymentAnswer>('GET', path, label);
    return { kind: 'done', outcome: { ...outcome, message: `${before}${outcome.message}` }, paymentId };
  } catch (error) {
    const message = `${before}The payment could not be read (${messageOf(error)}). It may still be approved: do not pay again before it is read.`;
    return { kind: 'done', outcome: { outcome: 'uncertain', message }, paymentId };
  }
}

async function onComplete(event: CustomEvent<{ id: string; resourcePath: string }>): Promise<void> {
  const { id, resourcePath } = event.detail;
  const query = new URLSearchParams({ id, resourcePath });
  step = await read(id, `/card-payments/return?${query}`, 'Back from 3-D Secure: read and verify the status');
  draw();
}

/** The payment as it stands, read by the shop's server. */
const checkStatus = (paymentId: string, before = '') =>
  read(paymentId, `/card-payments/status?${new URLSearchParams({ id: paymentId })}`, 'Read the payment', before);

/**
 * 3-D Secure stopped on this page (`challenge-timeout`, a refused frame): the shopper may have authenticated and the
 * payment been approved, so it is read before anything is said.
 */
async function onThreeDsError(event: CustomEvent<{ code: string; message: string }>): Promise<void> {
  if (step.kind !== 'three-ds') return;
  step = await checkStatus(step.paymentId, `3-D Secure stopped on this page (${event.detail.code}). `);
  draw();
}

async function checkAgain(paymentId: string): Promise<void> {
  step = await checkStatus(paymentId);
  draw();
}

const threeDsCard = (kind: string) => kind === 'threeDs' || kind === 'approve' || kind === 'decline';

function outcomeView(outcome: PaymentAnswer) {
  const payment = outcome.payment;
  const detail = html`<p>${outcome.message}</p>${payment ? html`<p>Payment <code>${payment.id}</code> · ${payment.card} · <span class="badge">${payment.resultCode}</span> ${payment.resultDescription}</p>` : ''}`;
  if (outcome.outcome === 'approved') return notice('ok', `Paid ${money(payment?.amount ?? amount)}`, detail);
  if (outcome.outcome === 'declined') return notice('bad', 'The payment was declined', detail);
  if (outcome.outcome === 'pending') return notice('wait', 'The payment is not finished yet', detail);
  if (outcome.outcome === 'uncertain') return notice('wait', 'The payment is being checked', detail);
  return notice('bad', 'The payment did not go through', detail);
}

/** A payment that may still be approved is read again, never paid again; a settled one leaves room for another. */
function doneActions(done: Extract<Step, { kind: 'done' }>) {
  const open = done.outcome.outcome === 'pending' || done.outcome.outcome === 'uncertain';
  const { paymentId } = done;
  return open && paymentId
    ? html`<div class="actions"><button type="button" @click=${() => checkAgain(paymentId)}>Check again</button></div>`
    : html`<div class="actions"><button type="button" @click=${() => ((step = { kind: 'form' }), draw())}>Make another payment</button></div>`;
}

function draw(): void {
  render(
    html`
      <h1>Card payment with 3-D Secure</h1>
      <p class="lede">The shop's server sends the card details to the gateway (this needs a PCI DSS compliant server). When the issuer asks for 3-D Secure, the answer carries a redirect that <code>&lt;gw-3ds-handler&gt;</code> runs in frames.</p>
      ${
        step.kind === 'form' || step.kind === 'sending'
          ? html`<form class="panel stack" @submit=${pay} aria-labelledby="card-form-title">
            <h2 id="card-form-title">Pay ${money(amount)}</h2>
            <div class="field">
              <label for="card">Test card</label>
              <select id="card" @change=${(event: Event) => (cardNumber = (event.target as HTMLSelectElement).value)}>
                ${testCardOptions(config.testCards, (behaviour) => threeDsCard(behaviour.kind), cardNumber)}
              </select>
              <p class="help">Expiry, holder and security code are filled in for the demo.</p>
            </div>
            <div class="row">
              <div class="field">
                <label for="amount">Amount (EUR)</label>
                <input id="amount" inputmode="decimal" pattern="[0-9]{1,10}\\.[0-9]{2}" .value=${amount} @change=${(event: Event) => (amount = (event.target as HTMLInputElement).value)} />
              </div>
              <div class="field">
                <label for="window">Challenge window</label>
                <select id="window" @change=${(event: Event) => (challengeWindow = (event.target as HTMLSelectElement).value)}>
                  ${WINDOWS.map(([value, size]) => html`<option value=${value} ?selected=${value === challengeWindow}>${value} · ${size}</option>`)}
                </select>
              </div>
            </div>
            <div class="actions"><button type="submit" ?disabled=${step.kind === 'sending'}>${step.kind === 'sending' ? 'Sending…' : 'Pay'}</button></div>
          </form>`
          : ''
      }
      ${
        step.kind === 'three-ds'
          ? html`<section class="panel" aria-labelledby="three-ds-title">
            <h2 id="three-ds-title">Verify it's you</h2>
            <p class="muted">Your bank asks you to confirm this payment of ${money(amount)}.</p>
            <gw-3ds-handler .redirect=${step.redirect} challenge-window=${step.window} @gw-3ds-complete=${onComplete} @gw-error=${onThreeDsError}></gw-3ds-handler>
          </section>`
          : ''
      }
      ${step.kind === 'done' ? html`${outcomeView(step.outcome)} ${doneActions(step)}` : ''}
    `,
    content,
  );
}

draw();
