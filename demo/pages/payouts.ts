/**
 * Payouts to a registered card: save the card once (a registration without a
 * payment), then send credits (paymentType CD) against its registrationId
 * without handling the card number again.
 */
import { html, render } from 'lit';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { actionRunner, money, mountPage, notice, type PageNotice } from '../lib/layout.js';
import { paymentsTable } from '../lib/payments-table.js';
import { testCardOptions } from '../lib/test-cards.js';
import type { PaymentAnswer, PaymentView, PayoutCardView } from '../server/views.js';

const content = mountPage();
const config = await shopConfig();

let payoutCards = (await api<{ payoutCards: PayoutCardView[] }>('GET', '/payout-cards', 'Load the saved cards')).payoutCards;
let cardNumber: string = CARDS.approved;
let holder = 'Jane Jones';
let registrationId = payoutCards[0]?.registrationId ?? '';
let amount = '25.00';
const payouts: PaymentView[] = [];
let last: PageNotice | undefined;

const actions = actionRunner(
  () => draw(),
  (notice) => (last = notice),
);

const saveCard = (event: SubmitEvent) => {
  event.preventDefault();
  return actions.run(async () => {
    const answer = await api<PaymentAnswer & { payoutCard?: PayoutCardView }>('POST', '/payout-cards', 'Save the card (registration)', {
      cardNumber,
      holder,
    });
    if (answer.payoutCard) {
      payoutCards = [answer.payoutCard, ...payoutCards];
      registrationId = answer.payoutCard.registrationId;
      last = { tone: 'ok', title: 'Card saved', text: `registrationId ${answer.payoutCard.registrationId}. No money was held to save it.` };
    } else last = { tone: 'bad', title: 'The card was not saved', text: answer.message };
  });
};

const payOut = (event: SubmitEvent) => {
  event.preventDefault();
  return actions.run(async () => {
    const answer = await api<PaymentAnswer>('POST', '/payouts', 'Send a payout', { registrationId, amount });
    if (answer.payment) payouts.unshift(answer.payment);
    last =
      answer.outcome === 'approved'
        ? { tone: 'ok', title: `Sent ${money(amount)}`, text: answer.message }
        : { tone: 'bad', title: 'The payout was not sent', text: answer.message };
  });
};

function draw(): void {
  render(
    html`
      <h1>Payouts to a saved card</h1>
      <p class="lede">Pay a customer (a refund outside an order, winnings, a marketplace seller) with a credit to a card saved at the gateway. Only the registrationId is kept by the shop.</p>
      ${last ? notice(last.tone, last.title, last.text) : ''}
      <form class="panel stack" @submit=${saveCard} aria-labelledby="save-title">
        <h2 id="save-title">1. Save a card</h2>
        <div class="row">
          <div class="field">
            <label for="save-card">Test card</label>
            <select id="save-card" @change=${(event: Event) => (cardNumber = (event.target as HTMLSelectElement).value)}>
              ${testCardOptions(config.testCards, (behaviour) => behaviour.kind === 'approve', cardNumber)}
            </select>
          </div>
          <div class="field">
            <label for="holder">Card holder</label>
            <input id="holder" autocomplete="cc-name" .value=${holder} @change=${(event: Event) => (holder = (event.target as HTMLInputElement).value)} />
          </div>
        </div>
        <div class="actions"><button type="submit" ?disabled=${actions.busy}>Save card</button></div>
      </form>
      <form class="panel stack" @submit=${payOut} aria-labelledby="payout-title">
        <h2 id="payout-title">2. Send a payout</h2>
        ${
          payoutCards.length
            ? html`<fieldset class="field">
                <legend>Saved card</legend>
                ${payoutCards.map(
                  (
                    card,
                  ) => html`<label class="choice"><input type="radio" name="registration" .checked=${card.registrationId === registrationId}
                      @change=${() => (registrationId = card.registrationId)} /><span class="choice-text"><span>${card.card} · ${card.holder}</span> <code class="muted">${card.registrationId}</code></span></label>`,
                )}
              </fieldset>
              <div class="field">
                <label for="payout-amount">Amount (EUR)</label>
                <input id="payout-amount" inputmode="decimal" class="narrow" .value=${amount} @change=${(event: Event) => (amount = (event.target as HTMLInputElement).value)} />
              </div>
              <div class="actions"><button type="submit" ?disabled=${actions.busy || !registrationId}>Send payout</button></div>`
            : html`<p class="muted">Save a card first.</p>`
        }
      </form>
      ${payouts.length ? html`<section class="panel"><h2>Payouts sent</h2>${paymentsTable(payouts, 'Payouts sent')}</section>` : ''}
    `,
    content,
  );
}

draw();
