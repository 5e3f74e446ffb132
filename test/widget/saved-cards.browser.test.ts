/**
 * Saved cards in the sandbox's paymentWidgets.js, in headless Chromium against the real sandbox:
 * a registration-only checkout's form saves the card and returns on `/registration`; a
 * one-click checkout lists the shopper's saved cards beside the new-card form and pays with one.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { classifyResult } from '../../src/contract/result-codes.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { merchantCall } from '../support/gateway.js';
import {
  axeViolations,
  closePages,
  control,
  openWidgetPage,
  pay,
  payButton,
  paymentStatus,
  shopperResult,
  type,
  waitFor,
  type Checkout,
  type WidgetPage,
  type WpwlOptions,
  checkoutFieldsSet,
} from './widget-page.js';

const EXPIRY_YEAR = String(new Date().getFullYear() + 3);

async function checkoutWith(params: Record<string, string>): Promise<Checkout> {
  const { body } = await merchantCall('POST', '/v1/checkouts', { ...params, integrity: 'true' });
  if (body.result?.code !== '000.200.100') throw new Error(`checkout not created: ${JSON.stringify(body.result)}`);
  return { id: body.id, integrity: body.integrity };
}

/** A card stored server to server, as a shop that already holds the shopper's saved cards has them. */
async function savedCard(number: string, brand: string, expiryMonth: string): Promise<string> {
  const { body } = await merchantCall('POST', '/v1/registrations', {
    paymentBrand: brand,
    'card.number': number,
    'card.holder': 'Jane Jones',
    'card.expiryMonth': expiryMonth,
    'card.expiryYear': EXPIRY_YEAR,
    'card.cvv': '123',
  });
  if (classifyResult(body.result?.code) !== 'approved') throw new Error(`card not saved: ${JSON.stringify(body.result)}`);
  return body.id;
}

const oneClickCheckout = (registrationIds: readonly string[]) =>
  checkoutWith({
    amount: '9.90',
    currency: 'EUR',
    paymentType: 'DB',
    ...Object.fromEntries(registrationIds.map((id, index) => [`registrations[${index}].id`, id])),
  });

/** A checkout that only saves a card (no payment): the first of a series the shop charges later without the shopper. */
const registrationCheckout = () =>
  checkoutWith({
    createRegistration: 'true',
    'standingInstruction.type': 'UNSCHEDULED',
    'standingInstruction.mode': 'INITIAL',
    'standingInstruction.source': 'CIT',
  });

const savedCardForm = (page: WidgetPage) => page.document.querySelector<HTMLFormElement>('form.wpwl-form-registrations');
const choices = (page: WidgetPage) => [...page.document.querySelectorAll<HTMLInputElement>('input.wpwl-control-registration')];
const labelOf = (page: WidgetPage, input: HTMLInputElement) => page.document.querySelector(`label[for="${input.id}"]`)?.textContent;

async function openOneClick(options: WpwlOptions = {}) {
  const visa = await savedCard(CARDS.approved, 'VISA', '05');
  const master = await savedCard(CARDS.approvedMaster, 'MASTER', '11');
  const checkout = await oneClickCheckout([visa, master]);
  // What the list looks like when onReady runs: the merchant's code may read or restyle it there.
  let atReady: number | undefined;
  const page = await openWidgetPage({
    checkout,
    options: { ...options, onReady: () => (atReady = page.document.querySelectorAll('input.wpwl-control-registration').length) },
  });
  await page.ready;
  return { page, checkout, visa, master, atReady: () => atReady };
}

async function expectPaidWith(page: WidgetPage, checkout: Checkout, last4: string) {
  const result = await shopperResult(page);
  expect(result.searchParams.get('resourcePath')).to.equal(`/v1/checkouts/${checkout.id}/payment`);
  const status = await paymentStatus(result);
  expect(classifyResult(status.result.code), status.result.code).to.equal('approved');
  expect(status.amount).to.equal('9.90');
  expect(status.card.last4Digits).to.equal(last4);
}

