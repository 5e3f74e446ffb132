/**
 * Wallet brands in a merchant's `form.paymentWidgets`: a button per wallet the
 * form's `data-brands` lists (APPLEPAY, APPLEPAYTKN, GOOGLEPAY) and STC Pay's
 * form (stc-pay.ts). The platform's widget opens the real Apple Pay or Google
 * Pay sheet (the Apple Pay button only on capable devices); the sandbox never
 * touches a real wallet: its button opens a stand-in sheet, a dialog that says
 * so, where the tester picks the outcome. The stand-in's token goes to the
 * checkout's payment endpoint as the wallet's token would, sent once and never
 * retried.
 */
import { offeredBrands } from '../contract/brands.js';
import { cardBrandsOf, reportNotOffered, walletBrandsOf } from './offered-brands.js';
import { directionOf } from '../browser/language.js';
import { httpUrl } from '../browser/url.js';
import type { ApplePayOptions, GooglePayOptions } from '../browser/widget-contract.js';
import { element, NO_RESULT_PAGE, showMessage } from './card-form.js';
import type { Widget } from './widget.js';
import { sendPayment } from './send-payment.js';
import { renderStcPay } from './stc-pay.js';
import { walletTextsFor, type WalletTexts } from './wallet-texts.js';
import { WALLET_PROOF_FIELDS, WALLET_TOKENS } from '../contract/wallet-stand-in.js';

/** What the sheet shows of the checkout. */
export interface CheckoutSummary {
  readonly amount?: string;
  readonly currency?: string;
  /** The brands the checkout's entity has a contract for, when the gateway names them. */
  readonly brands?: readonly string[];
}

/** The tokens the stand-in sheet sends: the sandbox's triggers. */
const STAND_IN_TOKENS = { approve: WALLET_TOKENS.approved, decline: WALLET_TOKENS.declined } as const;

const SHEET_WALLETS = { APPLEPAY: 'Apple Pay', APPLEPAYTKN: 'Apple Pay', GOOGLEPAY: 'Google Pay' } as const;
type SheetWallet = keyof typeof SHEET_WALLETS;

/**
 * Renders the wallets `form` lists; true when it lists any. A form without an
 * http(s) action is reported and left alone, as the card form does. A wallet
 * the checkout's entity has no contract for is not offered (the platform's
 * widget shows only the brands the channel is configured for), and the
 * merchant is told why.
 */
export function renderWallets(widget: Widget, form: HTMLFormElement, index: number, checkout: CheckoutSummary): boolean {
  const listed = walletBrandsOf(form);
  if (!listed.length) return false;
  // A registration-only checkout saves a card and takes no payment: a wallet there would pay, which the gateway refuses.
  if (widget.registration) {
    widget.report('WidgetError', `Not offered: a registration-only checkout saves cards, and ${listed.join(', ')} would pay.`);
    // Unless the page's onError unloaded the widget: then nothing more is added (showMessage adds nothing either).
    if (!cardBrandsOf(form).length) showMessage(widget.scope, form, widget.texts.brandUnavailable);
    return true;
  }
  const wallets = offeredBrands(listed, checkout.brands);
  reportNotOffered(widget, listed, wallets);
  if (widget.scope.signal.aborted) return true;
  if (!wallets.length) {
    // Nothing of this form can be used: the shopper is told so, never that a payment was declined.
    if (!cardBrandsOf(form).length) showMessage(widget.scope, form, widget.texts.brandUnavailable);
    return true;
  }
  if (!httpUrl(form.action)) {
    widget.report('WidgetError', NO_RESULT_PAGE);
    return false;
  }
  const texts = walletTextsFor(widget.language, widget.options.labels, widget.options.errorMessages);
  // In the widget's language and its direction, as the card form: a form of wallets alone has no card form to say so.
  const group = widget.scope.own(
    element('div', 'wpwl-group wpwl-group-wallets', { lang: widget.language, dir: directionOf(widget.language) }),
  );
  form.prepend(group);
  for (const brand of wallets) {
    if (brand === 'STC_PAY') renderStcPay(widget, form, group, index, texts);
    else group.append(walletButton(widget, form, brand, checkout, texts));
  }
  return true;
}

