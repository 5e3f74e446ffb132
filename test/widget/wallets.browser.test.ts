/**
 * Wallets and MADA in the sandbox's paymentWidgets.js, in headless Chromium against the real
 * sandbox: the stand-in Apple Pay and Google Pay sheets, STC Pay's stand-in flow, and MADA cards
 * steered off a VISA/MASTER form, as a shopper meets them on a plain merchant page.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { classifyResult } from '../../src/contract/result-codes.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { STC_PAY_OTPS } from '../../src/contract/wallet-stand-in.js';
import { merchantCall } from '../support/gateway.js';
import {
  axeViolations,
  closePages,
  control,
  fill,
  openWidgetPage,
  pay,
  payButton,
  shopperResult,
  type,
  waitFor,
  type Checkout,
  type WidgetPage,
  checkoutFieldsSet,
} from './widget-page.js';

/** The sandbox's default MADA entity (DEFAULT_MADA_ENTITY_ID): MADA, APPLEPAY, APPLEPAYTKN and STC_PAY. */
import { DEFAULT_MADA_ENTITY_ID as MADA_ENTITY } from '../../src/sandbox/test-cards.js';

async function createCheckout(entityId?: string): Promise<Checkout> {
  const { body } = await merchantCall('POST', '/v1/checkouts', {
    ...(entityId ? { entityId } : {}),
    amount: '30.00',
    currency: 'SAR',
    paymentType: 'DB',
    integrity: 'true',
  });
  if (body.result?.code !== '000.200.100') throw new Error(`checkout not created: ${JSON.stringify(body.result)}`);
  return { id: body.id, integrity: body.integrity };
}

async function statusOf(result: URL, entityId?: string): Promise<Record<string, any>> {
  return (await merchantCall('GET', result.searchParams.get('resourcePath')!, entityId ? { entityId } : {})).body;
}

const sheet = (page: WidgetPage) => page.document.querySelector<HTMLDialogElement>('dialog.wpwl-wallet-sheet');
const click = (root: ParentNode, selector: string) => {
  const button = root.querySelector<HTMLButtonElement>(selector);
  if (!button) throw new Error(`no ${selector}`);
  button.click();
};

