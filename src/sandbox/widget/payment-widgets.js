// @ts-check
/*
 * The sandbox's payment widget: the exact bytes `GET /v1/paymentWidgets.js?checkoutId=` serves
 * (their sha384 is every checkout's `integrity`), so it reads its checkout id and the sandbox
 * origin from its own <script src>. Like the platform's widget it reads `window.wpwlOptions`,
 * renders a card form into every `form.paymentWidgets`, sends the card to the gateway, runs the
 * 3-D Secure redirect and finally sends the shopper to the form's `action`. No eval, no inline
 * styles or handlers: it runs under a strict Content-Security-Policy.
 */
/* global AbortController, CSSStyleSheet, URL, URLSearchParams, fetch, HTMLFormElement, reportError, setTimeout, clearTimeout, location */
(function () {
  'use strict';

  /**
   * @typedef {'InvalidCheckoutIdError' | 'WidgetError' | 'PciIframeSubmitError' | 'PciIframeCommunicationError'} WidgetErrorName
   * @typedef {{
   *   locale?: string, style?: 'card' | 'plain' | 'none', labels?: Record<string, string>,
   *   errorMessages?: Record<string, string>, autofocus?: boolean | 'card.number' | 'card.holder',
   *   requireCvv?: boolean, brandDetection?: boolean,
   *   onReady?: () => void, onBeforeSubmitCard?: (event: SubmitEvent) => boolean | void,
   *   onAfterSubmit?: () => void, onError?: (error: Error & { name: WidgetErrorName }) => void,
   *   onChangeBrand?: (brand: string) => void, onDetectBrand?: (brands: string[]) => void,
   * }} WpwlOptions
   * @typedef {'cardNumber' | 'expiry' | 'cvv' | 'cardHolder'} FieldName
   * @typedef {{ name: string, value: string }} NameValue
   * @typedef {{ url: string, method?: string, parameters?: NameValue[] }} Precondition
   * @typedef {{ url: string, method?: string, parameters?: NameValue[], preconditions?: Precondition[] }} Redirect
   * @typedef {{
   *   form: HTMLFormElement, brands: string[], brand: string, detected: string,
   *   controls: Record<FieldName, HTMLInputElement>, hints: Record<FieldName, HTMLElement>,
   *   brandSelect: HTMLSelectElement, button: HTMLButtonElement, message: HTMLElement,
   * }} CardForm
   */

  const TEXTS = {
    en: {
      brand: 'Brand', cardNumber: 'Card number', expiryDate: 'Expiry date', mmyy: 'MM / YY', cvv: 'CVV',
      cardHolder: 'Card holder', submit: 'Pay now',
      cardNumberError: 'Invalid card number or brand', expiryDateError: 'Invalid or past expiry date',
      cvvError: 'Invalid CVV', cardHolderError: 'Invalid card holder',
      declined: 'The payment was declined. Check the details or use another card.',
      invalidCheckout: 'This payment session is invalid or has expired. Please reload the page.',
      unavailable: 'The payment form could not be loaded. Please try again later.',
    },
    de: {
      brand: 'Marke', cardNumber: 'Kartennummer', expiryDate: 'Ablaufdatum', mmyy: 'MM / JJ', cvv: 'Prüfnummer',
      cardHolder: 'Karteninhaber', submit: 'Jetzt bezahlen',
      cardNumberError: 'Ungültige Kartennummer oder Marke', expiryDateError: 'Ungültiges oder abgelaufenes Ablaufdatum',
      cvvError: 'Ungültige Prüfnummer', cardHolderError: 'Ungültiger Karteninhaber',
      declined: 'Die Zahlung wurde abgelehnt. Prüfen Sie die Angaben oder nutzen Sie eine andere Karte.',
      invalidCheckout: 'Diese Zahlungssitzung ist ungültig oder abgelaufen. Bitte laden Sie die Seite neu.',
      unavailable: 'Das Zahlungsformular konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
    },
  };

  /**
   * Card brands by number prefix, with their lengths and CVV length. VISA, MASTER and AMEX are the
   * prefixes the sandbox checks a paymentBrand against (src/contract/rules.ts; a node test compares).
   */
  const BRANDS = {
    VISA: { prefix: /^4/, lengths: [13, 16, 19], cvv: 3 },
    MASTER: { prefix: /^(5[1-5]|2(22[1-9]|2[3-9]|[3-6]|7[01]|720))/, lengths: [16], cvv: 3 },
    AMEX: { prefix: /^3[47]/, lengths: [15], cvv: 4 },
    DINERS: { prefix: /^3(0[0-5]|[689])/, lengths: [14, 15, 16, 17, 18, 19], cvv: 3 },
    DISCOVER: { prefix: /^6(011|4[4-9]|5)/, lengths: [16, 17, 18, 19], cvv: 3 },
    JCB: { prefix: /^35(2[89]|[3-8])/, lengths: [16, 17, 18, 19], cvv: 3 },
    UNIONPAY: { prefix: /^62/, lengths: [16, 17, 18, 19], cvv: 3 },
    MAESTRO: { prefix: /^(5[06-9]|6[37])/, lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvv: 3 },
  };
  /** @typedef {keyof typeof BRANDS} Brand */

  /**
   * The card fields, with their text keys and the request parameters a gateway `parameterErrors`
   * entry names for them.
   * @type {{ name: FieldName, label: string, error: string, autocomplete: AutoFill, inputMode: string, maxLength: number, param: string[] }[]}
   */
  const FIELDS = [
    { name: 'cardNumber', label: 'cardNumber', error: 'cardNumberError', autocomplete: 'cc-number', inputMode: 'numeric', maxLength: 23, param: ['card.number', 'paymentBrand'] },
    { name: 'expiry', label: 'expiryDate', error: 'expiryDateError', autocomplete: 'cc-exp', inputMode: 'numeric', maxLength: 9, param: ['card.expiryMonth', 'card.expiryYear'] },
    { name: 'cvv', label: 'cvv', error: 'cvvError', autocomplete: 'cc-csc', inputMode: 'numeric', maxLength: 4, param: ['card.cvv'] },
    { name: 'cardHolder', label: 'cardHolder', error: 'cardHolderError', autocomplete: 'cc-name', inputMode: 'text', maxLength: 128, param: ['card.holder'] },
  ];

  /**
   * Result codes after which the shopper may try again on the same form: declines by the bank,
   * by 3-D Secure or risk, soft declines and rejected card data (the published groups). Every
   * other code (approved, pending, uncertain, system error, unknown) goes to the shop's result
   * page, whose server reads the outcome, so a payment that may have gone through is never offered
   * twice. test/widget/payment-widgets-source.test.ts checks this against src/contract/result-codes.ts.
   */
  const RETRY_ON_FORM = /^(800\.[17]00|800\.800\.[123]|000\.400\.[1][0-9][1-9]|000\.400\.2|800\.400\.2|100\.390|100\.380\.4|300\.100\.100|200\.[123]|100\.[53][07])/;
  const INVALID_PARAMETER = '200.300.404';
  /** EMVCo: continue when the 3DS method page has not loaded within 10 seconds. */
  const PRECONDITION_TIMEOUT_MS = 10_000;
  // The checkout id goes into request paths and the shopper's `resourcePath`: ids are letters, digits, . _ -.
  const CHECKOUT_ID = /^[A-Za-z0-9._-]{1,64}$/;
  // card.holder as the shared contract reads it (a name: letters of any script, AN..128).
  const HOLDER = /^[\p{L}\p{M}\p{N} '.,-]{1,128}$/u;

  // Zero-specificity rules (:where), so any rule the shop writes for the .wpwl-* classes wins.
  const PLAIN_CSS = `
    :where(.wpwl-group) { margin-bottom: .75em; }
    :where(.wpwl-label) { display: block; margin-bottom: .25em; }
    :where(.wpwl-hint), :where(.wpwl-message) { color: #b3261e; font-size: .875em; margin-top: .25em; }
    :where(.wpwl-message) { margin: 0 0 .75em; }
    :where(.wpwl-button-pay:disabled) { cursor: progress; opacity: .6; }
  `;
  const CARD_CSS = `${PLAIN_CSS}
    :where(.wpwl-form-card) { max-width: 26em; padding: 1em; border: 1px solid #c4c7cc; border-radius: .5em; background: #f7f8fa; }
    :where(.wpwl-control) { box-sizing: border-box; width: 100%; padding: .5em; font: inherit; border: 1px solid #8a8f98; border-radius: .25em; background: #fff; }
    :where(.wpwl-control.wpwl-has-error) { border-color: #b3261e; }
    :where(.wpwl-group-expiry, .wpwl-group-cvv) { display: inline-block; vertical-align: top; width: 48%; }
    :where(.wpwl-group-cvv) { margin-left: 4%; }
    :where(.wpwl-button-pay) { padding: .6em 1.4em; font: inherit; border: 0; border-radius: .25em; background: #1f5fbf; color: #fff; cursor: pointer; }
  `;

  const win = /** @type {Window & { wpwl?: { checkout: { id: string }, unload: () => void }, wpwlOptions?: WpwlOptions }} */ (window);
  /** @type {WpwlOptions} */
  const options = win.wpwlOptions ?? {};
  // 'de', 'de-AT' … get the German texts; every other locale falls back to English.
  const language = /^de\b/i.test(String(options.locale ?? '')) ? 'de' : 'en';
  /** @type {Record<string, string>} */
  const texts = { ...TEXTS[language], ...options.labels, ...options.errorMessages };
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript ?? [...document.querySelectorAll('script[src*="paymentWidgets.js"]')].pop());

  if (win.wpwl) {
    report('WidgetError', 'Another checkout is loaded on this page: call wpwl.unload() before loading a new one.');
    return;
  }

  // Aborting `lifetime` removes every listener and cancels every request the widget started.
  const lifetime = new AbortController();
  const signal = lifetime.signal;
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const timers = new Set();
  /** @type {(() => void)[]} */
  const undos = [];
  const sheet = options.style === 'none' ? undefined : new CSSStyleSheet();
  const api = { checkout: { id: '' }, unload };
  win.wpwl = api;

  const scriptUrl = script ? new URL(script.src, document.baseURI) : undefined;
  const checkoutId = scriptUrl?.searchParams.get('checkoutId') ?? '';
  api.checkout.id = checkoutId;
  start();

  async function start() {
    /** @type {Promise<any> | undefined} */
    const loading = scriptUrl && CHECKOUT_ID.test(checkoutId)
      ? fetch(gatewayUrl('widget'), { signal, credentials: 'omit' }).then((response) => response.json()).catch(() => undefined)
      : undefined;
    await domReady();
    if (!loading) return fail('InvalidCheckoutIdError', 'The script URL carries no valid checkoutId.', 'invalidCheckout');
    const answer = await loading;
    if (signal.aborted) return;
    if (answer?.result?.code === INVALID_PARAMETER) return fail('InvalidCheckoutIdError', 'The checkout is unknown, expired or already paid.', 'invalidCheckout');
    if (!answer?.checkout) return fail('PciIframeCommunicationError', 'The gateway could not be reached or answered no checkout.', 'unavailable');
    Object.assign(api.checkout, answer.checkout);
    expireLater(answer.checkout.expiresAt, answer.timestamp);

    const forms = [...document.querySelectorAll('form.paymentWidgets')].filter((form) => form instanceof HTMLFormElement);
    if (!forms.length) return report('WidgetError', 'No form.paymentWidgets found in the document.');
    if (sheet) {
      sheet.replaceSync(options.style === 'plain' ? PLAIN_CSS : CARD_CSS);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }
    const cardForms = forms.map(render).filter((cardForm) => cardForm !== undefined);
    const first = cardForms[0];
    if (!first) return;
    if (options.autofocus) first.controls[options.autofocus === 'card.holder' ? 'cardHolder' : 'cardNumber'].focus();
    call('onReady');
  }

  /**
   * Reports the end of the checkout's 30-minute life while the form is open, counting on the
   * gateway's clock (its `timestamp`, e.g. "2026-01-31 12:00:00.000+0000"), not the shopper's.
   * @param {string} expiresAt @param {string} timestamp
   */
  function expireLater(expiresAt, timestamp) {
    const now = Date.parse(String(timestamp).replace(' ', 'T').replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
    const remaining = Date.parse(expiresAt) - (Number.isNaN(now) ? Date.now() : now);
    if (Number.isNaN(remaining)) return;
    // setTimeout holds at most 2^31 - 1 ms; no checkout lives that long.
    later(() => fail('InvalidCheckoutIdError', 'The checkout expired.', 'invalidCheckout'), Math.min(Math.max(remaining, 0), 2 ** 31 - 1));
  }

  /** @returns {Promise<void>} */
  function domReady() {
    if (document.readyState !== 'loading') return Promise.resolve();
    return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true, signal }));
  }

  /** @param {string} path */
  function gatewayUrl(path) {
    return new URL(`checkouts/${encodeURIComponent(checkoutId)}/${path}`, scriptUrl).href;
  }

  /**
   * Reports a widget error, shows a short message in every form and disables its pay button.
   * @param {WidgetErrorName} name @param {string} message @param {string} text
   */
  function fail(name, message, text) {
    for (const form of document.querySelectorAll('form.paymentWidgets')) {
      showMessage(form, texts[text]);
      for (const button of form.querySelectorAll('button.wpwl-button-pay')) /** @type {HTMLButtonElement} */ (button).disabled = true;
    }
    report(name, message);
  }

  /** @param {WidgetErrorName} name @param {string} message */
  function report(name, message) {
    const error = new Error(message);
    error.name = name;
    console.warn(`paymentWidgets.js: ${name}: ${message}`);
    call('onError', error);
  }

  /**
   * Calls a merchant callback; one that throws is reported and counts as `false`, so a broken
   * onBeforeSubmitCard stops the payment rather than letting it through unchecked.
   * @param {'onReady' | 'onBeforeSubmitCard' | 'onAfterSubmit' | 'onError' | 'onChangeBrand' | 'onDetectBrand'} name
   * @param {unknown[]} args
   */
  function call(name, ...args) {
    const callback = options[name];
    if (typeof callback !== 'function') return undefined;
    try {
      return /** @type {Function} */ (callback).apply(options, args);
    } catch (error) {
      reportError(error);
      return false;
    }
  }

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag @param {string} className @param {Partial<HTMLElementTagNameMap[K]>} [properties] @param {Node[]} children
   * @returns {HTMLElementTagNameMap[K]}
   */
  function element(tag, className, properties = {}, ...children) {
    const node = Object.assign(document.createElement(tag), properties);
    node.className = className;
    node.append(...children);
    return node;
  }

  /** A labelled row with the real widget's classes: group > label + wrapper > control. @param {string} name @param {string} label @param {HTMLElement} control */
  function row(name, label, control) {
    return element('div', `wpwl-group wpwl-group-${name}`, {},
      element('label', `wpwl-label wpwl-label-${name}`, { htmlFor: control.id, textContent: label }),
      element('div', `wpwl-wrapper wpwl-wrapper-${name}`, {}, control));
  }

  /**
   * Adds `node` to `parent` until unload.
   * @template {Element} T @param {Element} parent @param {T} node @returns {T}
   */
  function attach(parent, node) {
    parent.append(node);
    undos.push(() => node.remove());
    return node;
  }

  /** Runs `callback` after `delay` ms unless unloaded first; returns a function that cancels it. @param {() => void} callback @param {number} delay */
  function later(callback, delay) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      callback();
    }, delay);
    timers.add(timer);
    return () => {
      clearTimeout(timer);
      timers.delete(timer);
    };
  }

  /** @param {Element} form @param {string} text */
  function showMessage(form, text) {
    const message = form.querySelector(':scope > .wpwl-message') ?? attach(form, element('div', 'wpwl-message wpwl-has-error', { role: 'alert' }));
    message.textContent = text;
    message.toggleAttribute('hidden', false);
  }

  /** @param {HTMLFormElement} form @param {number} index @returns {CardForm | undefined} */
  function render(form, index) {
    const brands = (form.dataset.brands ?? '').split(/\s+/).filter((brand) => brand in BRANDS);
    if (!brands.length) {
      report('WidgetError', `A form.paymentWidgets lists no card brand this widget supports in data-brands (${Object.keys(BRANDS).join(' ')}).`);
      return undefined;
    }
    // The shopper is sent to the action after paying: never to a javascript: or other non-web URL.
    if (!/^https?:$/.test(new URL(form.action).protocol)) {
      report('WidgetError', 'A form.paymentWidgets needs an http(s) action, the shop\'s result page.');
      return undefined;
    }
    const added = ['wpwl-form', 'wpwl-form-card'].filter((name) => !form.classList.contains(name));
    form.classList.add(...added);
    const { lang, noValidate } = form;
    // The texts are in `language`; say so to screen readers when the page is in another one.
    form.lang = language;
    form.noValidate = true;
    undos.push(() => {
      form.classList.remove(...added);
      form.noValidate = noValidate;
      if (lang) form.lang = lang;
      else form.removeAttribute('lang');
    });

    const id = (/** @type {string} */ name) => `wpwl-${index}-${name}`;
    const message = attach(form, element('div', 'wpwl-message wpwl-has-error', { role: 'alert', hidden: true }));
    const brandSelect = element('select', 'wpwl-control wpwl-control-brand', { id: id('brand') },
      ...brands.map((brand) => element('option', '', { value: brand, textContent: brand })));
    attach(form, row('brand', texts.brand, brandSelect));

    /** @type {CardForm} */
    const cardForm = {
      form, brands, brand: /** @type {string} */ (brands[0]), detected: '', message, brandSelect,
      controls: /** @type {CardForm['controls']} */ ({}),
      hints: /** @type {CardForm['hints']} */ ({}),
      button: element('button', 'wpwl-button wpwl-button-pay', { type: 'submit', textContent: texts.submit }),
    };
    for (const field of FIELDS) {
      // No `name` attribute: a native submission of the shop's form can never carry card data.
      const control = element('input', `wpwl-control wpwl-control-${field.name}`, {
        id: id(field.name), type: 'text', autocomplete: field.autocomplete, inputMode: field.inputMode, maxLength: field.maxLength,
        spellcheck: false, required: field.name !== 'cvv' || options.requireCvv !== false,
        placeholder: field.name === 'expiry' ? texts.mmyy : '',
      });
      const hint = element('div', `wpwl-hint wpwl-hint-${field.name}Error`, { id: id(`${field.name}-error`), hidden: true, textContent: texts[field.error] });
      attach(form, row(field.name, texts[field.label], control)).append(hint);
      cardForm.controls[field.name] = control;
      cardForm.hints[field.name] = hint;
      // Validate when the shopper leaves a field they typed in, and clear an error as soon as it is fixed.
      control.addEventListener('blur', () => control.value && validate(cardForm, field.name), { signal });
      control.addEventListener('input', () => control.getAttribute('aria-invalid') === 'true' && validate(cardForm, field.name), { signal });
    }
    attach(form, element('div', 'wpwl-group wpwl-group-submit')).append(cardForm.button);

    cardForm.controls.cardNumber.addEventListener('input', () => detectBrand(cardForm), { signal });
    brandSelect.addEventListener('change', () => changeBrand(cardForm, brandSelect.value), { signal });
    form.addEventListener('submit', (event) => submit(cardForm, /** @type {SubmitEvent} */ (event)), { signal });
    return cardForm;
  }

  /** The brand whose number prefix `digits` starts with, or ''. @param {string} digits */
  function brandOf(digits) {
    return Object.keys(BRANDS).find((brand) => BRANDS[/** @type {Brand} */ (brand)].prefix.test(digits)) ?? '';
  }

  /** @param {CardForm} cardForm */
  function detectBrand(cardForm) {
    const detected = brandOf(digitsOf(cardForm.controls.cardNumber.value));
    if (detected === cardForm.detected) return;
    cardForm.detected = detected;
    const allowed = cardForm.brands.includes(detected) ? [detected] : [];
    call('onDetectBrand', allowed);
    if (options.brandDetection !== false && allowed.length) {
      cardForm.brandSelect.value = detected;
      changeBrand(cardForm, detected);
    }
  }

  /** @param {CardForm} cardForm @param {string} brand */
  function changeBrand(cardForm, brand) {
    if (brand === cardForm.brand) return;
    cardForm.brand = brand;
    call('onChangeBrand', brand);
  }

  /** @param {string} value */
  function digitsOf(value) {
    return value.replace(/[\s-]/g, '');
  }

  /** @param {string} digits */
  function passesLuhn(digits) {
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let digit = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    return sum % 10 === 0;
  }

  /** "MM / YY", "MM/YYYY", "MMYY" → month and four-digit year, or undefined. @param {string} value */
  function parseExpiry(value) {
    const match = /^\s*(0?[1-9]|1[0-2])\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
    if (!match) return undefined;
    const year = /** @type {string} */ (match[2]);
    return { month: /** @type {string} */ (match[1]).padStart(2, '0'), year: year.length === 2 ? `20${year}` : year };
  }

  /** @param {CardForm} cardForm @param {FieldName} name @returns {boolean} */
  function isValid(cardForm, name) {
    const value = cardForm.controls[name].value;
    const brand = BRANDS[/** @type {Brand} */ (cardForm.brand)];
    switch (name) {
      case 'cardNumber': {
        const digits = digitsOf(value);
        return /^\d+$/.test(digits) && brandOf(digits) === cardForm.brand && brand.lengths.includes(digits.length) && passesLuhn(digits);
      }
      case 'expiry': {
        const expiry = parseExpiry(value);
        const now = new Date();
        return !!expiry && Number(expiry.year) * 12 + Number(expiry.month) >= now.getFullYear() * 12 + now.getMonth() + 1;
      }
      case 'cvv':
        return (value === '' && options.requireCvv === false) || new RegExp(`^\\d{${brand.cvv}}$`).test(value);
      case 'cardHolder':
        return HOLDER.test(value.trim());
    }
  }

  /** Shows or clears a field's inline error. @param {CardForm} cardForm @param {FieldName} name @param {boolean} [invalid] */
  function validate(cardForm, name, invalid = !isValid(cardForm, name)) {
    const control = cardForm.controls[name];
    control.classList.toggle('wpwl-has-error', invalid);
    control.setAttribute('aria-invalid', String(invalid));
    cardForm.hints[name].hidden = !invalid;
    if (invalid) control.setAttribute('aria-describedby', cardForm.hints[name].id);
    else control.removeAttribute('aria-describedby');
    return !invalid;
  }

  /** @param {CardForm} cardForm @param {boolean} busy */
  function setBusy(cardForm, busy) {
    cardForm.button.disabled = busy;
    cardForm.form.setAttribute('aria-busy', String(busy));
  }

  /** @param {CardForm} cardForm @param {SubmitEvent} event */
  async function submit(cardForm, event) {
    event.preventDefault();
    if (cardForm.button.disabled) return;
    cardForm.message.hidden = true;
    const invalid = FIELDS.map((field) => field.name).filter((name) => !validate(cardForm, name));
    if (invalid.length) return cardForm.controls[/** @type {FieldName} */ (invalid[0])].focus();
    if (call('onBeforeSubmitCard', event) === false) return;

    setBusy(cardForm, true);
    const { controls } = cardForm;
    const expiry = /** @type {{ month: string, year: string }} */ (parseExpiry(controls.expiry.value));
    const body = new URLSearchParams({
      paymentBrand: cardForm.brand,
      'card.number': digitsOf(controls.cardNumber.value),
      'card.holder': controls.cardHolder.value.trim(),
      'card.expiryMonth': expiry.month,
      'card.expiryYear': expiry.year,
      shopperResultUrl: cardForm.form.action,
    });
    if (controls.cvv.value) body.set('card.cvv', controls.cvv.value);
    /** @type {any} */
    let answer;
    try {
      // Sent once, never retried: the gateway may have recorded the payment even when the answer is lost.
      const response = await fetch(gatewayUrl('widget/payments'), { method: 'POST', body, signal, credentials: 'omit' });
      answer = await response.json();
    } catch {
      if (signal.aborted) return;
      report('PciIframeSubmitError', 'The card was sent but no answer arrived; the result page reads the outcome.');
      return showResult(cardForm.form);
    }
    if (signal.aborted) return;
    call('onAfterSubmit');
    const code = String(answer?.result?.code ?? '');
    if (answer?.redirect) return authenticate(answer.redirect);

    /** @type {NameValue[]} */
    const parameterErrors = Array.isArray(answer?.result?.parameterErrors) ? answer.result.parameterErrors : [];
    const rejected = FIELDS.filter((field) => parameterErrors.some((error) => field.param.includes(error.name)));
    if (code === INVALID_PARAMETER && !parameterErrors.length) {
      // Expired, or already paid (the browser itself re-sends a POST whose connection dropped):
      // the shop's server reads which, unless the page took over in onError (wpwl.unload()).
      report('InvalidCheckoutIdError', 'The checkout is expired or already paid.');
      return signal.aborted ? undefined : showResult(cardForm.form);
    }
    if (!RETRY_ON_FORM.test(code)) return showResult(cardForm.form);
    for (const field of rejected) validate(cardForm, field.name, true);
    cardForm.message.textContent = rejected.length ? '' : texts.declined;
    cardForm.message.hidden = !!rejected.length;
    setBusy(cardForm, false);
    if (rejected[0]) controls[rejected[0].name].focus();
  }

  /** Sends the shopper to the shop's result page, as the gateway does after every payment. @param {HTMLFormElement} form */
  function showResult(form) {
    const target = new URL(form.action);
    target.searchParams.set('id', checkoutId);
    target.searchParams.set('resourcePath', `/v1/checkouts/${checkoutId}/payment`);
    location.assign(target.href);
  }

  /**
   * The seed's 3-D Secure steps: each precondition in a hidden iframe (waiting for its load, at
   * most 10 seconds), then the redirect form in this window; the gateway's challenge page ends
   * on the shop's result page.
   * @param {Redirect} redirect
   */
  async function authenticate(redirect) {
    let index = 0;
    for (const precondition of redirect.preconditions ?? []) {
      const frame = attach(document.body, element('iframe', 'wpwl-precondition', { name: `wpwl-precondition-${index++}`, title: '3-D Secure', hidden: true, tabIndex: -1 }));
      await new Promise((resolve) => {
        const cancel = later(() => resolve(undefined), PRECONDITION_TIMEOUT_MS);
        const done = () => {
          cancel();
          resolve(undefined);
        };
        frame.addEventListener('load', done, { once: true, signal });
        signal.addEventListener('abort', done, { once: true });
        postForm(precondition, frame.name);
      });
      if (signal.aborted) return;
    }
    postForm(redirect, '_self');
  }

  /** POSTs `parameters` as hidden inputs to `url` in the browsing context `target`. @param {Redirect | Precondition} request @param {string} target */
  function postForm({ url, method, parameters }, target) {
    const form = attach(document.body, element('form', 'wpwl-redirect', { action: url, method: method ?? 'POST', target, hidden: true }));
    for (const { name, value } of parameters ?? []) form.append(element('input', '', { type: 'hidden', name, value }));
    form.submit();
  }

  /** Removes everything the widget added, so a single-page app can load another checkout. */
  function unload() {
    lifetime.abort();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    for (const undo of undos.splice(0).reverse()) undo();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    if (win.wpwl === api) delete win.wpwl;
  }
})();
