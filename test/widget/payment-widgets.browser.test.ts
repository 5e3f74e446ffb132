/**
 * The sandbox's paymentWidgets.js in headless Chromium against the real sandbox: plain merchant
 * pages with nothing but the platform's two lines (see widget-page.ts), paid as a shopper would.
 */
import { expect } from '@open-wc/testing';
import { classifyResult } from '../../src/contract/result-codes.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { merchantCall, sandboxUrl, shopperResultUrl } from '../support/gateway.js';
import {
  answerChallenge,
  axeViolations,
  cardFormOf,
  closePages,
  control,
  createCheckout,
  fill,
  loadCheckout,
  NONCE,
  openWidgetPage,
  pay,
  payButton,
  paymentStatus,
  shopperResult,
  type,
  waitFor,
  widgetScriptUrl,
  type WidgetPage,
  checkoutAnswerRewritten,
  checkoutFieldsSet,
} from './widget-page.js';
import { TIMER_MAX_MS } from '../../src/contract/limits.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Resource timings of the widget's card submissions seen by the page: proof of what was sent. */
const submissions = (page: WidgetPage) =>
  page.window.performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('/widget/payments'));

const alertOf = (form: HTMLFormElement) => form.querySelector<HTMLElement>('.wpwl-message[role=alert]');

async function expectApproved(result: URL, checkoutId: string, amount = '12.50') {
  expect(result.searchParams.get('id')).to.equal(checkoutId);
  expect(result.searchParams.get('resourcePath')).to.equal(`/v1/checkouts/${checkoutId}/payment`);
  const status = await paymentStatus(result);
  expect(classifyResult(status.result.code), status.result.code).to.equal('approved');
  expect(status.amount).to.equal(amount);
  expect(status.currency).to.equal('EUR');
  return status;
}

