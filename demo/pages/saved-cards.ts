/**
 * Saved cards: the shopper saves a card without paying (a registration-only
 * checkout in `<gw-checkout>`, loaded as `{id}/registration`), pays in one
 * click with a saved card (a checkout naming the saved registrations, which
 * the widget lists), and deletes a card. The shop keeps only the registration
 * id, brand, last 4 digits and expiry; the widget sends the shopper back here,
 * and the shop's server reads what happened.
 */
import 'gw-elements';
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { actionRunner, money, mountPage, notice, type PageNotice } from '../lib/layout.js';
import { testCardTable } from '../lib/test-cards.js';
import type { CheckoutView, PaymentAnswer, SavedCardView } from '../server/views.js';

const content = mountPage();
const config = await shopConfig();

type Flow = 'save' | 'pay';
let cards: SavedCardView[] = [];
/** The checkout in the widget, if the shopper started one. */
let open: { flow: Flow; checkout: CheckoutView & { amount?: string } } | undefined;
let last: PageNotice | undefined;

const TITLES: Record<Flow, string> = { save: 'Card saved', pay: 'Paid in one click' };

function report(flow: Flow, outcome: PaymentAnswer): void {
  if (outcome.outcome === 'approved') last = { tone: 'ok', title: TITLES[flow], text: outcome.message };
  else if (outcome.outcome === 'pending')
    last = { tone: 'wait', title: flow === 'save' ? 'No card saved' : 'Not paid yet', text: outcome.message };
  else last = { tone: 'bad', title: flow === 'save' ? 'The card was not saved' : 'Not paid', text: outcome.message };
}

const actions = actionRunner(
  () => draw(),
  (notice) => (last = notice),
);

const start = (flow: Flow) =>
  actions.run(async () => {
    last = undefined;
    const checkout =
      flow === 'save'
        ? await api<CheckoutView>('POST', '/saved-cards/save-checkout', 'Save a card: a registration-only checkout')
        : await api<CheckoutView & { amount: string }>(
            'POST',
            '/saved-cards/one-click-checkout',
            'One click: a checkout with the saved cards',
          );
    open = { flow, checkout };
  });

const remove = (card: SavedCardView) =>
  actions.run(async () => {
    const answer = await api<PaymentAnswer & { cards: SavedCardView[] }>(
      'POST',
      `/saved-cards/${encodeURIComponent(card.registrationId)}/delete`,
      'Delete the saved card',
    );
    cards = answer.cards;
    last =
      answer.outcome === 'approved'
        ? { tone: 'ok', title: 'Card deleted', text: `${card.paymentBrand} •••• ${card.last4Digits} is no longer saved.` }
        : { tone: 'bad', title: 'The card was not deleted', text: answer.message };
  });

function widget(flow: Flow, checkout: CheckoutView & { amount?: string }) {
  const resultUrl = new URL(`/saved-cards.html?return=${flow}`, location.href).href;
  return html`<section class="panel" aria-labelledby="widget-title">
    <h2 id="widget-title">${flow === 'save' ? 'Save a card' : `Pay ${money(checkout.amount ?? '0')} in one click`}</h2>
    <p class="muted">
      ${flow === 'save' ? 'The gateway checks the card and saves it. Nothing is charged.' : 'Choose a saved card and press Pay now, or pay with another card.'}
    </p>
    <gw-checkout
      checkout-id=${checkout.checkoutId}
      integrity=${checkout.integrity}
      expires-at=${checkout.expiresAt}
      base-url=${config.gatewayUrl}
      shopper-result-url=${resultUrl}
      brands="VISA MASTER"
      locale="en"
    ></gw-checkout>
    ${testCardTable(config.testCards, (behaviour) => behaviour.kind === 'approve' || behaviour.kind === 'decline', 'Test cards')}
    <button type="button" class="secondary" @click=${() => ((open = undefined), draw())}>Cancel</button>
  </section>`;
}

function cardList() {
  if (!cards.length) return html`<p class="muted">No saved cards yet.</p>`;
  return html`<table class="data">
    <caption class="visually-hidden">Saved cards</caption>
    <thead><tr><th scope="col">Card</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>
      ${cards.map(
        (card) => html`<tr>
          <td>${card.paymentBrand} •••• ${card.last4Digits}</td>
          <td>${card.expiry}</td>
          <td><button type="button" class="secondary" ?disabled=${actions.busy} aria-label=${`Delete ${card.paymentBrand} •••• ${card.last4Digits}`} @click=${() => remove(card)}>Delete</button></td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

function draw(): void {
  render(
    html`
      <h1>Saved cards</h1>
      <p class="lede">Save a card without paying, then pay in one click. The shop keeps only the gateway's registration id, the brand, the last 4 digits and the expiry.</p>
      ${last ? notice(last.tone, last.title, last.text) : ''}
      <section class="panel" aria-labelledby="cards-title">
        <h2 id="cards-title">Your saved cards</h2>
        ${cardList()}
        ${
          open
            ? ''
            : html`<div class="actions">
              <button type="button" ?disabled=${actions.busy} @click=${() => start('save')}>Save a card</button>
              <button type="button" ?disabled=${actions.busy || !cards.length} @click=${() => start('pay')}>Buy a bag of coffee in one click</button>
            </div>`
        }
      </section>
      ${open ? widget(open.flow, open.checkout) : ''}
    `,
    content,
  );
}

/** Back from the widget: the shop's server reads what happened at the gateway. */
async function readReturn(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const flow = query.get('return');
  if (flow !== 'save' && flow !== 'pay') return;
  const read = new URLSearchParams({ id: query.get('id') ?? '', resourcePath: query.get('resourcePath') ?? '' });
  // The return is read once per visit; a reload of the clean URL shows the list.
  history.replaceState(null, '', location.pathname);
  if (flow === 'save')
    report('save', await api<PaymentAnswer>('GET', `/saved-cards/save-return?${read}`, 'Back from saving: read the registration'));
  else report('pay', await api<PaymentAnswer>('GET', `/saved-cards/pay-return?${read}`, 'Back from one click: read the payment'));
}

await actions.run(async () => {
  await readReturn();
  cards = (await api<{ cards: SavedCardView[] }>('GET', '/saved-cards', 'Load the saved cards')).cards;
});
