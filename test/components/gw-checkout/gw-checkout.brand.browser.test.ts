/**
 * `gw-before-submit`'s `brand` after the widget is loaded again (a new checkout-id): the brand the last form
 * reported is not carried over to the new form's payment, which the widget reports no change for when it pays with
 * the brand it preselects.
 */
import { expect, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-checkout/define.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { createCheckout, mountReady, pay, settingsFor } from './support.js';

afterEach(async () => {
  for (const element of document.querySelectorAll('gw-checkout')) element.remove();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe('the brand in gw-before-submit after a new checkout', () => {
  it('names the brand of the card actually paid with on the new checkout', async () => {
    const [first, second] = await Promise.all([createCheckout(), createCheckout()]);
    const element = await mountReady(settingsFor(first));
    // The shopper starts typing a Mastercard on the first checkout's form.
    const number = element.querySelector<HTMLInputElement>('.wpwl-control-cardNumber')!;
    const changed = oneEvent(element, 'gw-brand-change');
    number.value = CARDS.approvedMaster;
    number.dispatchEvent(new Event('input', { bubbles: true }));
    expect((await changed).detail.brand).to.equal('MASTER');
    // The cart changes: a new checkout; the shopper pays with a VISA card on the new form.
    element.checkoutId = second.id;
    element.integrity = second.integrity;
    await oneEvent(element, 'gw-ready');
    expect(element.querySelector<HTMLSelectElement>('select.wpwl-control-brand')!.value, 'the new form preselects VISA').to.equal('VISA');
    const submitting = oneEvent(element, 'gw-before-submit');
    element.addEventListener('gw-before-submit', (event) => event.preventDefault(), { once: true });
    pay(element, CARDS.approved);
    const event = await submitting;
    expect(event.detail.checkoutId).to.equal(second.id);
    expect(element.querySelector<HTMLSelectElement>('select.wpwl-control-brand')!.value, 'the form pays with VISA').to.equal('VISA');
    expect(event.detail.brand, 'gw-before-submit names the brand being paid with').to.equal('VISA');
  });
});