describe('sandbox payment widget (paymentWidgets.js)', () => {
  afterEach(closePages);

  it("renders the real widget's accessible card form and pays an approved card end to end", async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    const form = page.form();
    // The platform's markup: the widget's own form in a container (card-form.markup.browser.test.ts has the rest).
    expect(cardFormOf(form).classList.contains('wpwl-form-card')).to.equal(true);
    for (const name of ['cardNumber', 'expiry', 'cvv', 'cardHolder'] as const) {
      const input = control(form, name);
      expect(input.closest('.wpwl-group')?.classList.contains(`wpwl-group-${name}`), name).to.equal(true);
      expect(page.document.querySelector(`label.wpwl-label[for="${input.id}"]`), name).to.not.equal(null);
      // No name attribute: a native submission of the shop's form can never carry card data.
      expect(input.name, name).to.equal('');
    }
    expect(control(form, 'expiry').placeholder).to.equal('MM / YY');
    expect(payButton(form).textContent).to.equal('Pay now');
    expect(page.window.wpwl?.checkout).to.include({ id: checkout.id, amount: '12.50', currency: 'EUR', paymentType: 'DB' });
    expect(await axeViolations(page, form), 'axe-core').to.deep.equal([]);

    pay(form, { number: CARDS.approved });
    expect(payButton(form).disabled, 'the pay button is disabled while submitting').to.equal(true);
    const result = await shopperResult(page);
    expect(result.searchParams.get('order'), "the action's own query is kept").to.equal('42');
    const status = await expectApproved(result, checkout.id);
    expect(status.card.last4Digits).to.equal('0000');
    expect(status.paymentBrand).to.equal('VISA');
    expect(status.card.holder).to.equal('Jane Jones');
  });

  it('validates in the browser: Luhn, brand, expiry, CVV length and holder, with accessible inline errors', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, forms: [{ brands: 'VISA' }] });
    await page.ready;
    const form = page.form();
    pay(form, { number: '4200000000000001', expiry: '01 / 20', cvv: '12', holder: ' ' });
    for (const name of ['cardNumber', 'expiry', 'cvv', 'cardHolder'] as const) {
      const input = control(form, name);
      expect(input.classList.contains('wpwl-has-error'), name).to.equal(true);
      expect(input.getAttribute('aria-invalid'), name).to.equal('true');
      const hint = page.document.getElementById(input.getAttribute('aria-describedby') ?? '');
      expect(hint?.classList.contains('wpwl-hint'), name).to.equal(true);
      expect(hint?.hidden, name).to.equal(false);
    }
    expect(control(form, 'cardNumber').getAttribute('aria-describedby')).to.equal(form.querySelector('.wpwl-hint-cardNumberError')?.id);
    expect(form.querySelector('.wpwl-hint-cardNumberError')?.textContent).to.equal('Invalid card number or brand');
    expect(page.document.activeElement, 'focus moves to the first invalid field').to.equal(control(form, 'cardNumber'));
    expect(await axeViolations(page, form), 'axe-core').to.deep.equal([]);

    // A Mastercard on a VISA-only form is refused like a bad number.
    type(control(form, 'cardNumber'), CARDS.approvedMaster);
    expect(control(form, 'cardNumber').getAttribute('aria-invalid')).to.equal('true');
    type(control(form, 'cardNumber'), CARDS.approved);
    expect(control(form, 'cardNumber').getAttribute('aria-invalid'), 'fixing a field clears its error').to.equal('false');
    expect(control(form, 'cardNumber').hasAttribute('aria-describedby')).to.equal(false);
    expect(form.querySelector<HTMLElement>('.wpwl-hint-cardNumberError')?.hidden).to.equal(true);
    expect(submissions(page)).to.have.length(0);
    expect(page.frame.contentWindow!.location.href).to.equal('about:srcdoc');
  });

  it('keeps the shopper on the form after a decline and approves a second attempt on the same checkout', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    const form = page.form();
    pay(form, { number: CARDS.declined });
    await waitFor(() => !payButton(form).disabled, 'the pay button to be enabled again');
    expect(alertOf(form)?.hidden).to.equal(false);
    expect(alertOf(form)?.textContent).to.equal('The payment was declined. Check the details or use another card.');
    expect(page.frame.contentWindow!.location.href, 'still on the merchant page').to.equal('about:srcdoc');
    expect(await axeViolations(page, form), 'axe-core').to.deep.equal([]);

    expect(submissions(page)).to.have.length(1);
    pay(form, { number: CARDS.approved });
    expect(alertOf(form)?.hidden, 'a new attempt clears the message').to.equal(true);
    await expectApproved(await shopperResult(page), checkout.id);
  });

  it('sends a challenge card through the sandbox\'s ACS page ("Complete authentication") to the result page', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    pay(page.form(), { number: CARDS.challenge });
    await answerChallenge('Complete authentication');
    const status = await expectApproved(await shopperResult(page), checkout.id);
    expect(status.threeDSecure).to.be.an('object');
  });

  it('sends a failed challenge ("Fail authentication") to the result page, where the status tells the rejection', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    pay(page.form(), { number: CARDS.challengeNoMethod });
    await answerChallenge('Fail authentication');
    const result = await shopperResult(page);
    expect(result.searchParams.get('id')).to.equal(checkout.id);
    const status = await paymentStatus(result);
    expect(classifyResult(status.result.code), status.result.code).to.not.equal('approved');
  });

  it('approves a frictionless 3DS card after its hidden 3DS method iframe, with no challenge', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    pay(page.form(), { number: CARDS.frictionless });
    const { id } = await expectApproved(await shopperResult(page), checkout.id);
    const log = await merchantCall('GET', '/__sandbox/requests');
    expect(
      log.body.requests.some(
        (request: { path: string; paymentId?: string }) => request.path === '/v1/threeDSecure/method' && request.paymentId === id,
      ),
      "this payment's 3DS method page was posted (any other test's would not do)",
    ).to.equal(true);
  });

  it('goes on to the 3DS step when the 3DS method page has not loaded within 10 seconds (EMVCo)', async function () {
    this.timeout(20_000);
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    await merchantCall('POST', '/__sandbox/faults', { path: '/v1/threeDSecure/method', mode: 'hang', count: '1' });
    pay(page.form(), { number: CARDS.frictionless });
    await waitFor(() => page.document.querySelector('iframe.wpwl-precondition'), 'the hidden 3DS method iframe');
    await expectApproved(await shopperResult(page, 15_000), checkout.id);
  });

  it('stops the payment when onBeforeSubmitCard returns false, and sends nothing', async () => {
    const checkout = await createCheckout();
    let allow = false;
    let calls = 0;
    let afterSubmits = 0;
    const page = await openWidgetPage({
      checkout,
      options: {
        onBeforeSubmitCard: () => {
          calls++;
          return allow;
        },
        onAfterSubmit: () => afterSubmits++,
      },
    });
    await page.ready;
    const form = page.form();
    pay(form, { number: CARDS.declined });
    expect(calls).to.equal(1);
    expect(payButton(form).disabled).to.equal(false);
    allow = true;
    payButton(form).click();
    await waitFor(() => afterSubmits === 1 && !payButton(form).disabled, 'the declined answer');
    expect(calls).to.equal(2);
    expect(submissions(page), 'only the allowed attempt reached the gateway').to.have.length(1);
  });

  it('stops the payment when onBeforeSubmitCard throws', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({
      checkout,
      options: {
        onBeforeSubmitCard: () => {
          throw new Error("the shop's own check broke");
        },
      },
    });
    await page.ready;
    const form = page.form();
    const uncaught = new Promise<ErrorEvent>((resolve) => page.window.addEventListener('error', resolve, { once: true }));
    pay(form, { number: CARDS.approved });
    expect((await uncaught).message).to.contain("the shop's own check broke");
    expect(payButton(form).disabled).to.equal(false);
    expect(submissions(page)).to.have.length(0);
  });

  it('unload() removes everything it added, and a second checkout then loads and pays on the same page', async () => {
    const first = await createCheckout('5.00');
    const page = await openWidgetPage({ checkout: first });
    await page.ready;
    const form = page.form();
    const adopted = page.document.adoptedStyleSheets.length;
    expect(adopted).to.equal(1);
    type(control(form, 'cardNumber'), '4');

    page.window.wpwl!.unload();
    expect(page.window.wpwl).to.equal(undefined);
    expect(form.children).to.have.length(0);
    expect(form.className).to.equal('paymentWidgets');
    expect(form.hasAttribute('novalidate')).to.equal(false);
    expect(form.hasAttribute('lang')).to.equal(false);
    expect(page.document.adoptedStyleSheets).to.have.length(0);
    // Its submit listener is gone: the page's form is the page's again.
    const submit = new page.window.Event('submit', { cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).to.equal(false);

    // As a single-page app does: remove the old script, set new options, insert the new script.
    page.document.querySelector('script[src*="paymentWidgets.js"]')!.remove();
    const second = await createCheckout('7.00');
    const loaded = loadCheckout(page, second);
    await loaded.ready;
    expect(loaded.errors).to.have.length(0);
    expect(form.querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
    expect(page.document.adoptedStyleSheets).to.have.length(1);
    expect(page.window.wpwl?.checkout.id).to.equal(second.id);
    pay(form, { number: CARDS.approved });
    await expectApproved(await shopperResult(page), second.id, '7.00');
  });

  it('refuses to load a second checkout while one is loaded, and leaves the first working', async () => {
    const first = await createCheckout();
    const page = await openWidgetPage({ checkout: first });
    await page.ready;
    const second = await createCheckout();
    const loaded = loadCheckout(page, second);
    expect((await loaded.error).name).to.equal('WidgetError');
    expect(page.window.wpwl?.checkout.id).to.equal(first.id);
    expect(page.form().querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
  });

  it('is refused by the browser when the integrity value does not match the served bytes', async () => {
    const checkout = await createCheckout();
    const wrong = `sha384-${btoa(String.fromCharCode(...new Uint8Array(48)))}`;
    const page = await openWidgetPage({ checkout: { id: checkout.id, integrity: wrong } });
    expect(page.window.gwScriptErrors).to.deep.equal([widgetScriptUrl(checkout)]);
    expect(page.window.wpwl).to.equal(undefined);
    expect(page.form().children).to.have.length(0);
  });

  it('reports InvalidCheckoutIdError when its script URL carries no checkoutId', async () => {
    const { integrity } = await createCheckout();
    const page = await openWidgetPage({ checkout: { id: '', integrity } });
    expect((await page.error).name).to.equal('InvalidCheckoutIdError');
    expect(alertOf(page.form())?.hidden).to.equal(false);
  });

  it('reports InvalidCheckoutIdError for an unknown checkout and says so in the form', async () => {
    const { integrity } = await createCheckout();
    const page = await openWidgetPage({ checkout: { id: 'unknown0checkout0id', integrity } });
    const error = await page.error;
    expect(error.name).to.equal('InvalidCheckoutIdError');
    expect(error).to.be.instanceOf(page.window.Error);
    expect(alertOf(page.form())?.textContent).to.equal('This payment session is invalid or has expired. Please reload the page.');
    expect(page.form().querySelector('.wpwl-control-cardNumber')).to.equal(null);
    expect(await axeViolations(page, page.form()), 'axe-core').to.deep.equal([]);
  });

  it('reports InvalidCheckoutIdError for an expired checkout and says so in the form', async () => {
    const checkout = await createCheckout('12.50', 'clock');
    await merchantCall('POST', '/__sandbox/clock', { advance: '1801' }, { sandbox: 'clock' });
    const page = await openWidgetPage({ checkout });
    expect((await page.error).name).to.equal('InvalidCheckoutIdError');
    expect(alertOf(page.form())?.textContent).to.equal('This payment session is invalid or has expired. Please reload the page.');
    expect(page.form().querySelector('.wpwl-button-pay')).to.equal(null);
  });

  it("reports InvalidCheckoutIdError when the checkout expires while the form is open, counting on the sandbox's clock", async () => {
    const checkout = await createCheckout('12.50', 'clock');
    await merchantCall('POST', '/__sandbox/clock', { advance: '1796' }, { sandbox: 'clock' });
    const page = await openWidgetPage({ checkout });
    await page.ready;
    expect(page.errors).to.have.length(0);
    expect((await page.error).name).to.equal('InvalidCheckoutIdError');
    expect(alertOf(page.form())?.hidden).to.equal(false);
    expect(payButton(page.form()).disabled).to.equal(true);
  });

  it('a checkout whose end is further away than a timer holds is not reported expired at the first step of its wait', async () => {
    // The first three timers as long as a browser holds fire at once: after each the widget must wait on, not report the end.
    let armed = 0;
    const page = await openWidgetPage({
      checkout: await createCheckout('12.50'),
      fetch: checkoutFieldsSet({ expiresAt: new Date(Date.now() + 60 * DAY_MS).toISOString() }),
      setTimeout: (pageSetTimeout) =>
        ((handler: () => void, delay?: number) => {
          if (delay !== TIMER_MAX_MS) return pageSetTimeout(handler, delay);
          armed += 1;
          return pageSetTimeout(handler, armed <= 3 ? 0 : delay);
        }) as typeof setTimeout,
    });
    await page.ready;
    await waitFor(() => armed === 4, 'a fourth step of the wait, armed after three have run');
    expect(page.errors.map((error) => error.name)).to.deep.equal([]);
    expect(payButton(page.form()).disabled).to.equal(false);
  });

  it('a checkout that expires while the form is open leaves no pay control usable: pay buttons disabled, wallets hidden', async () => {
    const checkout = await createCheckout('12.50', 'clock');
    await merchantCall('POST', '/__sandbox/clock', { advance: '1796' }, { sandbox: 'clock' });
    const page = await openWidgetPage({
      checkout,
      forms: [{ brands: 'GOOGLEPAY VISA' }],
      options: { googlePay: { gatewayMerchantId: 'entity' } },
    });
    await page.ready;
    expect((await page.error).name).to.equal('InvalidCheckoutIdError');
    for (const button of page.document.querySelectorAll<HTMLButtonElement>('button.wpwl-button-pay'))
      expect(button.disabled).to.equal(true);
    const wallets = page.document.querySelector<HTMLElement>('.wpwl-group-wallets')!;
    expect(wallets.hidden, 'the wallet buttons are gone').to.equal(true);
    expect(
      wallets.querySelector<HTMLButtonElement>('button')!.disabled,
      'and not disabled: that means a wallet payment is being sent',
    ).to.equal(false);
  });

  it('unload() clears its timers: a checkout expiring after unload reports nothing', async () => {
    const checkout = await createCheckout('12.50', 'clock');
    await merchantCall('POST', '/__sandbox/clock', { advance: '1797' }, { sandbox: 'clock' });
    const page = await openWidgetPage({ checkout });
    await page.ready;
    page.window.wpwl!.unload();
    // Past the checkout's last second, when the expiry timer would have fired.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(page.errors).to.have.length(0);
    expect(page.form().children).to.have.length(0);
  });

  it('sends a second payment of a paid checkout (the back button) to the result page, reporting InvalidCheckoutIdError', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    pay(page.form(), { number: CARDS.approved });
    await shopperResult(page);
    const again = await openWidgetPage({ checkout });
    await again.ready;
    pay(again.form(), { number: CARDS.approved });
    expect((await again.error).name).to.equal('InvalidCheckoutIdError');
    // The shop's server finds the first payment: the shopper sees their order paid, not an error.
    await expectApproved(await shopperResult(again), checkout.id);
  });

  it('stays on the form when the page unloads the widget in onError after a refused payment', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    pay(page.form(), { number: CARDS.approved });
    await shopperResult(page);
    const again = await openWidgetPage({ checkout, options: { onError: () => again.window.wpwl?.unload() } });
    await again.ready;
    const form = again.form();
    pay(form, { number: CARDS.approved });
    expect((await again.error).name).to.equal('InvalidCheckoutIdError');
    expect(form.children).to.have.length(0);
    expect(form.hasAttribute('aria-busy'), "the form's aria-busy went with the widget").to.equal(false);
    expect(again.frame.contentWindow!.location.href).to.equal('about:srcdoc');
  });

  it('goes nowhere when the page unloads the widget in onAfterSubmit, or in onError after a lost answer: the page has taken over', async () => {
    for (const lost of [false, true]) {
      const checkout = await createCheckout();
      if (lost)
        await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'drop', count: '1' });
      const page: WidgetPage = await openWidgetPage({
        checkout,
        options: lost ? { onError: () => page.window.wpwl?.unload() } : { onAfterSubmit: () => page.window.wpwl?.unload() },
      });
      await page.ready;
      const form = page.form();
      pay(form, { number: CARDS.approved });
      await waitFor(() => form.children.length === 0 || undefined, 'the widget unloaded');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(page.frame.contentWindow!.location.href, lost ? 'after a lost answer' : 'after an answer').to.equal('about:srcdoc');
    }
  });

  it('sends one payment of a checkout at a time, from whichever form: a press in another form while one is sent sends nothing', async () => {
    const checkout = await createCheckout();
    const path = `/v1/checkouts/${checkout.id}/widget/payments`;
    expect((await merchantCall('POST', '/__sandbox/faults', { path, mode: 'hang', count: '1' })).status).to.equal(200);
    const page = await openWidgetPage({
      checkout,
      forms: [{ brands: 'VISA' }, { brands: 'GOOGLEPAY VISA' }],
      options: { googlePay: { gatewayMerchantId: 'entity' } },
    });
    await page.ready;
    pay(page.form(0), { number: CARDS.approved });
    // A card that would be declined: were it sent, the shopper would stay on the page and the count below would tell.
    pay(page.form(1), { number: CARDS.declined });
    page.form(1).querySelector<HTMLButtonElement>('button.wpwl-google-pay-button')!.click();
    // Booleans, not elements: a failing assertion would print a whole DOM node of another frame.
    expect(page.document.querySelector('dialog.wpwl-wallet-sheet') === null, 'no wallet sheet opens').to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { body } = await merchantCall('GET', '/__sandbox/requests');
    const sent = (body.requests as { path: string }[]).filter((request) => request.path === path);
    expect(sent, 'one payment request').to.have.length(1);
    expect(payButton(page.form(1)).disabled, 'the other form is not marked busy').to.equal(false);
  });

  it('a checkout answer with a __proto__ key: wpwl.checkout keeps its own prototype and the widget gets ready', async () => {
    const page = await openWidgetPage({
      checkout: await createCheckout(),
      fetch: checkoutAnswerRewritten((text) => text.replace('"checkout":{', '"checkout":{"__proto__":{"polluted":true},')),
    });
    await page.ready;
    const checkout = page.window.wpwl!.checkout as Record<string, unknown>;
    expect(Object.getPrototypeOf(checkout) === page.window.Object.prototype, 'the prototype is untouched').to.equal(true);
    expect(checkout.polluted).to.equal(undefined);
  });

  it("renders two forms with their own data-brands and detects brands only among each form's own", async () => {
    const checkout = await createCheckout();
    const detected: string[][] = [];
    const changed: string[] = [];
    const page = await openWidgetPage({
      checkout,
      forms: [{ brands: 'VISA' }, { brands: 'MASTER AMEX' }],
      options: { onDetectBrand: (brands) => detected.push(brands), onChangeBrand: (brand) => changed.push(brand) },
    });
    await page.ready;
    const [visaForm, otherForm] = [page.form(0), page.form(1)];
    const options = (form: HTMLFormElement) =>
      [...(control(form, 'brand') as unknown as HTMLSelectElement).options].map((option) => option.value);
    expect(options(visaForm)).to.deep.equal(['VISA']);
    expect(options(otherForm)).to.deep.equal(['MASTER', 'AMEX']);
    expect(new Set([...page.document.querySelectorAll('[id]')].map((node) => node.id)).size, 'ids are unique').to.equal(
      page.document.querySelectorAll('[id]').length,
    );

    fill(visaForm, { number: CARDS.approvedMaster });
    expect(control(visaForm, 'cardNumber').getAttribute('aria-invalid')).to.equal('true');
    expect(detected.at(-1)).to.deep.equal([]);

    pay(otherForm, { number: CARDS.approvedMaster });
    expect(detected.at(-1)).to.deep.equal(['MASTER']);
    expect(changed).to.deep.equal([]);
    const status = await expectApproved(await shopperResult(page), checkout.id);
    expect(status.paymentBrand).to.equal('MASTER');
  });

  it('honours locale, labels, style, autofocus, requireCvv and brandDetection', async () => {
    const checkout = await createCheckout();
    const changed: string[] = [];
    const page = await openWidgetPage({
      checkout,
      options: {
        locale: 'de-AT',
        style: 'plain',
        labels: { submit: 'Kaufen' },
        autofocus: 'card.number',
        requireCvv: false,
        brandDetection: false,
        onChangeBrand: (brand) => changed.push(brand),
      },
    });
    await page.ready;
    const form = page.form();
    expect(form.lang).to.equal('de');
    expect(page.document.querySelector(`label[for="${control(form, 'cardNumber').id}"]`)?.textContent).to.equal('Kartennummer');
    expect(payButton(form).textContent).to.equal('Kaufen');
    expect(page.document.activeElement).to.equal(control(form, 'cardNumber'));
    expect(page.window.getComputedStyle(form).borderTopStyle, 'the plain style draws no card').to.equal('none');

    // Detection off: the shopper picks the brand, and a Mastercard under VISA is refused until they do.
    fill(form, { number: CARDS.approvedMaster, cvv: '' });
    const submitted = submissions(page).length;
    expect(control(form, 'cardNumber').getAttribute('aria-invalid')).to.equal('true');
    expect(form.querySelector('.wpwl-hint-cardNumberError')?.textContent).to.equal('Ungültige Kartennummer oder Marke');
    const brand = control(form, 'brand') as unknown as HTMLSelectElement;
    brand.value = 'MASTER';
    brand.dispatchEvent(new page.window.Event('change'));
    expect(changed).to.deep.equal(['MASTER']);
    payButton(form).click();
    expect(control(form, 'cvv').getAttribute('aria-invalid'), 'no CVV passes the widget when requireCvv is false').to.equal('false');
    // The sandbox asks a CVV of every debit: its parameter error shows on the field, on the form.
    await waitFor(
      () => control(form, 'cvv').getAttribute('aria-invalid') === 'true' && !payButton(form).disabled,
      "the gateway's CVV error",
    );
    expect(submissions(page)).to.have.length(submitted + 1);
    expect(alertOf(form)?.hidden).to.equal(true);
    expect(page.document.activeElement).to.equal(control(form, 'cvv'));
    type(control(form, 'cvv'), '123');
    payButton(form).click();
    const status = await expectApproved(await shopperResult(page), checkout.id);
    expect(status.paymentBrand).to.equal('MASTER');
  });

  it('falls back to English for an unknown locale, takes errorMessages, and draws the card style by default', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, options: { locale: 'fr-FR', errorMessages: { cvvError: 'Three digits, please' } } });
    await page.ready;
    const form = page.form();
    expect(payButton(form).textContent).to.equal('Pay now');
    expect(form.lang).to.equal('en');
    expect(page.window.getComputedStyle(cardFormOf(form)).borderTopStyle).to.equal('solid');
    type(control(form, 'cvv'), '1');
    expect(form.querySelector('.wpwl-hint-cvvError')?.textContent).to.equal('Three digits, please');
  });

  it('adds no stylesheet with style "none"', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, options: { style: 'none' } });
    await page.ready;
    expect(page.document.adoptedStyleSheets).to.have.length(0);
    expect(page.window.getComputedStyle(cardFormOf(page.form())).borderTopStyle).to.equal('none');
  });

  it('sends an uncertain outcome to the result page instead of offering the card again', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    pay(page.form(), { number: CARDS.uncertain });
    // The sandbox recorded this payment as approved although it answered 900.100.300: only the shop's server can tell.
    await expectApproved(await shopperResult(page), checkout.id);
  });

  it('reports PciIframeSubmitError when the answer to the card submission is lost, and lets the result page decide', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    // Chromium itself re-sends a request whose reused connection closed unanswered, POSTs included, once per
    // stale pooled connection (two or three times on a busy machine): every attempt on this checkout's path is dropped.
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'drop', count: '8' });
    pay(page.form(), { number: CARDS.approved });
    expect((await page.error).name).to.equal('PciIframeSubmitError');
    // The sandbox recorded the payment before dropping the connection: the shop's server finds it.
    await expectApproved(await shopperResult(page), checkout.id);
  });

  it('reports PciIframeCommunicationError when the gateway cannot be read, and says so in the form', async () => {
    const checkout = await createCheckout();
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget`, mode: 'error', count: '1' });
    const page = await openWidgetPage({ checkout });
    expect((await page.error).name).to.equal('PciIframeCommunicationError');
    expect(alertOf(page.form())?.textContent).to.equal('The payment form could not be loaded. Please try again later.');
  });

  it('reports WidgetError when the page has no form.paymentWidgets', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, forms: [] });
    expect((await page.error).name).to.equal('WidgetError');
    expect(page.document.adoptedStyleSheets).to.have.length(0);
  });

  it('reports WidgetError for a form without a card brand it supports or without an http(s) action, and renders the others', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({
      checkout,
      forms: [{ brands: 'PAYPAL' }, { brands: 'VISA', action: 'javascript:parent.pwned = true' }, { brands: 'VISA' }],
    });
    await page.ready;
    expect(page.errors.map((error) => error.name)).to.deep.equal(['WidgetError', 'WidgetError']);
    expect(page.form(0).children).to.have.length(0);
    expect(page.form(1).children).to.have.length(0);
    expect(page.form(2).querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
  });

  it('works in a page with a strict Content-Security-Policy (no style-src, no unsafe-*), through a 3DS method iframe and challenge', async () => {
    const checkout = await createCheckout();
    const sandbox = new URL(sandboxUrl).origin;
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${NONCE}' ${sandbox}`,
      // No style-src at all: the widget's constructed stylesheet needs none.
      `connect-src ${sandbox}`,
      `frame-src ${sandbox}`,
      `form-action ${sandbox} ${location.origin}`,
    ].join('; ');
    const page = await openWidgetPage({ checkout, csp });
    await page.ready;
    const violations = page.window.gwViolations;
    const form = page.form();
    type(control(form, 'cvv'), '1');
    const hint = form.querySelector<HTMLElement>('.wpwl-hint-cvvError')!;
    expect(page.window.getComputedStyle(hint).color, "the widget's styles apply").to.equal('rgb(179, 38, 30)');
    pay(form, { number: CARDS.challenge });
    await answerChallenge('Complete authentication');
    const result = await shopperResult(page);
    expect(result.href.startsWith(shopperResultUrl)).to.equal(true);
    await expectApproved(result, checkout.id);
    expect(violations, 'no CSP violation').to.deep.equal([]);
  });
});
