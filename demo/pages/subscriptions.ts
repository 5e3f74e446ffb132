/**
 * A subscription: the shopper signs up once (a customer-initiated payment
 * through 3-D Secure that saves the card), then the shop charges the saved
 * card every month without them (merchant-initiated repeats naming the first
 * payment's CardholderInitiatedTransactionID). "Next month" moves the
 * sandbox's clock a month forward and runs the shop's billing.
 */
import 'gw-elements';
import { html, render } from 'lit';
import type { ThreeDsRedirect } from 'gw-elements/3ds-handler';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { api } from '../lib/api.js';
import { shopperBrowser } from '../lib/shopper-browser.js';
import { shopConfig } from '../lib/config.js';
import { messageOf, money, mountPage, notice } from '../lib/layout.js';
import { paymentsTable } from '../lib/payments-table.js';
import { testCardOptions } from '../lib/test-cards.js';
import type { PaymentAnswer, SubscriptionView } from '../server/views.js';

const content = mountPage();
const config = await shopConfig();

interface SubscriptionsAnswer {
  readonly plan: SubscriptionView['plan'];
  readonly subscriptions: SubscriptionView[];
  readonly now: string;
  readonly canMoveClock: boolean;
}

let state = await api<SubscriptionsAnswer>('GET', '/subscriptions', 'Load the subscriptions');
type Step = { kind: 'form' } | { kind: 'three-ds'; redirect: ThreeDsRedirect } | { kind: 'busy' };
let step: Step = { kind: 'form' };
let cardNumber: string = CARDS.challenge;
let last: { tone: 'ok' | 'bad'; title: string; text: string } | undefined;

