/**
 * The widget's saved cards. A registration-only checkout is loaded as the
 * platform's docs load it, `paymentWidgets.js?checkoutId={id}/registration`:
 * its card form saves the card. A one-click checkout (`registrations[n].id`)
 * gets a list of the shopper's saved cards (brand, last 4 digits, expiry; a
 * CVV field with `wpwlOptions.registrations.requireCvv`) above the card forms,
 * which `hideInitialPaymentForms` hides until the shopper asks for a new card.
 * Paying with a saved card is sent once, like a card, and ends on the same result page.
 */
import type { SavedCardAnswer } from '../contract/widget-answers.js';
import { directionOf } from '../browser/language.js';
import { element, showMessage } from './card-form.js';
import type { Widget } from './widget.js';
import { savedCardTexts } from './saved-card-texts.js';
import { sendPayment } from './send-payment.js';
import { isSavedCardCvv, LONGEST_CVV } from './fields.js';

/** A saved card the widget can show: every field it reads is text. What else a gateway's answer lists is left out. */
export const isSavedCard = (card: unknown): card is SavedCardAnswer =>
  typeof card === 'object' &&
  card !== null &&
  (['id', 'paymentBrand', 'last4Digits', 'expiryMonth', 'expiryYear'] as const).every(
    (field) => typeof (card as Record<string, unknown>)[field] === 'string',
  );

/** `05/2034` as the card shows it: `05/34`. */
const expiryOf = (card: SavedCardAnswer) => `${card.expiryMonth}/${card.expiryYear.slice(-2)}`;

/** Renders the saved cards before the first of `forms` (the shop's result page is its action); nothing when there is no form. */
export function renderSavedCards(widget: Widget, cards: readonly SavedCardAnswer[], forms: readonly HTMLFormElement[]): void {
  const [target] = forms;
  if (!target) return;
  const { scope, options } = widget;
  const { signal } = scope;
  const texts = savedCardTexts(widget.language, options.labels);
  const requireCvv = options.registrations?.requireCvv === true;
  const list = element(
    'fieldset',
    'wpwl-group wpwl-group-registration',
    {},
    element('legend', 'wpwl-label wpwl-label-registration', { textContent: texts.savedCards }),
  );
  const choices = cards.map((card, index) => {
    const radio = element('input', 'wpwl-control wpwl-control-registration', {
      type: 'radio',
      name: 'wpwl-registration',
      value: card.id,
      id: `wpwl-registration-${index}`,
      checked: index === 0,
    });
    const label = element('label', 'wpwl-registration', {
      htmlFor: radio.id,
      textContent: `${card.paymentBrand} •••• ${card.last4Digits}, ${texts.expires} ${expiryOf(card)}`,
    });
    list.append(element('div', 'wpwl-wrapper wpwl-wrapper-registration', {}, radio, label));
    return radio;
  });
  // No `name` that a native submission would send: the CVV only ever goes to the gateway.
  const cvv = element('input', 'wpwl-control wpwl-control-cvv', {
    id: 'wpwl-registration-cvv',
    type: 'text',
    inputMode: 'numeric',
    autocomplete: 'cc-csc',
    maxLength: LONGEST_CVV,
    required: requireCvv,
    spellcheck: false,
  });
  const cvvRow = element(
    'div',
    'wpwl-group wpwl-group-cvv',
    {},
    element('label', 'wpwl-label wpwl-label-cvv', { htmlFor: cvv.id, textContent: widget.texts.cvv }),
    element('div', 'wpwl-wrapper wpwl-wrapper-cvv', {}, cvv),
  );
  const button = element('button', 'wpwl-button wpwl-button-pay', { type: 'submit', textContent: texts.payWithSaved });
  const message = element('div', 'wpwl-message wpwl-has-error', { role: 'alert', hidden: true });
  const form = element(
    'form',
    'wpwl-form wpwl-form-registrations',
    { noValidate: true, lang: widget.language, dir: directionOf(widget.language) },
    message,
    list,
    ...(requireCvv ? [cvvRow] : []),
    element('div', 'wpwl-group wpwl-group-submit', {}, element('div', 'wpwl-wrapper wpwl-wrapper-submit', {}, button)),
  );
  const container = scope.own(element('div', 'wpwl-container wpwl-container-registration', {}, form));
  target.before(container);

  if (options.registrations?.hideInitialPaymentForms === true) {
    // "Another card" and unload give each form back as the page had it: one it hid itself stays hidden.
    const hidden = forms.map((shown) => shown.hidden);
    const restore = () => forms.forEach((shown, index) => (shown.hidden = hidden[index]!));
    for (const shown of forms) shown.hidden = true;
    const another = element('button', 'wpwl-button wpwl-button-another', { type: 'button', textContent: texts.anotherCard });
    container.append(another);
    another.addEventListener(
      'click',
      () => {
        restore();
        another.remove();
      },
      { signal },
    );
    scope.defer(restore);
  }

  form.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      void pay(widget, { form, target, cards, choices, cvv: requireCvv ? cvv : undefined, button, message, texts });
    },
    { signal },
  );
}

interface SavedCardForm {
  readonly form: HTMLFormElement;
  /** The merchant's form: its action is the shop's result page. */
  readonly target: HTMLFormElement;
  /** The saved cards, in the order of `choices`. */
  readonly cards: readonly SavedCardAnswer[];
  readonly choices: readonly HTMLInputElement[];
  readonly cvv: HTMLInputElement | undefined;
  readonly button: HTMLButtonElement;
  readonly message: HTMLElement;
  readonly texts: ReturnType<typeof savedCardTexts>;
}

async function pay(widget: Widget, saved: SavedCardForm): Promise<void> {
  const { form, target, cards, choices, cvv, button, message, texts } = saved;
  if (button.disabled || widget.sending) return;
  message.hidden = true;
  const chosenIndex = choices.findIndex((choice) => choice.checked);
  const chosen = choices[chosenIndex];
  if (!chosen) return showMessage(widget.scope, form, texts.chooseCard);
  if (cvv) {
    // Marked as this press finds it: an error shown for the last press goes once the CVV is right.
    const invalid = !isSavedCardCvv(cvv.value.trim(), cards[chosenIndex]!.paymentBrand);
    cvv.setAttribute('aria-invalid', String(invalid));
    cvv.classList.toggle('wpwl-has-error', invalid);
    if (invalid) return cvv.focus();
  }
  if (widget.call('onBeforeSubmitCard', new Event('submit')) === false || widget.scope.signal.aborted) return;
  button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  const body = new URLSearchParams({ registrationId: chosen.value, shopperResultUrl: target.action });
  if (cvv) body.set('card.cvv', cvv.value.trim());
  return sendPayment(widget, target, body, {
    retry(_rejected, text) {
      message.textContent = widget.texts[text];
      message.hidden = false;
      button.disabled = false;
      form.setAttribute('aria-busy', 'false');
    },
  });
}
