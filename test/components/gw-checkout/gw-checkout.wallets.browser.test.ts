/**
 * <gw-checkout> with the platform's brand names: `brands` as a typed list or as the attribute's
 * space-separated spelling, wallets beside cards, and wallet settings passed through wpwlOptions,
 * against the real sandbox and its widget.
 */
import { expect, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-checkout/define.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
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
});
