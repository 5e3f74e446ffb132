/**
 * One card form inside a merchant's `form.paymentWidgets`: the real widget's
 * markup and classes, inline accessible errors, brand detection among the
 * form's own `data-brands`, and the submission, sent once and never retried.
 */
import { offeredBrands, type ContractedBrands, type FormCardBrand } from '../contract/brands.js';
import { httpUrl } from '../browser/url.js';
import type { Scope } from '../browser/three-d-secure-flow.js';
import { cardBrandsOf, reportNotOffered } from './offered-brands.js';
import { sendPayment } from './send-payment.js';
import type { Widget } from './widget.js';
import { FIELDS, digitsOf, errorTextOf, isValidField, parseExpiry, type Field, type FieldName } from './fields.js';
import { savedCardTexts } from './saved-card-texts.js';
import { directionOf } from '../browser/language.js';
import { detectedBrandOf, steeredToMada } from './mada.js';
import { walletTextsFor } from './wallet-texts.js';
import type { WpwlOptions } from '../browser/widget-contract.js';

interface CardForm {
  /** The widget's own card form (`form.wpwl-form.wpwl-form-card`): what the shopper fills in and the merchant may add fields to. */
  readonly form: HTMLFormElement;
  /** The shop's `form.paymentWidgets` it is rendered in: its action is the shop's result page. */
  readonly target: HTMLFormElement;
  readonly brands: readonly FormCardBrand[];
  brand: FormCardBrand;
  detected: FormCardBrand | undefined;
  readonly controls: Record<FieldName, HTMLInputElement>;
  readonly hints: Record<FieldName, HTMLElement>;
  readonly brandSelect: HTMLSelectElement;
  readonly button: HTMLButtonElement;
  readonly message: HTMLElement;
}

/** A new element with `className`, `properties` and `children`. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.className = className;
  node.append(...children);
  return node;
}

/** What the merchant is told of a form whose action is no http(s) URL: the shopper is only ever sent to a web page. */
export const NO_RESULT_PAGE = "A form.paymentWidgets needs an http(s) action, the shop's result page.";

/** Shows `text` in the form's alert, adding one (removed on unload) when the form has none yet; nothing once unloaded. */
export function showMessage(scope: Scope, form: Element, text: string): void {
  if (scope.signal.aborted) return;
  let message = form.querySelector(':scope > .wpwl-message');
  if (!message) form.append((message = scope.own(element('div', 'wpwl-message wpwl-has-error', { role: 'alert' }))));
  message.textContent = text;
  message.toggleAttribute('hidden', false);
}

/** The card form the widget rendered into the shop's `form`, if any: where its messages go. */
export const cardFormIn = (form: Element): HTMLFormElement | null =>
  form.querySelector<HTMLFormElement>(':scope > .wpwl-container-card > form.wpwl-form-card');

/**
 * The fields the merchant added to the card form (in `onReady`: a "store payment details?" `createRegistration`
 * checkbox, `customParameters[…]`), as a browser's submission of the form sends them: named, enabled, a box only
 * when ticked, text only. The card's own inputs have no name, so none of them is ever among these.
 */
