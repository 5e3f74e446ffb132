/**
 * STC Pay, the Saudi wallet, in the sandbox's widget: the shopper's mobile
 * number, then a one-time password. The platform documents STC Pay for its
 * mobile SDK, not for this widget: this flow is the sandbox's own stand-in.
 * No message is sent: the sandbox's one-time passwords pick the outcome, and
 * both fields go to the gateway together, in one payment request.
 */
import { SAUDI_MOBILE, WALLET_PROOF_FIELDS } from '../contract/wallet-stand-in.js';
import { element } from './card-form.js';
import type { Widget } from './widget.js';
import { sendPayment } from './send-payment.js';
import type { WalletTexts } from './wallet-texts.js';

/** A labelled input with its inline error, in the card form's markup. */
function field(
  id: string,
  name: string,
  label: string,
  error: string,
  properties: Partial<HTMLInputElement>,
): { row: HTMLDivElement; input: HTMLInputElement; hint: HTMLDivElement } {
  const input = element('input', `wpwl-control wpwl-control-${name}`, {
    id,
    type: 'text',
    spellcheck: false,
    required: true,
    ...properties,
  });
  const hint = element('div', `wpwl-hint wpwl-hint-${name}Error`, { id: `${id}-error`, hidden: true, textContent: error });
  const row = element(
    'div',
    `wpwl-group wpwl-group-${name}`,
    {},
    element('label', `wpwl-label wpwl-label-${name}`, { htmlFor: id, textContent: label }),
    element('div', `wpwl-wrapper wpwl-wrapper-${name}`, {}, input),
    hint,
  );
  return { row, input, hint };
}

function showError(input: HTMLInputElement, hint: HTMLElement, invalid: boolean): void {
  input.classList.toggle('wpwl-has-error', invalid);
  input.setAttribute('aria-invalid', String(invalid));
  hint.hidden = !invalid;
  if (invalid) input.setAttribute('aria-describedby', hint.id);
  else input.removeAttribute('aria-describedby');
}

/** Renders STC Pay's two steps into `group`, the form's wallet area. */
export function renderStcPay(widget: Widget, form: HTMLFormElement, group: HTMLElement, index: number, texts: WalletTexts): void {
  const { signal } = widget.scope;
  const id = (name: string) => `wpwl-${index}-${name}`;
  const mobile = field(id('stcPayMobile'), 'stcPayMobile', texts.stcPayMobile, texts.stcPayMobileError, {
    type: 'tel',
    autocomplete: 'tel',
    inputMode: 'tel',
    maxLength: 16,
  });
  const otp = field(id('stcPayOtp'), 'stcPayOtp', texts.stcPayOtp, texts.stcPayOtpError, {
    autocomplete: 'one-time-code',
    inputMode: 'numeric',
    maxLength: 6,
  });
  const sendCode = element('button', 'wpwl-button wpwl-button-stcPaySendCode', { type: 'button', textContent: texts.stcPaySendCode });
  const confirm = element('button', 'wpwl-button wpwl-button-stcPayConfirm', { type: 'button', textContent: texts.stcPayConfirm });
  const message = element('div', 'wpwl-message wpwl-has-error', { role: 'alert', hidden: true });
  const otpStep = element('div', 'wpwl-stcPay-otp', { hidden: true }, otp.row, confirm);
  const section = element(
    'fieldset',
    'wpwl-stcPay',
    {},
    element('legend', 'wpwl-stcPay-title', { textContent: texts.stcPay }),
    element('p', 'wpwl-stcPay-note', { textContent: texts.stcPayNote }),
    message,
    mobile.row,
    sendCode,
    otpStep,
  );
  group.append(section);

  const mobileNumber = () => mobile.input.value.replace(/[\s-]/g, '');
  sendCode.addEventListener(
    'click',
    () => {
      const valid = SAUDI_MOBILE.test(mobileNumber());
      showError(mobile.input, mobile.hint, !valid);
      if (!valid) return mobile.input.focus();
      // The stand-in sends no message: the second step opens at once.
      otpStep.hidden = false;
      otp.input.focus();
    },
    { signal },
  );
  confirm.addEventListener(
    'click',
    () => {
      if (widget.sending) return;
      const valid = /^\d{6}$/.test(otp.input.value);
      showError(otp.input, otp.hint, !valid);
      if (!valid) return otp.input.focus();
      message.hidden = true;
      confirm.disabled = sendCode.disabled = true;
      section.setAttribute('aria-busy', 'true');
      const body = new URLSearchParams({
        paymentBrand: 'STC_PAY',
        'customer.mobile': mobileNumber(),
        [WALLET_PROOF_FIELDS.STC_PAY]: otp.input.value,
      });
      void sendPayment(widget, form, body, {
        retry(rejected, text) {
          confirm.disabled = sendCode.disabled = false;
          section.setAttribute('aria-busy', 'false');
          if (rejected.includes('customer.mobile')) return (showError(mobile.input, mobile.hint, true), mobile.input.focus());
          if (rejected.includes(WALLET_PROOF_FIELDS.STC_PAY)) return (showError(otp.input, otp.hint, true), otp.input.focus());
          message.textContent = widget.texts[text];
          message.hidden = false;
        },
      });
    },
    { signal },
  );
}
