/**
 * <gw-checkout> with the platform's brand names: `brands` as a typed list or as the attribute's
 * space-separated spelling, wallets beside cards, and wallet settings passed through wpwlOptions,
 * against the real sandbox and its widget.
 */
import { expect, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-checkout/define.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
import { merchantCall } from '../../support/gateway.js';
import { createCheckout, mount, settingsFor, shopperResultUrl, until } from './support.js';

afterEach(() => {
  for (const element of document.querySelectorAll('gw-checkout')) element.remove();
});

describe('<gw-checkout> brands', () => {
  it("defaults to VISA MASTER and reads the attribute as a list, the property written back as the attribute's spelling", async () => {
    const element = document.createElement('gw-checkout') as GwCheckout;
    expect(element.brands).to.deep.equal(['VISA', 'MASTER']);
    element.setAttribute('brands', '  MADA   APPLEPAY STC_PAY ');
    expect(element.brands).to.deep.equal(['MADA', 'APPLEPAY', 'STC_PAY']);
  });

  it("passes wallets and cards to the widget's form, which shows the wallet buttons beside the card form, with the wallet settings", async () => {
    const checkout = await createCheckout();
    const element = mount({
      ...settingsFor(checkout),
      brands: ['GOOGLEPAY', 'VISA', 'MASTER'],
      options: { googlePay: { gatewayMerchantId: 'entity', merchantName: 'Typed Shop' } },
    });
    await oneEvent(element, 'gw-ready');
    const form = element.querySelector<HTMLFormElement>('form.paymentWidgets')!;
    expect(form.dataset.brands).to.equal('GOOGLEPAY VISA MASTER');
    expect(form.action).to.equal(shopperResultUrl);
    element.querySelector<HTMLButtonElement>('button.wpwl-google-pay-button')!.click();
    const sheet = document.querySelector<HTMLDialogElement>('dialog.wpwl-wallet-sheet')!;
    expect(sheet.textContent).to.include('Typed Shop');
    sheet.querySelector<HTMLButtonElement>('.wpwl-wallet-sheet-cancel')!.click();
    expect(element.querySelector('.wpwl-control-cardNumber')).to.not.equal(null);
  });

  it('changing brands reloads the widget with the new form', async () => {
    const element = mount({ ...settingsFor(await createCheckout()), brands: ['VISA'] });
    await oneEvent(element, 'gw-ready');
    element.checkoutId = (await createCheckout()).id;
    element.brands = ['MASTER', 'GOOGLEPAY'];
    await until(
      () =>
        element.querySelector<HTMLFormElement>('form.paymentWidgets')?.dataset.brands === 'MASTER GOOGLEPAY' &&
        element.querySelector('.wpwl-google-pay-button') !== null,
      'the new form',
    );
  });

  it("brands set to undefined or null (a framework's unset binding) loads the default VISA MASTER", async () => {
    const element = mount({ ...settingsFor(await createCheckout()), brands: ['VISA'] });
    await oneEvent(element, 'gw-ready');
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent) => void errors.push(event.error);
    window.addEventListener('error', onError);
    (element as unknown as { brands: unknown }).brands = undefined;
    await until(() => element.state === 'loading', 'a reload', 2000);
    await until(() => element.state === 'ready', 'ready again');
    window.removeEventListener('error', onError);
    expect(errors, 'nothing thrown').to.deep.equal([]);
    expect(element.querySelector<HTMLFormElement>('form.paymentWidgets')!.dataset.brands).to.equal('VISA MASTER');
    (element as unknown as { brands: unknown }).brands = null;
    await element.updateComplete;
    expect(element.state, 'the same settings: nothing to reload').to.equal('ready');
  });
});

describe('<gw-checkout> wallet payments', () => {
  it('a wallet payment being sent when expires-at passes is never told it expired, nor loses its widget; back on the form, it expires', async () => {
    const checkout = await createCheckout();
    // The sandbox holds the wallet payment open: the shopper approved it in the sheet just before the deadline.
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'hang', count: '1' });
    const element = mount({
      ...settingsFor(checkout),
      brands: ['GOOGLEPAY', 'VISA'],
      options: { googlePay: { gatewayMerchantId: 'entity' } },
      expiresAt: new Date(Date.now() + 60_000),
    });
    await oneEvent(element, 'gw-ready');
    let expired = 0;
    element.addEventListener('gw-expired', () => expired++);
    // The end is brought near once the widget shows (gw-ready could come late), the payment sent in the same task.
    element.expiresAt = new Date(Date.now() + 1500);
    element.querySelector<HTMLButtonElement>('button.wpwl-google-pay-button')!.click();
    const sheet = document.querySelector<HTMLDialogElement>('dialog.wpwl-wallet-sheet')!;
    sheet.querySelector<HTMLButtonElement>('.wpwl-wallet-sheet-approve')!.click();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(expired, 'no gw-expired while the payment is being sent').to.equal(0);
    expect(element.state).to.equal('ready');
    expect(element.querySelector('form.paymentWidgets'), 'the widget stays').to.not.equal(null);
    expect(sheet.isConnected, 'the sheet stays').to.equal(true);
    // Back on the form, as the widget leaves it after a refused wallet payment (the sheet closed, the wallet's button
    // usable again): the deadline has passed.
    sheet.remove();
    element.querySelector<HTMLButtonElement>('button.wpwl-google-pay-button')!.disabled = false;
    await until(() => element.state === 'expired', 'expired once back on the form', 3000);
    expect(expired).to.equal(1);
  });
});
