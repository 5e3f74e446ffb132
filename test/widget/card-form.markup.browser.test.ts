/**
 * The card form's markup and names as the platform's widget has them, which CSS and scripts written
 * for the real widget rely on: its own form in `div.wpwl-container.wpwl-container-card`, the pay
 * button in `.wpwl-wrapper-submit`, the expiry hint `wpwl-hint-expiryMonthError` and its
 * `errorMessages` keys `expiryMonthError` and `expiryYearError`. Found by a review: the sandbox put
 * `wpwl-form wpwl-form-card` on the shop's form, left the button unwrapped and named the expiry hint
 * `wpwl-hint-expiryError` (text key `expiryDateError`, which no merchant sets).
 */
import { expect } from '@open-wc/testing';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import {
  cardFormOf,
  closePages,
  control,
  createCheckout,
  openWidgetPage,
  pay,
  payButton,
  paymentStatus,
  shopperResult,
  type,
  FUTURE_EXPIRY,
} from './widget-page.js';

/** CSS an integrator wrote for the platform's widget. */
const MERCHANT_CSS = `
.wpwl-container-card { outline: 3px solid rgb(1, 2, 3); }
.wpwl-container .wpwl-button-pay { color: rgb(4, 5, 6); }
.wpwl-form .wpwl-wrapper-submit button { letter-spacing: 3px; }
`;

const PAST_YEAR = `01 / ${String(new Date().getUTCFullYear() - 1).slice(2)}`;

describe('the card form as the platform renders it', () => {
  afterEach(closePages);

  it('renders its own form.wpwl-form-card in div.wpwl-container-card, the button in .wpwl-wrapper-submit: CSS for the real widget applies', async function () {
    // It pays end to end as well, through the sandbox's result page: the time a loaded machine needs for that.
    this.timeout(30_000);
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    const style = page.document.createElement('style');
    style.textContent = MERCHANT_CSS;
    page.document.head.append(style);
    const form = page.form();
    const container = page.document.querySelector('.wpwl-container.wpwl-container-card')!;
    expect(container, 'the container').to.not.equal(null);
    const cardForm = cardFormOf(form);
    expect(container.parentElement, "in the shop's form, where the page put it").to.equal(form);
    expect(form.className, "the shop's form keeps its own classes").to.equal('paymentWidgets');
    expect(page.document.querySelectorAll('.wpwl-form-card'), 'one card form').to.have.length(1);
    const button = payButton(form);
    expect(button.parentElement!.matches('.wpwl-group-submit > .wpwl-wrapper-submit')).to.equal(true);
    expect(button.form, 'the button submits the card form').to.equal(cardForm);
    for (const name of ['cardNumber', 'expiry', 'cvv', 'cardHolder', 'brand'] as const)
      expect(control(form, name).form, name).to.equal(cardForm);

    const css = page.window.getComputedStyle.bind(page.window);
    expect(css(container).outlineColor, '.wpwl-container-card').to.equal('rgb(1, 2, 3)');
    expect(css(button).color, '.wpwl-container .wpwl-button-pay').to.equal('rgb(4, 5, 6)');
    expect(css(button).letterSpacing, '.wpwl-form .wpwl-wrapper-submit button').to.equal('3px');

    pay(form, { number: CARDS.approved });
    const status = await paymentStatus(await shopperResult(page));
    expect(status.card.last4Digits).to.equal('0000');
  });

  it('unload() removes the container and leaves the shop form as the page had it', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout });
    await page.ready;
    const form = page.form();
    page.window.wpwl!.unload();
    expect(page.document.querySelector('.wpwl-container')).to.equal(null);
    expect(form.children).to.have.length(0);
    expect(form.className).to.equal('paymentWidgets');
  });

  it('names the expiry hint wpwl-hint-expiryMonthError: errorMessages.expiryMonthError for a bad month, expiryYearError for a past year', async () => {
    const checkout = await createCheckout();
    const errorMessages = { expiryMonthError: 'Check the month', expiryYearError: 'Check the year' };
    const page = await openWidgetPage({ checkout, options: { errorMessages } });
    await page.ready;
    const form = page.form();
    const expiry = control(form, 'expiry');
    const hint = form.querySelector<HTMLElement>('.wpwl-hint-expiryMonthError')!;
    expect(hint, 'the platform names the expiry hint wpwl-hint-expiryMonthError').to.not.equal(null);
    expect(form.querySelector('.wpwl-hint-expiryError'), 'no hint the platform does not have').to.equal(null);

    type(expiry, '13 / 30');
    expect(expiry.getAttribute('aria-invalid')).to.equal('true');
    expect(expiry.getAttribute('aria-describedby')).to.equal(hint.id);
    expect([hint.hidden, hint.textContent]).to.deep.equal([false, 'Check the month']);
    type(expiry, PAST_YEAR);
    expect([hint.hidden, hint.textContent]).to.deep.equal([false, 'Check the year']);
    type(expiry, FUTURE_EXPIRY);
    expect(hint.hidden, 'fixed').to.equal(true);
  });

  it('says the expiry texts in the widget language when the merchant sets none', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, options: { locale: 'de' } });
    await page.ready;
    const form = page.form();
    const hint = form.querySelector<HTMLElement>('.wpwl-hint-expiryMonthError')!;
    type(control(form, 'expiry'), '13 / 30');
    expect(hint.textContent).to.equal('Ungültiges oder abgelaufenes Ablaufdatum');
    type(control(form, 'expiry'), PAST_YEAR);
    expect(hint.textContent).to.equal('Ungültiges oder abgelaufenes Ablaufjahr');
  });
});
