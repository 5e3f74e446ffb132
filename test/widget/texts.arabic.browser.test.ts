/**
 * The sandbox widget in Arabic (`locale: 'ar'`, 'ar-SA' …) on a plain merchant page: Arabic texts,
 * a right-to-left form whose digit fields stay left to right, mirrored by the widget's own styles,
 * accessible, and paid end to end against the sandbox.
 */
import { expect } from '@open-wc/testing';
import { classifyResult } from '../../src/contract/result-codes.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { DEFAULT_MADA_ENTITY_ID } from '../../src/sandbox/test-cards.js';
import { merchantCall } from '../support/gateway.js';
import {
  axeViolations,
  closePages,
  control,
  createCheckout,
  fill,
  openWidgetPage,
  payButton,
  paymentStatus,
  shopperResult,
  type,
} from './widget-page.js';

/** Where a label's text is drawn (a block label spans the whole row; its text sits at the start). */
function textBox(label: HTMLLabelElement): DOMRect {
  const range = label.ownerDocument.createRange();
  range.selectNodeContents(label);
  return range.getBoundingClientRect();
}

const labelOf = (form: HTMLFormElement, name: 'cardNumber' | 'expiry' | 'cvv' | 'cardHolder') =>
  form.ownerDocument.querySelector<HTMLLabelElement>(`label[for="${control(form, name).id}"]`)!;

describe('sandbox payment widget in Arabic', () => {
  afterEach(closePages);

  it('speaks Arabic right to left for locale ar-SA, keeps the digit fields left to right, and pays', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, options: { locale: 'ar-SA' } });
    await page.ready;
    const form = page.form();
    expect(form.lang).to.equal('ar');
    expect(form.dir).to.equal('rtl');
    expect(labelOf(form, 'cardNumber').textContent).to.equal('رقم البطاقة');
    expect(payButton(form).textContent).to.equal('ادفع الآن');
    for (const name of ['cardNumber', 'expiry', 'cvv'] as const) expect(control(form, name).dir, name).to.equal('ltr');
    expect(control(form, 'cardHolder').dir, 'a name may be written in either script').to.equal('auto');

    // Mirrored: each label starts at its field's right edge, and the expiry sits to the right of the CVV.
    const label = textBox(labelOf(form, 'cardNumber'));
    const field = control(form, 'cardNumber').getBoundingClientRect();
    expect(Math.abs(label.right - field.right), "the label text starts at the field's right edge").to.be.below(1);
    expect(label.left, 'and ends well before its left edge').to.be.above(field.left + field.width / 2);
    expect(control(form, 'expiry').getBoundingClientRect().left).to.be.above(control(form, 'cvv').getBoundingClientRect().right);
    expect(await axeViolations(page, form), 'axe-core').to.deep.equal([]);

    type(control(form, 'cvv'), '1');
    control(form, 'cvv').dispatchEvent(new page.window.FocusEvent('blur'));
    expect(form.querySelector('.wpwl-hint-cvvError')?.textContent).to.equal('رمز التحقق غير صالح');

    fill(form, { number: CARDS.approved, holder: 'سارة العتيبي' });
    payButton(form).click();
    const result = await shopperResult(page);
    const status = await paymentStatus(result);
    expect(classifyResult(status.result.code), status.result.code).to.equal('approved');
    expect(status.card.holder).to.equal('سارة العتيبي');
  });

  it('speaks Arabic in the wallets too: a wallet-only form, its stand-in sheet and STC Pay, right to left', async () => {
    const { body } = await merchantCall('POST', '/v1/checkouts', {
      entityId: DEFAULT_MADA_ENTITY_ID,
      amount: '30.00',
      currency: 'SAR',
      paymentType: 'DB',
      integrity: 'true',
    });
    const page = await openWidgetPage({
      checkout: { id: body.id, integrity: body.integrity },
      forms: [{ brands: 'APPLEPAY STC_PAY' }],
      options: { locale: 'ar', applePay: { displayName: 'متجر', total: { label: 'متجر' }, countryCode: 'SA' } },
    });
    await page.ready;
    const wallets = page.form().querySelector<HTMLElement>('.wpwl-group-wallets')!;
    expect([wallets.lang, wallets.dir]).to.deep.equal(['ar', 'rtl']);
    const button = wallets.querySelector<HTMLButtonElement>('button.wpwl-apple-pay-button')!;
    expect(button.textContent).to.equal('ادفع باستخدام Apple Pay');
    expect(wallets.textContent).to.include('رقم الجوال');
    button.click();
    const sheet = page.document.querySelector<HTMLDialogElement>('dialog.wpwl-wallet-sheet')!;
    expect([sheet.lang, sheet.dir]).to.deep.equal(['ar', 'rtl']);
    expect(sheet.querySelector('.wpwl-wallet-sheet-approve')!.textContent).to.equal('موافقة');
    expect(await axeViolations(page, sheet), 'axe-core').to.deep.equal([]);
  });

  it('lays an English widget out left to right even on a right-to-left page, and unload gives the form back its own direction', async () => {
    const checkout = await createCheckout();
    const page = await openWidgetPage({ checkout, options: { locale: 'en' } });
    await page.ready;
    const form = page.form();
    page.document.documentElement.dir = 'rtl';
    expect(form.dir).to.equal('ltr');
    const label = textBox(labelOf(form, 'cardNumber'));
    const field = control(form, 'cardNumber').getBoundingClientRect();
    expect(Math.abs(label.left - field.left)).to.be.below(1);
    expect(label.right).to.be.below(field.left + field.width / 2);
    page.window.wpwl!.unload();
    expect(form.hasAttribute('dir')).to.equal(false);
    expect(form.hasAttribute('lang')).to.equal(false);
  });
});