const date = (iso: string) => new Intl.DateTimeFormat('en-IE', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

async function refresh(): Promise<void> {
  state = await api<SubscriptionsAnswer>('GET', '/subscriptions', 'Load the subscriptions');
}

/** Shows an answer's outcome; a sign-up or charge that did not go through is an alert. */
function report(outcome: PaymentAnswer, approvedTitle: string): void {
  last =
    outcome.outcome === 'approved'
      ? { tone: 'ok', title: approvedTitle, text: outcome.message }
      : { tone: 'bad', title: 'Not charged', text: outcome.message };
}

async function run(action: () => Promise<void>): Promise<void> {
  step = { kind: 'busy' };
  draw();
  try {
    await action();
  } catch (error) {
    last = { tone: 'bad', title: 'The request failed', text: messageOf(error) };
  }
  if (step.kind === 'busy') step = { kind: 'form' };
  await refresh().catch(() => {});
  draw();
}

const signUp = (event: SubmitEvent) => {
  event.preventDefault();
  return run(async () => {
    const answer = await api<PaymentAnswer & { redirect?: ThreeDsRedirect }>(
      'POST',
      '/subscriptions',
      'Sign up: first payment, customer-initiated',
      {
        cardNumber,
        challengeWindow: '03',
        browser: shopperBrowser(),
      },
    );
    if (answer.outcome === 'pending' && answer.redirect) step = { kind: 'three-ds', redirect: answer.redirect };
    else report(answer, 'Subscribed');
  });
};

async function onComplete(event: CustomEvent<{ id: string; resourcePath: string }>): Promise<void> {
  const { id, resourcePath } = event.detail;
  step = { kind: 'busy' };
  await run(async () => {
    report(
      await api<PaymentAnswer>(
        'GET',
        `/subscriptions/return?${new URLSearchParams({ id, resourcePath })}`,
        'Back from 3-D Secure: read and verify the first payment',
      ),
      'Subscribed',
    );
  });
}

function onThreeDsError(event: CustomEvent<{ code: string; message: string }>): void {
  last = { tone: 'bad', title: 'Not subscribed', text: `3-D Secure stopped (${event.detail.code}): ${event.detail.message}` };
  step = { kind: 'form' };
  draw();
}

const nextMonth = () =>
  run(async () => {
    const answer = await api<SubscriptionsAnswer & { charges: PaymentAnswer[] }>(
      'POST',
      '/subscriptions/next-month',
      'Next month: the shop charges the saved cards',
    );
    const approved = answer.charges.filter((charge) => charge.outcome === 'approved').length;
    last =
      answer.charges.length === approved
        ? {
            tone: 'ok',
            title: `${approved} monthly ${approved === 1 ? 'charge' : 'charges'} approved`,
            text: 'Charged without the shopper: merchant-initiated, no 3-D Secure.',
          }
        : {
            tone: 'bad',
            title: `${answer.charges.length - approved} of ${answer.charges.length} charges not approved`,
            text: answer.charges.map((charge) => charge.message).join(' '),
          };
  });

const cancel = (id: string) =>
  run(async () => {
    await api('POST', `/subscriptions/${encodeURIComponent(id)}/cancel`, 'Cancel: delete the saved card');
    last = {
      tone: 'ok',
      title: 'Subscription cancelled',
      text: 'The saved card was deleted at the gateway: no further charge can be made on it.',
    };
  });

function subscriptionView(subscription: SubscriptionView) {
  return html`<article class="panel stack" aria-labelledby=${`title-${subscription.id}`}>
    <h2 id=${`title-${subscription.id}`}>${subscription.plan.name} <span class="muted">(${subscription.id})</span></h2>
    <div class="row">
      <div><span class="muted">Status</span><br /><strong>${subscription.status.replace('_', ' ')}</strong></div>
      <div><span class="muted">Card</span><br /><strong>${subscription.card || '—'}</strong></div>
      <div><span class="muted">Months of coffee sent</span><br /><strong>${subscription.monthsFulfilled}</strong></div>
      ${subscription.status === 'active' ? html`<div><span class="muted">Next charge</span><br /><strong>${date(subscription.nextChargeAt)}</strong></div>` : ''}
    </div>
    ${subscription.payments.length ? paymentsTable(subscription.payments, `Payments of ${subscription.id}`) : ''}
    ${
      subscription.status === 'active'
        ? html`<div class="actions"><button type="button" class="secondary" ?disabled=${step.kind === 'busy'} @click=${() => cancel(subscription.id)}>Cancel subscription</button></div>`
        : ''
    }
  </article>`;
}

function draw(): void {
  const active = state.subscriptions.some((subscription) => subscription.status === 'active');
  render(
    html`
      <h1>Subscriptions</h1>
      <p class="lede">Sign up once with 3-D Secure; the shop then charges the saved card every month without the shopper. Each approved payment sends one month of coffee, however often the shop hears of it (its own answer, the shopper's return, notifications).</p>
      ${last ? notice(last.tone, last.title, last.text) : ''}
      ${
        step.kind === 'three-ds'
          ? html`<section class="panel" aria-labelledby="three-ds-title">
            <h2 id="three-ds-title">Verify it's you</h2>
            <p class="muted">Your bank asks you to confirm the first payment of ${money(state.plan.amount)}.</p>
            <gw-3ds-handler .redirect=${step.redirect} challenge-window="03" @gw-3ds-complete=${onComplete} @gw-error=${onThreeDsError}></gw-3ds-handler>
          </section>`
          : html`<form class="panel stack" @submit=${signUp} aria-labelledby="sign-up-title">
            <h2 id="sign-up-title">Join the ${state.plan.name}: ${money(state.plan.amount)} a month</h2>
            <div class="field">
              <label for="sub-card">Test card</label>
              <select id="sub-card" @change=${(event: Event) => (cardNumber = (event.target as HTMLSelectElement).value)}>
                ${testCardOptions(config.testCards, (behaviour) => behaviour.kind === 'threeDs' || behaviour.kind === 'approve' || behaviour.kind === 'decline', cardNumber)}
              </select>
            </div>
            <div class="actions"><button type="submit" ?disabled=${step.kind === 'busy'}>Subscribe</button></div>
          </form>`
      }
      ${
        state.canMoveClock
          ? html`<section class="panel stack" aria-labelledby="clock-title">
            <h2 id="clock-title">The shop's calendar</h2>
            <p>Today on the gateway's clock: <strong>${date(state.now)}</strong></p>
            <div class="actions"><button type="button" ?disabled=${step.kind === 'busy' || !active} @click=${nextMonth}>Next month: charge the subscriptions</button></div>
          </section>`
          : ''
      }
      ${state.subscriptions.map(subscriptionView)}
    `,
    content,
  );
}

draw();
