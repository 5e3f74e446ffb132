/**
 * Two <gw-checkout> showing one checkout (a cards form and another brand set, as the docs allow: they share one
 * widget). A payment sent from one is the checkout's: the other never says "expired" meanwhile; and a saved card's
 * payment (which the widget starts with an event it never dispatched) puts only the element holding the saved cards
 * in `submitting`, so after a decline both are back on the form and the shopper can pay again. Both given the next
 * checkout at once, both show it from one widget (the first to sync met the last one's widget still shown, and failed).
 */
import { expect } from '@open-wc/testing';
import '../../../src/components/gw-checkout/define.js';
import { classifyResult } from '../../../src/contract/result-codes.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { merchantCall } from '../../support/gateway.js';
import { createCheckout, mount, pay, sandboxUrl, settingsFor, shopperResultUrl, until, widgetScripts } from './support.js';

const EXPIRY_YEAR = String(new Date().getFullYear() + 3);

afterEach(async () => {
  for (const element of document.querySelectorAll('gw-checkout')) element.remove();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe('the deadline passes while the other element of the checkout is sending its payment', () => {
  it('no gw-expired from either element while the payment is being sent', async () => {
    const checkout = await createCheckout();
    // The sandbox holds the card submission open: the payment stays under way.
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'hang', count: '1' });
    const paying = mount({ ...settingsFor(checkout), brands: ['VISA'] });
    const other = mount({ ...settingsFor(checkout), brands: ['MASTER'] });
    await until(() => paying.state === 'ready' && other.state === 'ready', 'both ready', 8_000);
    const expired: string[] = [];
    for (const element of [paying, other])
      element.addEventListener('gw-expired', (event) =>
        expired.push(`${element === paying ? 'paying' : 'other'} ${event.detail.checkoutId}`),
      );
    pay(paying, CARDS.approved);
    expect(paying.state).to.equal('submitting');
    // The server's deadline for the checkout (creation + 30 minutes) is half a second away.
    const expiresAt = new Date(Date.now() + 500);
    paying.expiresAt = other.expiresAt = expiresAt;
    await until(() => Date.now() > expiresAt.getTime() + 2_000, 'past the deadline', 8_000);
    expect(paying.state, 'the payment is still being sent').to.equal('submitting');
    expect(expired, 'nobody is told "expired" while the payment is being sent').to.deep.equal([]);
  });
});

async function savedCard(number: string): Promise<string> {
  const { body } = await merchantCall('POST', '/v1/registrations', {
    paymentBrand: 'VISA',
    'card.number': number,
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': EXPIRY_YEAR,
    'card.cvv': '123',
  });
  if (classifyResult(body.result?.code) !== 'approved') throw new Error(`card not saved: ${JSON.stringify(body.result)}`);
  return body.id;
}

describe('two elements of one one-click checkout', () => {
  it('after a declined saved card, both elements are back to ready and the shopper can pay again', async () => {
    const registration = await savedCard(CARDS.declined);
    const { body } = await merchantCall('POST', '/v1/checkouts', {
      amount: '9.90',
      currency: 'EUR',
      paymentType: 'DB',
      integrity: 'true',
      'registrations[0].id': registration,
    });
    const settings = { checkoutId: body.id, integrity: body.integrity, baseUrl: sandboxUrl, shopperResultUrl };
    const cards = mount({ ...settings, brands: ['VISA'] });
    const other = mount({ ...settings, brands: ['MASTER'] });
    await until(() => cards.state === 'ready' && other.state === 'ready', 'both ready', 8000);
    const savedForm = document.querySelector<HTMLFormElement>('form.wpwl-form-registrations')!;
    const savedButton = savedForm.querySelector<HTMLButtonElement>('.wpwl-button-pay')!;
    savedButton.click();
    await until(() => savedButton.disabled, 'the saved card payment is sent');
    await until(() => !savedButton.disabled, 'declined: the saved card button is enabled again');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const states = [cards.state, other.state];
    // The shopper tries again with the card form: the session must let it through.
    let asked = 0;
    cards.addEventListener('gw-before-submit', () => asked++);
    const again = (window as any).wpwlOptions.onBeforeSubmitCard(
      Object.defineProperty(new Event('submit'), 'target', { value: cards.querySelector('form.paymentWidgets') }),
    );
    expect({ states, again, asked }, 'both back on the form after the decline, and a new payment is allowed').to.deep.equal({
      states: ['ready', 'ready'],
      again: true,
      asked: 1,
    });
  });
});

describe('two elements of one checkout, both given the next checkout in one task (a cart change)', () => {
  it('both end ready on the new checkout, no gw-error', async () => {
    const [first, second] = await Promise.all([createCheckout(), createCheckout()]);
    const cards = mount({ ...settingsFor(first), brands: ['VISA'] });
    const wallets = mount({ ...settingsFor(first), brands: ['MASTER'] });
    await until(() => cards.state === 'ready' && wallets.state === 'ready', 'both ready on the first checkout', 8000);
    const errors: string[] = [];
    for (const element of [cards, wallets]) element.addEventListener('gw-error', (event) => errors.push(event.detail.message));
    for (const element of [cards, wallets]) {
      element.checkoutId = second.id;
      element.integrity = second.integrity;
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect({ states: [cards.state, wallets.state], errors }).to.deep.equal({ states: ['ready', 'ready'], errors: [] });
    expect(widgetScripts()).to.have.length(1);
  });
});