function merchantFields(form: HTMLFormElement): [string, string][] {
  return [...new FormData(form)].filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

/** A labelled row with the real widget's classes: group > label + wrapper > control. */
function row(name: string, label: string, control: HTMLElement): HTMLDivElement {
  return element(
    'div',
    `wpwl-group wpwl-group-${name}`,
    {},
    element('label', `wpwl-label wpwl-label-${name}`, { htmlFor: control.id, textContent: label }),
    element('div', `wpwl-wrapper wpwl-wrapper-${name}`, {}, control),
  );
}

/**
 * Renders the card form into `form` (the `index`-th on the page, for unique
 * ids), or reports a WidgetError and renders nothing when the form names no
 * brand the widget knows or has no http(s) action.
 */
export function renderCardForm(widget: Widget, form: HTMLFormElement, index: number, contracted?: ContractedBrands): CardForm | undefined {
  const { scope, texts, options } = widget;
  const { signal } = scope;
  const listed = cardBrandsOf(form);
  if (!listed.length) {
    widget.report('WidgetError', 'A form.paymentWidgets lists no card brand this widget supports in data-brands.');
    return undefined;
  }
  // The platform's widget offers the form's brands the entity has a contract for, no other.
  const brands = offeredBrands(listed, contracted);
  reportNotOffered(widget, listed, brands);
  // The page's onError may have unloaded the widget (wpwl.unload()): then nothing more is added.
  if (signal.aborted) return undefined;
  const first = brands[0];
  if (!first) {
    // A configuration refusal, said as one: nothing is wrong with the shopper's card.
    if (!form.querySelector(':scope > .wpwl-group-wallets')) showMessage(scope, form, texts.brandUnavailable);
    return undefined;
  }
  // The shopper is sent to the action after paying: never to a javascript: or other non-web URL.
  if (!httpUrl(form.action)) {
    widget.report('WidgetError', NO_RESULT_PAGE);
    return undefined;
  }
  const { lang, dir } = form;
  // The texts are in the widget's language; say so to screen readers when the page is in another one,
  // and lay the form out in that language's direction (Arabic: right to left) whatever the page's.
  form.lang = widget.language;
  form.dir = directionOf(widget.language);
  scope.defer(() => {
    if (lang) form.lang = lang;
    else form.removeAttribute('lang');
    if (dir) form.dir = dir;
    else form.removeAttribute('dir');
  });
  // The platform's markup: a form of the widget's own, div.wpwl-container.wpwl-container-card > form.wpwl-form.wpwl-form-card,
  // where the shop's form is. It goes inside the shop's form, so it stays where the page (or <gw-checkout>) put that form.
  const own = element('form', 'wpwl-form wpwl-form-card', { noValidate: true });
  form.append(scope.own(element('div', 'wpwl-container wpwl-container-card', {}, own)));
  const attach = <T extends Element>(node: T): T => {
    own.append(node);
    return node;
  };

  const id = (name: string) => `wpwl-${index}-${name}`;
  const message = attach(element('div', 'wpwl-message wpwl-has-error', { role: 'alert', hidden: true }));
  const brandSelect = element(
    'select',
    'wpwl-control wpwl-control-brand',
    { id: id('brand') },
    ...brands.map((brand) => element('option', '', { value: brand, textContent: brand })),
  );
  attach(row('brand', texts.brand, brandSelect));

  const cardForm: CardForm = {
    form: own,
    target: form,
    brands,
    brand: first,
    detected: undefined,
    message,
    brandSelect,
    controls: {} as CardForm['controls'],
    hints: {} as CardForm['hints'],
    button: element('button', 'wpwl-button wpwl-button-pay', {
      type: 'submit',
      textContent: widget.registration ? savedCardTexts(widget.language).save : texts.submit,
    }),
  };
  for (const field of FIELDS) {
    // No `name` attribute: a native submission of the shop's form can never carry card data.
    const control = element('input', `wpwl-control wpwl-control-${field.name}`, {
      id: id(field.name),
      type: 'text',
      autocomplete: field.autocomplete,
      inputMode: field.inputMode,
      maxLength: field.maxLength,
      spellcheck: false,
      required: field.name !== 'cvv' || options.requireCvv !== false,
      placeholder: field.name === 'expiry' ? texts.mmyy : '',
      // Card number, expiry and CVV are digits read left to right in every language, as on the card.
      dir: field.inputMode === 'numeric' ? 'ltr' : 'auto',
    });
    const hint = element('div', `wpwl-hint wpwl-hint-${field.error}`, {
      id: id(`${field.name}-error`),
      hidden: true,
      textContent: texts[field.error],
    });
    attach(row(field.name, texts[field.label], control)).append(hint);
    cardForm.controls[field.name] = control;
    cardForm.hints[field.name] = hint;
    // Validate when the shopper leaves a field they typed in, and clear an error as soon as it is fixed.
    control.addEventListener('blur', () => control.value && validate(widget, cardForm, field.name), { signal });
    control.addEventListener('input', () => control.getAttribute('aria-invalid') === 'true' && validate(widget, cardForm, field.name), {
      signal,
    });
  }
  attach(element('div', 'wpwl-group wpwl-group-submit', {}, element('div', 'wpwl-wrapper wpwl-wrapper-submit', {}, cardForm.button)));

  cardForm.controls.cardNumber.addEventListener('input', () => detectBrand(widget, cardForm), { signal });
  brandSelect.addEventListener('change', () => changeBrand(widget, cardForm, brandSelect.value as FormCardBrand), { signal });
  own.addEventListener('submit', (event) => void submit(widget, cardForm, event as SubmitEvent), { signal });
  return cardForm;
}

/** Focuses the field `wpwlOptions.autofocus` names. */
export function autofocus(cardForm: CardForm, target: WpwlOptions['autofocus']): void {
  if (target) cardForm.controls[target === 'card.holder' ? 'cardHolder' : 'cardNumber'].focus();
}

function detectBrand(widget: Widget, cardForm: CardForm): void {
  const digits = digitsOf(cardForm.controls.cardNumber.value);
  const detected = detectedBrandOf(digits, widget.options);
  if (detected === cardForm.detected) return;
  cardForm.detected = detected;
  // A MADA card on a form without MADA is refused at once, so the shopper is steered before typing the rest.
  if (steeredToMada(digits, cardForm.brands, widget.options)) validate(widget, cardForm, 'cardNumber', true);
  const allowed = detected && cardForm.brands.includes(detected) ? [detected] : [];
  widget.call('onDetectBrand', allowed);
  if (widget.scope.signal.aborted) return;
  if (widget.options.brandDetection !== false && detected && allowed.length) {
    cardForm.brandSelect.value = detected;
    changeBrand(widget, cardForm, detected);
  }
}

function changeBrand(widget: Widget, cardForm: CardForm, brand: FormCardBrand): void {
  if (brand === cardForm.brand) return;
  cardForm.brand = brand;
  widget.call('onChangeBrand', brand);
}

/** Shows or clears a field's inline error; true when the field is valid. */
function validate(widget: Widget, cardForm: CardForm, name: FieldName, invalid?: boolean): boolean {
  const control = cardForm.controls[name];
  const hint = cardForm.hints[name];
  const steered = name === 'cardNumber' && steeredToMada(digitsOf(control.value), cardForm.brands, widget.options);
  invalid ??=
    steered ||
    !isValidField(name, control.value, { brand: cardForm.brand, requireCvv: widget.options.requireCvv !== false, now: new Date() });
  const field = FIELDS.find((candidate) => candidate.name === name)!;
  hint.textContent = steered
    ? walletTextsFor(widget.language, widget.options.labels, widget.options.errorMessages).madaSteer
    : widget.texts[errorTextOf(field, control.value, new Date())];
  control.classList.toggle('wpwl-has-error', invalid);
  control.setAttribute('aria-invalid', String(invalid));
  hint.hidden = !invalid;
  if (invalid) control.setAttribute('aria-describedby', hint.id);
  else control.removeAttribute('aria-describedby');
  return !invalid;
}

function setBusy(cardForm: CardForm, busy: boolean): void {
  cardForm.button.disabled = busy;
  cardForm.form.setAttribute('aria-busy', String(busy));
}

async function submit(widget: Widget, cardForm: CardForm, event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (cardForm.button.disabled || widget.sending) return;
  cardForm.message.hidden = true;
  const invalid = FIELDS.filter((field) => !validate(widget, cardForm, field.name));
  if (invalid[0]) return cardForm.controls[invalid[0].name].focus();
  // Nothing is sent when the page says no, or unloaded the widget in the callback.
  if (widget.call('onBeforeSubmitCard', event) === false || widget.scope.signal.aborted) return;

  setBusy(cardForm, true);
  const { controls, form, target } = cardForm;
  const expiry = parseExpiry(controls.expiry.value)!;
  const body = new URLSearchParams({
    paymentBrand: cardForm.brand,
    'card.number': digitsOf(controls.cardNumber.value),
    'card.holder': controls.cardHolder.value.trim(),
    'card.expiryMonth': expiry.month,
    'card.expiryYear': expiry.year,
    shopperResultUrl: target.action,
  });
  if (controls.cvv.value) body.set('card.cvv', controls.cvv.value);
  const own = new Set(body.keys());
  // The page's fields after the widget's own, never in their place: the card is only ever what the shopper typed.
  for (const [name, value] of merchantFields(form)) if (!own.has(name) && !name.startsWith('card.')) body.append(name, value);
  return sendPayment(widget, target, body, {
    path: widget.registration ? 'widget/registration' : 'widget/payments',
    retry(refused, text) {
      // A field the page added that the gateway refuses (`createRegistration=on`) is the merchant's to fix: say which.
      const added = refused.filter((name) => !own.has(name) && body.has(name));
      if (added.length) widget.report('WidgetError', `The gateway refused fields the page added to the card form: ${added.join(', ')}.`);
      if (widget.scope.signal.aborted) return;
      const rejected: Field[] = FIELDS.filter((field) => field.parameters.some((parameter) => refused.includes(parameter)));
      for (const field of rejected) validate(widget, cardForm, field.name, true);
      cardForm.message.textContent = rejected.length ? '' : widget.texts[text];
      cardForm.message.hidden = rejected.length > 0;
      setBusy(cardForm, false);
      if (rejected[0]) controls[rejected[0].name].focus();
    },
  });
}