function walletButton(
  widget: Widget,
  form: HTMLFormElement,
  brand: SheetWallet,
  checkout: CheckoutSummary,
  texts: WalletTexts,
): HTMLButtonElement {
  const apple = brand !== 'GOOGLEPAY';
  const button = element('button', `wpwl-button wpwl-button-brand ${apple ? 'wpwl-apple-pay-button' : 'wpwl-google-pay-button'}`, {
    type: 'button',
    textContent: apple ? texts.applePay : texts.googlePay,
  });
  button.dataset.brand = brand;
  button.addEventListener('click', () => widget.sending || openSheet(widget, form, brand, checkout, texts, button), {
    signal: widget.scope.signal,
  });
  return button;
}

/** The stand-in for the wallet's payment sheet: a modal dialog with the merchant's name, the total and the outcomes. */
function openSheet(
  widget: Widget,
  form: HTMLFormElement,
  brand: SheetWallet,
  checkout: CheckoutSummary,
  texts: WalletTexts,
  opener: HTMLButtonElement,
): void {
  const wallet = SHEET_WALLETS[brand];
  const settings: ApplePayOptions | GooglePayOptions | undefined =
    brand === 'GOOGLEPAY' ? widget.options.googlePay : widget.options.applePay;
  const merchant =
    brand === 'GOOGLEPAY'
      ? widget.options.googlePay?.merchantName
      : (widget.options.applePay?.displayName ?? widget.options.applePay?.total?.label);
  const total = [checkout.amount, checkout.currency].filter(Boolean).join(' ');
  const titleId = `wpwl-wallet-sheet-title-${brand}`;
  const decide = (outcome: keyof typeof STAND_IN_TOKENS) =>
    element('button', `wpwl-button wpwl-wallet-sheet-${outcome}`, {
      type: 'button',
      textContent: outcome === 'approve' ? texts.sheetApprove : texts.sheetDecline,
    });
  const approve = decide('approve');
  const decline = decide('decline');
  const cancel = element('button', 'wpwl-button wpwl-wallet-sheet-cancel', { type: 'button', textContent: texts.sheetCancel });
  const sheet = widget.scope.own(
    element(
      'dialog',
      'wpwl-wallet-sheet',
      { lang: widget.language, dir: directionOf(widget.language) },
      element('h2', 'wpwl-wallet-sheet-title', { id: titleId, textContent: texts.sheetTitle.replace('{wallet}', wallet) }),
      element('p', 'wpwl-wallet-sheet-note', { textContent: texts.sheetNote.replace('{wallet}', wallet) }),
      element('p', 'wpwl-wallet-sheet-total', { textContent: [merchant, total].filter(Boolean).join(': ') }),
      approve,
      decline,
      cancel,
    ),
  );
  sheet.setAttribute('aria-labelledby', titleId);
  document.body.append(sheet);
  const { signal } = widget.scope;
  const close = () => {
    sheet.close();
    sheet.remove();
    opener.focus();
  };
  // Escape closes the dialog: the shopper cancelled, as closing the real sheet is; not once the payment is being sent.
  sheet.addEventListener(
    'cancel',
    (event) => {
      if (approve.disabled) event.preventDefault();
      else settings?.onCancel?.();
    },
    { signal },
  );
  sheet.addEventListener('close', () => sheet.remove(), { signal });
  cancel.addEventListener('click', () => (close(), settings?.onCancel?.()), { signal });
  for (const [button, outcome] of [
    [approve, 'approve'],
    [decline, 'decline'],
  ] as const) {
    button.addEventListener(
      'click',
      () => {
        if (widget.sending) return;
        // The wallet's own button too, until the answer: a sheet closed meanwhile (a browser may force it) opens no second payment.
        approve.disabled = decline.disabled = cancel.disabled = opener.disabled = true;
        void sendPayment(
          widget,
          form,
          new URLSearchParams({ paymentBrand: brand, [WALLET_PROOF_FIELDS[brand]]: STAND_IN_TOKENS[outcome] }),
          {
            retry: (_rejected, text) => {
              opener.disabled = false;
              close();
              showMessage(widget.scope, form, widget.texts[text]);
            },
          },
        );
      },
      { signal },
    );
  }
  sheet.showModal();
}