describe('saved cards in the sandbox payment widget', () => {
  afterEach(closePages);

  it('saves the card of a registration-only checkout ({id}/registration) and returns on its /registration resourcePath', async () => {
    const created = await registrationCheckout();
    const page = await openWidgetPage({ checkout: { ...created, id: `${created.id}/registration` } });
    await page.ready;
    const form = page.form();
    expect(payButton(form).textContent).to.equal('Save card');
    expect(savedCardForm(page), 'a registration checkout lists no saved cards').to.equal(null);
    expect(page.window.wpwl?.checkout.id).to.equal(created.id);
    pay(form, { number: CARDS.approvedMaster });
    const result = await shopperResult(page);
    expect(result.searchParams.get('id')).to.equal(created.id);
    expect(result.searchParams.get('resourcePath')).to.equal(`/v1/checkouts/${created.id}/registration`);
    const { body } = await merchantCall('GET', result.searchParams.get('resourcePath')!);
    expect(classifyResult(body.result.code), body.result.code).to.equal('approved');
    expect(body.paymentType).to.equal('RG');
    expect(body.paymentBrand).to.equal('MASTER');
    expect(body.card.last4Digits).to.equal('5454');
    expect(body.amount, 'saving a card takes no money').to.equal(undefined);
    expect(body.id).to.match(/^[0-9a-f]{32}$/);
  });

  it('a registration-only checkout offers no wallet (it would pay): the merchant is told, the card form still saves', async () => {
    const created = await registrationCheckout();
    const page = await openWidgetPage({
      checkout: { ...created, id: `${created.id}/registration` },
      forms: [{ brands: 'GOOGLEPAY VISA MASTER' }],
      options: { googlePay: { gatewayMerchantId: 'entity' } },
    });
    await page.ready;
    const form = page.form();
    expect(form.querySelector('.wpwl-group-wallets'), 'no wallet button').to.equal(null);
    expect(page.errors.map((error) => error.name)).to.deep.equal(['WidgetError']);
    expect(page.errors[0]!.message).to.include('GOOGLEPAY');
    expect(payButton(form).textContent).to.equal('Save card');
  });

  it('lists the saved cards (brand, last 4, expiry) as an accessible radio group beside the new-card form, and onReady sees it', async () => {
    const { page, visa, master, atReady } = await openOneClick();
    expect(atReady(), 'onReady fires after the saved cards are rendered').to.equal(2);
    const saved = savedCardForm(page)!;
    const year = EXPIRY_YEAR.slice(-2);
    expect(choices(page).map((choice) => [choice.type, choice.value, labelOf(page, choice)])).to.deep.equal([
      ['radio', visa, `VISA •••• 0000, expires 05/${year}`],
      ['radio', master, `MASTER •••• 5454, expires 11/${year}`],
    ]);
    expect(choices(page)[0]!.checked, 'the first card is chosen').to.equal(true);
    expect(new Set(choices(page).map((choice) => choice.name)).size, 'one radio group').to.equal(1);
    const group = saved.querySelector('fieldset')!;
    expect(group.querySelector('legend')?.textContent).to.equal('Saved cards');
    expect(choices(page).every((choice) => group.contains(choice))).to.equal(true);
    expect(saved.querySelector('.wpwl-control-cvv'), 'no CVV without requireCvv').to.equal(null);
    // The card form's markup: the platform's container, and the button in its submit wrapper.
    expect(saved.matches('.wpwl-container.wpwl-container-registration > form.wpwl-form')).to.equal(true);
    expect(saved.querySelector('.wpwl-group-submit > .wpwl-wrapper-submit > .wpwl-button-pay')).to.not.equal(null);
    expect(page.form().hidden, 'the new-card form is offered too').to.equal(false);
    expect(control(page.form(), 'cardNumber')).to.not.equal(null);
    expect(await axeViolations(page, saved), 'axe-core').to.deep.equal([]);
    // No name on the radios' form fields that a native submission of the shop's form would send.
    expect(page.form().contains(choices(page)[0]!)).to.equal(false);
  });

  it('pays in one click with the chosen saved card', async () => {
    const { page, checkout } = await openOneClick();
    choices(page)[1]!.click();
    payButton(savedCardForm(page)!).click();
    expect(payButton(savedCardForm(page)!).disabled, 'sent once').to.equal(true);
    await expectPaidWith(page, checkout, '5454');
  });

  it('asks for the CVV with requireCvv and sends nothing until it is valid', async () => {
    const { page, checkout } = await openOneClick({ registrations: { requireCvv: true } });
    const saved = savedCardForm(page)!;
    const cvv = saved.querySelector<HTMLInputElement>('input.wpwl-control-cvv')!;
    expect(page.document.querySelector(`label[for="${cvv.id}"]`)?.textContent).to.equal('CVV');
    expect(cvv.required).to.equal(true);
    expect(cvv.name, 'the CVV only ever goes to the gateway').to.equal('');
    payButton(saved).click();
    expect(cvv.getAttribute('aria-invalid')).to.equal('true');
    expect(payButton(saved).disabled, 'nothing sent without a CVV').to.equal(false);
    expect(page.window.performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/widget/payments'))).to.have.length(
      0,
    );
    expect(await axeViolations(page, saved), 'axe-core').to.deep.equal([]);
    type(cvv, '1234');
    payButton(saved).click();
    expect(cvv.getAttribute('aria-invalid'), "four digits for the VISA card chosen: an AMEX card's length").to.equal('true');
    type(cvv, '123');
    payButton(saved).click();
    expect([cvv.getAttribute('aria-invalid'), cvv.classList.contains('wpwl-has-error')], 'the error is gone').to.deep.equal([
      'false',
      false,
    ]);
    await expectPaidWith(page, checkout, '0000');
  });

  it('hides the new-card form with hideInitialPaymentForms until the shopper asks to pay with another card', async () => {
    const { page, checkout } = await openOneClick({ registrations: { hideInitialPaymentForms: true } });
    const form = page.form();
    expect(form.hidden).to.equal(true);
    const another = await waitFor(
      () => page.document.querySelector<HTMLButtonElement>('button.wpwl-button-another') ?? undefined,
      'the another-card button',
    );
    expect(another.textContent).to.equal('Pay with another card');
    another.click();
    expect(form.hidden).to.equal(false);
    expect(page.document.querySelector('button.wpwl-button-another'), 'the button has done its work').to.equal(null);
    expect(savedCardForm(page), 'the saved cards stay offered').to.not.equal(null);
    pay(form, { number: CARDS.approved });
    await expectPaidWith(page, checkout, '0000');
  });
  it('hideInitialPaymentForms: "another card" and unload give each form back as the page had it, one it hid itself hidden', async () => {
    const visa = await savedCard(CARDS.approved, 'VISA', '05');
    const page = await openWidgetPage({
      checkout: await oneClickCheckout([visa]),
      forms: [{ brands: 'VISA' }, { brands: 'MASTER', hidden: true }],
      options: { registrations: { hideInitialPaymentForms: true } },
    });
    await page.ready;
    const shown = () => [page.form(0).hidden, page.form(1).hidden];
    expect(shown()).to.deep.equal([true, true]);
    page.document.querySelector<HTMLButtonElement>('button.wpwl-button-another')!.click();
    expect(shown(), 'another card').to.deep.equal([false, true]);
    page.window.wpwl!.unload();
    expect(shown(), 'unloaded').to.deep.equal([false, true]);
  });

  it('hideInitialPaymentForms, unloaded before "another card": the forms are shown again as the page had them', async () => {
    const visa = await savedCard(CARDS.approved, 'VISA', '05');
    const page = await openWidgetPage({
      checkout: await oneClickCheckout([visa]),
      forms: [{ brands: 'VISA', hidden: true }, { brands: 'MASTER' }],
      options: { registrations: { hideInitialPaymentForms: true } },
    });
    await page.ready;
    page.window.wpwl!.unload();
    expect([page.form(0).hidden, page.form(1).hidden]).to.deep.equal([true, false]);
  });

  it('saved cards the answer lists in any shape: the readable ones are listed, the rest left out, and the widget gets ready', async () => {
    const visa = await savedCard(CARDS.approved, 'VISA', '05');
    const checkout = await oneClickCheckout([visa]);
    const good = { id: visa, paymentBrand: 'VISA', last4Digits: '0000', expiryMonth: '05', expiryYear: EXPIRY_YEAR };
    const fields = Object.keys(good) as (keyof typeof good)[];
    const entry = fc.oneof(
      fc.constant(good),
      fc.jsonValue(),
      fc.tuple(fc.constantFrom(...fields), fc.jsonValue()).map(([field, value]) => ({ ...good, [field]: value })),
    );
    // What a listed card needs, as this test reads it: every field the list shows is text.
    const readable = (value: unknown) =>
      typeof value === 'object' && value !== null && fields.every((field) => typeof (value as Record<string, unknown>)[field] === 'string');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.array(entry, { maxLength: 4 })), async (registrations) => {
        closePages();
        const page = await openWidgetPage({
          checkout,
          fetch: checkoutFieldsSet({ registrations }),
        });
        await Promise.race([page.ready, new Promise((_, reject) => setTimeout(() => reject(new Error('never ready')), 5_000))]);
        const listed = Array.isArray(registrations) ? registrations.filter(readable).length : 0;
        expect(choices(page), JSON.stringify(registrations)).to.have.length(listed);
      }),
      { numRuns: 12 },
    );
  });

  it('pays into the first form with an http(s) result page: a form with another action never becomes a navigation', async () => {
    const visa = await savedCard(CARDS.approved, 'VISA', '05');
    const page = await openWidgetPage({
      checkout: await oneClickCheckout([visa]),
      forms: [{ brands: 'VISA', action: 'javascript:alert(document.domain)//' }, { brands: 'VISA' }],
    });
    await page.ready;
    const container = savedCardForm(page)!.parentElement!;
    expect(container.nextElementSibling === page.form(1), 'the saved cards stand before the form with a result page').to.equal(true);
    payButton(savedCardForm(page)!).click();
    const result = await shopperResult(page);
    expect(result.protocol).to.equal('http:');
  });
});