describe('sandbox payment widget: wallets and MADA', () => {
  afterEach(closePages);

  it('Apple Pay: the button opens a stand-in sheet that says so; Approve pays, reported as APPLEPAY without card data', async () => {
    const checkout = await createCheckout(MADA_ENTITY);
    const page = await openWidgetPage({
      checkout,
      forms: [{ brands: 'APPLEPAY' }],
      options: {
        applePay: {
          displayName: 'Gw Shop',
          total: { label: 'Gw Shop' },
          countryCode: 'SA',
          supportedNetworks: ['mada', 'visa', 'masterCard'],
          merchantCapabilities: ['supports3DS'],
        },
      },
    });
    await page.ready;
    const form = page.form();
    expect(form.querySelector('.wpwl-control-cardNumber'), 'a wallet-only form has no card form').to.equal(null);
    expect(page.errors).to.deep.equal([]);
    click(form, 'button.wpwl-apple-pay-button');
    const dialog = sheet(page)!;
    expect(dialog.open).to.equal(true);
    expect(dialog.textContent).to.include("sandbox's stand-in");
    expect(dialog.textContent).to.include('Gw Shop: 30.00 SAR');
    expect(await axeViolations(page, dialog), 'axe-core').to.deep.equal([]);
    click(dialog, '.wpwl-wallet-sheet-approve');
    const result = await shopperResult(page);
    const status = await statusOf(result, MADA_ENTITY);
    expect(classifyResult(status.result.code)).to.equal('approved');
    expect(status.paymentBrand).to.equal('APPLEPAY');
    expect(status.paymentType).to.equal('DB');
    expect(status.card).to.equal(undefined);
  });

  it('Google Pay: Decline keeps the shopper on the page with the decline message; Cancel calls onCancel and pays nothing', async () => {
    const checkout = await createCheckout();
    let cancelled = 0;
    const page = await openWidgetPage({
      checkout,
      forms: [{ brands: 'GOOGLEPAY VISA' }],
      options: { googlePay: { gatewayMerchantId: 'entity', merchantName: 'Gw Shop', onCancel: () => cancelled++ } },
    });
    await page.ready;
    const form = page.form();
    expect(control(form, 'cardNumber'), 'a form with wallets and cards has both').to.not.equal(null);
    click(form, 'button.wpwl-google-pay-button');
    click(sheet(page)!, '.wpwl-wallet-sheet-cancel');
    expect(cancelled).to.equal(1);
    expect(sheet(page)).to.equal(null);
    click(form, 'button.wpwl-google-pay-button');
    click(sheet(page)!, '.wpwl-wallet-sheet-decline');
    const alert = await waitFor(() => form.querySelector<HTMLElement>('.wpwl-message[role=alert]:not([hidden])'), 'the decline message');
    expect(alert!.textContent).to.include('declined');
    expect(sheet(page)).to.equal(null);
    expect(form.querySelector<HTMLButtonElement>('button.wpwl-google-pay-button')!.disabled, 'the wallet is usable again').to.equal(false);
    expect(page.frame.contentWindow!.location.href).to.equal('about:srcdoc');
    // The card form on the same checkout still pays.
    pay(form, { number: CARDS.approved });
    const status = await statusOf(await shopperResult(page));
    expect(status.paymentBrand).to.equal('VISA');
  });

  it('a wallet payment being sent: Escape cancels nothing, and its button stays disabled even if the sheet is forced shut', async () => {
    const checkout = await createCheckout();
    const path = `/v1/checkouts/${checkout.id}/widget/payments`;
    expect((await merchantCall('POST', '/__sandbox/faults', { path, mode: 'hang', count: '1' })).status).to.equal(200);
    let cancelled = 0;
    const page = await openWidgetPage({
      checkout,
      forms: [{ brands: 'GOOGLEPAY' }],
      options: { googlePay: { gatewayMerchantId: 'entity', onCancel: () => cancelled++ } },
    });
    await page.ready;
    const form = page.form();
    click(form, 'button.wpwl-google-pay-button');
    const dialog = sheet(page)!;
    click(dialog, '.wpwl-wallet-sheet-approve');
    const escape = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(escape);
    expect(escape.defaultPrevented, 'Escape is refused while the payment is sent').to.equal(true);
    expect(cancelled, 'the merchant is not told "cancelled"').to.equal(0);
    // A browser may close a modal dialog whatever its page says: no second sheet, no second payment.
    dialog.close();
    expect(form.querySelector<HTMLButtonElement>('button.wpwl-google-pay-button')!.disabled).to.equal(true);
  });

  it('STC Pay (stand-in): a mobile number, then the one-time password; a wrong password stays on the form, the approving one pays', async () => {
    const checkout = await createCheckout(MADA_ENTITY);
    const page = await openWidgetPage({ checkout, forms: [{ brands: 'STC_PAY' }] });
    await page.ready;
    const form = page.form();
    const mobile = form.querySelector<HTMLInputElement>('.wpwl-control-stcPayMobile')!;
    const otp = form.querySelector<HTMLInputElement>('.wpwl-control-stcPayOtp')!;
    expect(otp.closest<HTMLElement>('.wpwl-stcPay-otp')!.hidden, 'the password step opens after the number').to.equal(true);
    type(mobile, '0151234567');
    click(form, '.wpwl-button-stcPaySendCode');
    expect(mobile.getAttribute('aria-invalid')).to.equal('true');
    type(mobile, '0512345678');
    click(form, '.wpwl-button-stcPaySendCode');
    expect(otp.closest<HTMLElement>('.wpwl-stcPay-otp')!.hidden).to.equal(false);
    expect(await axeViolations(page, form), 'axe-core').to.deep.equal([]);
    type(otp, '999999');
    click(form, '.wpwl-button-stcPayConfirm');
    await waitFor(() => otp.getAttribute('aria-invalid') === 'true', 'the wrong password refused');
    type(otp, STC_PAY_OTPS.approved);
    click(form, '.wpwl-button-stcPayConfirm');
    const status = await statusOf(await shopperResult(page), MADA_ENTITY);
    expect(classifyResult(status.result.code)).to.equal('approved');
    expect(status.paymentBrand).to.equal('STC_PAY');
    expect(status.customer.mobile).to.equal('0512345678');
  });

  const madaOptions = { brandDetection: true, brandDetectionType: 'binlist', brandDetectionPriority: ['MADA', 'VISA', 'MASTER'] } as const;

  it("MADA with binlist priority: steered off the card entity's VISA/MASTER form, paid on the MADA entity's form", async () => {
    // KSA merchants have one entity per brand group: VISA/MASTER on one, MADA on another (the sandbox's two defaults).
    const cardsPage = await openWidgetPage({ checkout: await createCheckout(), forms: [{ brands: 'VISA MASTER' }], options: madaOptions });
    await cardsPage.ready;
    const cards = cardsPage.form();
    type(control(cards, 'cardNumber'), CARDS.mada);
    expect(control(cards, 'cardNumber').getAttribute('aria-invalid'), 'a MADA card is refused on the VISA/MASTER form').to.equal('true');
    expect(cards.querySelector('.wpwl-hint-cardNumberError')!.textContent).to.include('mada');
    fill(cards, { number: CARDS.mada });
    payButton(cards).click();
    expect(cardsPage.frame.contentWindow!.location.href, 'nothing is sent').to.equal('about:srcdoc');
    closePages();

    // The MADA entity's checkout offers MADA alone of the form's brands.
    const page = await openWidgetPage({
      checkout: await createCheckout(MADA_ENTITY),
      forms: [{ brands: 'VISA MASTER MADA' }],
      options: madaOptions,
    });
    await page.ready;
    const mada = page.form();
    pay(mada, { number: CARDS.mada });
    expect(control(mada, 'brand').value).to.equal('MADA');
    const status = await statusOf(await shopperResult(page), MADA_ENTITY);
    expect(classifyResult(status.result.code)).to.equal('approved');
    expect(status.paymentBrand).to.equal('MADA');
  });

  it("offers no wallet the checkout's entity has no contract for, as the platform's widget, and tells the merchant which", async () => {
    // The card entity has Google Pay but no Apple Pay contract (the MADA entity has that).
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, forms: [{ brands: 'APPLEPAY GOOGLEPAY VISA' }] });
    await page.ready;
    const form = page.form();
    expect(form.querySelector('button.wpwl-apple-pay-button'), 'no Apple Pay on an entity without its contract').to.equal(null);
    expect(form.querySelector('button.wpwl-google-pay-button'), 'Google Pay is on the card entity').to.not.equal(null);
    expect(control(form, 'cardNumber')).to.not.equal(null);
    expect(page.errors.map((error) => error.message).join('\n')).to.include('APPLEPAY');
  });

  it('offers a brand listed twice once: one wallet button, one STC Pay block, no id used twice', async () => {
    const checkout = await createCheckout(MADA_ENTITY);
    const page = await openWidgetPage({ checkout, forms: [{ brands: 'STC_PAY APPLEPAY MADA STC_PAY APPLEPAY MADA' }] });
    await page.ready;
    const form = page.form();
    expect(form.querySelectorAll('button.wpwl-apple-pay-button')).to.have.length(1);
    expect(form.querySelectorAll('.wpwl-control-stcPayMobile')).to.have.length(1);
    expect(form.querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
    const ids = [...page.document.querySelectorAll('[id]')].map((node) => node.id);
    expect(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      'ids used twice',
    ).to.deep.equal([]);
    expect(page.errors, 'nothing to report').to.deep.equal([]);
  });

  it("offers no card brand the checkout's entity has no contract for: the form's others stay, the merchant is told which", async () => {
    // The MADA entity has a MADA contract, no VISA, MASTER or AMEX one.
    const checkout = await createCheckout(MADA_ENTITY);
    const page = await openWidgetPage({ checkout, forms: [{ brands: 'VISA MADA AMEX' }], options: madaOptions });
    await page.ready;
    const form = page.form();
    const offered = [...(control(form, 'brand') as unknown as HTMLSelectElement).options].map((option) => option.value);
    expect(offered).to.deep.equal(['MADA']);
    expect(page.errors.map((error) => error.message).join('\n')).to.include('VISA, AMEX');
    pay(form, { number: CARDS.mada });
    const status = await statusOf(await shopperResult(page), MADA_ENTITY);
    expect(status.paymentBrand).to.equal('MADA');
  });

  it('a form none of whose brands the entity has a contract for tells the shopper it is not available, never that a card was declined', async () => {
    // MADA on the card entity, whose contract has no MADA: a configuration refusal, not the shopper's card.
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, forms: [{ brands: 'MADA' }, { brands: 'APPLEPAY' }], options: madaOptions });
    await page.error;
    for (const form of [page.form(0), page.form(1)]) {
      const alert = await waitFor(() => form.querySelector<HTMLElement>('.wpwl-message[role=alert]:not([hidden])'), 'the message');
      expect(alert!.textContent).to.include('not available');
      expect(alert!.textContent).to.not.include('declined');
      expect(form.querySelector('.wpwl-control-cardNumber, button.wpwl-apple-pay-button'), 'nothing offered').to.equal(null);
    }
    expect(page.errors.map((error) => error.message).join('\n')).to.include('MADA');
  });

  it('a checkout answer whose brands are anything at all: the form offers only its own listed brands, never crashes, reports only WidgetErrors', async () => {
    // The widget trusts no shape of the gateway's `brands`: a list of strings restricts the form, anything else restricts nothing.
    const brandsValue = fc.oneof(
      fc.jsonValue(),
      fc.array(fc.oneof(fc.constantFrom('VISA', 'MASTER', 'AMEX', 'GOOGLEPAY'), fc.jsonValue()), { maxLength: 5 }),
    );
    const listed = ['VISA', 'MASTER', 'AMEX', 'GOOGLEPAY'];
    await fc.assert(
      fc.asyncProperty(brandsValue, async (brands) => {
        closePages();
        const page = await openWidgetPage({
          checkout: await createCheckout(),
          forms: [{ brands: listed.join(' ') }],
          fetch: checkoutFieldsSet({ brands }),
        });
        // Ready or an error, however long a loaded machine takes: a page that shows neither fails on the test's own limit.
        await Promise.race([page.ready, page.error]);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const form = page.form();
        const select = form.querySelector<HTMLSelectElement>('.wpwl-control-brand');
        const offered = [...(select?.options ?? [])].map((option) => option.value);
        const wallets = [...form.querySelectorAll<HTMLElement>('[data-brand]')].map((button) => button.dataset.brand!);
        const restricts = Array.isArray(brands) ? brands.filter((brand) => typeof brand === 'string') : undefined;
        for (const brand of [...offered, ...wallets]) {
          expect(listed, 'a listed brand').to.include(brand);
          if (restricts) expect(restricts, `${brand} is contracted`).to.include(brand);
        }
        if (!restricts) expect(offered).to.deep.equal(['VISA', 'MASTER', 'AMEX']);
        expect(page.errors.every((error) => error.name === 'WidgetError')).to.equal(true);
      }),
      { numRuns: 15 },
    );
  });

  it("without binlist priority a MADA card is the VISA card its number also is: the platform's default detection", async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, forms: [{ brands: 'VISA MASTER' }] });
    await page.ready;
    const form = page.form();
    type(control(form, 'cardNumber'), CARDS.mada);
    expect(control(form, 'cardNumber').getAttribute('aria-invalid')).to.equal('false');
    expect(control(form, 'brand').value).to.equal('VISA');
  });
});
