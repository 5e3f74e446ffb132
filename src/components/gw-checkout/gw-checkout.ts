/**
 * `<gw-checkout>`: the gateway's hosted payment widget (the API reference's iframe
 * checkout) as an element. Side-effect free: `define.ts` registers it.
 */
import type { PropertyValues } from '@lit/reactive-element';
import { showFeedback, tag, type Feedback } from '../shared/feedback.js';
import type { PaymentBrand } from '../../contract/brands.js';
import { isIntegrityMetadata } from '../../contract/integrity.js';
import { RENDERED_ELEMENT_ATTRIBUTE, WIDGET_AREA_CLASS, widgetLocale } from '../../contract/rendered-checkout.js';
import { CHECKOUT_LIFETIME_MS, TIMER_MAX_MS } from '../../contract/limits.js';
import { GwElement } from '../shared/gw-element.js';
import { explained } from '../shared/messages.js';
import { httpUrl, isSecureEndpoint } from '../../browser/url.js';
import type { GwCheckoutErrorCode, GwCheckoutEventMap, GwCheckoutState, GwErrorDetail } from './events.js';
import { styles } from './gw-checkout.styles.js';
import { followTranslations, langOf, textsOf, type GwCheckoutTexts } from '../shared/texts.js';
import {
  discardRenderedWidget,
  joinWidget,
  leaveWidget,
  widgetSending,
  type WidgetOwner,
  type WidgetSource,
  type WpwlError,
  type WpwlOptions,
} from './widget-session.js';

export type { GwCheckoutState } from './events.js';

/** Built in; other languages are modules the page imports (`gw-elements/checkout/translations/de`, …). */
const ENGLISH: GwCheckoutTexts = {
  loading: 'Loading the payment form…',
  error: 'The payment form could not be loaded.',
  expired: 'This payment session has expired.',
};

/** `expires-at` as an attribute: an ISO 8601 date-time or milliseconds since the epoch. */
function parseInstant(value: string | null): Date | undefined {
  if (value === null || value.trim() === '') return undefined;
  const date = /^\d+$/.test(value.trim()) ? new Date(Number(value)) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * `brands` as an attribute: the form's `data-brands` spelling, brand names
 * separated by spaces. Passed on as written: a brand the kit does not name is
 * the widget's to refuse, as the platform's does. (Never reflected, so Lit
 * never needs the way back.)
 */
const parseBrands = (value: string | null): PaymentBrand[] => (value ?? '').split(/\s+/).filter(Boolean) as PaymentBrand[];

/**
 * The form's `data-brands`; a plain string set from untyped code is taken as the attribute's spelling, and no value (a
 * framework's unset binding) as the default.
 */
const dataBrandsOf = (brands: readonly PaymentBrand[] | string | undefined): string =>
  (Array.isArray(brands) ? brands.join(' ') : String(brands ?? 'VISA MASTER')).trim();

/** The settings the widget is loaded with; a change to any of them reloads it. */
function loadKey(element: GwCheckout): string {
  return JSON.stringify([
    element.checkoutId,
    element.baseUrl,
    element.integrity,
    element.shopperResultUrl,
    dataBrandsOf(element.brands),
    element.locale || langOf(element),
    element.widgetStyle,
    element.nonce,
  ]);
}

/**
 * The gateway's hosted card form for one checkout, in any page or framework.
 * It loads the widget script (with `integrity` and `crossorigin`), renders the
 * `form.paymentWidgets` in the light DOM where the widget finds it, and cleans
 * up after itself, so single-page apps can mount, unmount and re-mount it
 * freely. Must sit in the document's light DOM (not inside another component's
 * shadow root): the widget finds its form with `document.querySelectorAll`.
 *
 * Its own texts are in the language of its `lang` (its own attribute, else the
 * nearest ancestor's, else the document's): English, built in, or any language
 * whose translation the page imports (`gw-elements/checkout/translations/ar`:
 * `ar`, `de`, `es`, `fr`, `it`, `nl`, `pl`, `tr`), English for any other;
 * `texts` overrides them. That `lang` is also the widget's
 * `locale` unless `locale` or the page's `wpwlOptions.locale` says otherwise,
 * so `<gw-checkout lang="ar">` shows the whole checkout in Arabic. Its layout
 * follows the page's `dir`; the widget lays out an Arabic form right to left.
 *
 * @summary The gateway's hosted payment widget for one checkout, with a clean life cycle.
 *
 * @attr {'idle' | 'loading' | 'ready' | 'submitting' | 'error' | 'expired'} state - Read-only: the element writes it (see the `state` property) so CSS can style each state, e.g. `gw-checkout[state="loading"]`.
 * @prop {'idle' | 'loading' | 'ready' | 'submitting' | 'error' | 'expired'} state - Read-only: where the element is, `idle` → `loading` → `ready` → `submitting`, or `error`, or `expired`. Reflected as the `state` attribute.
 * @attr lang - The language of the element's own texts, and the widget's `locale` when neither `locale` nor the page's `wpwlOptions.locale` is set: English, or one whose translation module the page imports (with any region, e.g. `ar-SA`); any other gets English. Without it, the nearest ancestor's `lang`, else the document's.
 * @attr nonce - Set on the injected widget script, for a Content-Security-Policy with `'nonce-…'`. (The element's native `nonce` property; a header-delivered CSP hides the attribute's value, the property keeps it.)
 * @prop {string} nonce - Set on the injected widget script, for a Content-Security-Policy with `'nonce-…'`.
 *
 * @fires {GwReadyEvent} gw-ready - The widget is shown and ready for the shopper's card.
 * @fires {GwBeforeSubmitEvent} gw-before-submit - The shopper pressed pay. Cancelable: `preventDefault()` stops the payment (the widget's `onBeforeSubmitCard`).
 * @fires {GwBrandChangeEvent} gw-brand-change - The card's brand changed as the shopper typed (the widget's `onChangeBrand`).
 * @fires {GwErrorEvent} gw-error - Something failed; `detail.code` is `script-load-failed`, `invalid-checkout`, `widget-error` or `missing-attribute`.
 * @fires {GwExpiredEvent} gw-expired - The checkout's 30-minute lifetime ran out: create a new checkout and set `checkout-id`.
 *
 * @slot - Holds the widget's form: filled by the element, or by your server's `renderCheckout` (gw-elements/server), whose form, widget script and widget events the element adopts when it upgrades. Put nothing else there.
 * @slot loading - Shown while the widget loads; wins over `texts.loading`. Default: a spinner and "Loading the payment form…" (in the element's language) in a `role="status"` region.
 * @slot error - Shown in the `error` state; wins over `texts.error`. Default: "The payment form could not be loaded." in a `role="alert"` region.
 * @slot expired - Shown in the `expired` state; wins over `texts.expired`. Default: "This payment session has expired." in a `role="alert"` region.
 *
 * @csspart base - The wrapper of everything the element shows.
 * @csspart loading - The `role="status"` region shown while loading.
 * @csspart spinner - The default loading indicator.
 * @csspart error - The `role="alert"` region of the `error` state.
 * @csspart expired - The `role="alert"` region of the `expired` state.
 * @csspart widget - The region holding the widget's form.
 *
 * @cssprop [--gw-checkout-gap=0.5rem] - Space between the spinner or alert icon and their text.
 * @cssprop [--gw-checkout-spinner-size=1.25rem] - Size of the default spinner.
 * @cssprop [--gw-checkout-spinner-color=currentColor] - Colour of the spinner's moving arc.
 * @cssprop [--gw-checkout-spinner-track-color=rgb(0 0 0 / 0.15)] - Colour of the spinner's track.
 * @cssprop [--gw-checkout-error-color=#7a1010] - Text colour of the error and expired messages.
 * @cssprop [--gw-checkout-error-background=#fdecec] - Background of the error and expired messages.
 * @cssprop [--gw-checkout-alert-padding=0.75rem 1rem] - Padding of the error and expired messages.
 * @cssprop [--gw-checkout-radius=0.25rem] - Corner radius of the error and expired messages.
 *
 * @tagname gw-checkout
 */
export class GwCheckout extends GwElement<GwCheckoutEventMap, GwCheckoutState> {
  static override readonly tagName = 'gw-checkout';
  /** The element's shadow-root styles (its parts and custom properties are the public styling API). */
  static override styles = styles;
  /** How long an element waits without `checkout-id` before the console says what it waits for (once per element). */
  static idleHintMs = 5_000;

  static override properties = {
    checkoutId: { attribute: 'checkout-id' },
    integrity: {},
    baseUrl: { attribute: 'base-url' },
    shopperResultUrl: { attribute: 'shopper-result-url' },
    brands: { converter: parseBrands },
    locale: {},
    widgetStyle: { attribute: 'widget-style' },
    expiresAt: { attribute: 'expires-at', converter: parseInstant },
    options: { attribute: false },
    texts: { attribute: false },
  };

  /** The checkout id from the merchant server's `POST /v1/checkouts`. Without it the element is `idle`. */
  declare checkoutId: string | undefined;
  /**
   * The checkout's `integrity` value (`sha384-…`), set on the script so the browser refuses altered bytes.
   * Anything but well-formed SRI metadata (`sha256-`, `sha384-` or `sha512-` and the digest's base64) is
   * refused with `gw-error` `missing-attribute` and nothing is loaded: the browser would skip the check.
   */
  declare integrity: string | undefined;
  /** The gateway's base URL, e.g. your sandbox's URL or the gateway's test host: https, or http on localhost only. No default: a checkout belongs to one gateway. */
  declare baseUrl: string | undefined;
  /** Where the widget sends the shopper after paying (the form's `action`); the page there reads `id` and `resourcePath`. */
  declare shopperResultUrl: string | undefined;
  /**
   * The brands the widget offers, in the platform's spelling (the form's `data-brands`): card brands
   * (`VISA`, `MASTER`, `AMEX`, `MADA`, …) and wallets (`APPLEPAY`, `APPLEPAYTKN`, `GOOGLEPAY`, `STC_PAY`).
   * As an attribute: names separated by spaces, `brands="MADA VISA MASTER"`.
   */
  declare brands: PaymentBrand[];
  /** The widget's language, e.g. `de`, `de-AT` or `ar` (wpwlOptions `locale`). Default: the page's `wpwlOptions.locale`, else the element's `lang`. */
  declare locale: string | undefined;
  /** The widget's layout: `card` or `plain` (wpwlOptions `style`). */
  declare widgetStyle: 'card' | 'plain' | undefined;
  /**
   * When the checkout expires. Pass it when your server knows the checkout's
   * creation time (creation + 30 minutes); otherwise the element counts 30
   * minutes from when it got the checkout id. As an attribute: ISO 8601 or epoch milliseconds; as a
   * property, a `Date` made in any frame, or epoch milliseconds.
   */
  declare expiresAt: Date | undefined;
  /**
   * Extra `wpwlOptions` for the widget (labels, iframeStyles, callbacks …), read
   * when the widget loads. Your callbacks keep working: the element's own wrap them.
   */
  declare options: WpwlOptions | undefined;
  /**
   * The element's own texts, any of `loading`, `error`, `expired`, over the
   * shipped ones of its language (e.g. `{ expired: 'Please start again.' }`).
   * A slot with the same name wins over its text.
   */
  declare texts: Partial<GwCheckoutTexts> | undefined;

  #brand: string | undefined;
  #view: (Feedback & { readonly base: HTMLElement; readonly widget: HTMLElement }) | undefined;
  #widgetArea: HTMLDivElement | undefined;
  /** The widget options the server rendered this element with (`renderCheckout`): kept under `options` for every later load. */
  #renderedOptions: WpwlOptions | undefined;
  #joined = false;
  #joinedKey: string | undefined;
  /** The settings of the last load that ended in `error` or `expired`, so it is not retried by itself. */
  #settledKey: string | undefined;
  /**
   * The checkout the widget shows, which the widget's events are about: while a payment is being sent,
   * a new `checkout-id` waits (see `#sync`), so the property may already name the next one.
   */
  #shown = '';
  /** The checkout the last `gw-expired` was for. */
  #expiredId: string | undefined;
  #idReceivedAt = Date.now();
  #expiryTimer: ReturnType<typeof setTimeout> | undefined;
  #syncQueued = false;
  /** A sync met another checkout's widget and waits for the syncs queued beside it (see `#sync`). */
  #retried = false;
  #payButtonObserver: MutationObserver | undefined;
  /** The idle hint's timer; it stays set once the hint was given, so it is given once. */
  #idleHint: ReturnType<typeof setTimeout> | undefined;
  readonly #owner: WidgetOwner;

  constructor() {
    super();
    this.brands = ['VISA', 'MASTER'];
    this.#owner = this.#createOwner();
  }

  /** Loads the widget again after `error` (e.g. a network failure) with the same settings; does nothing while a payment is being sent. */
  reload(): void {
    // Never while a payment is being sent: the shopper would lose its outcome and could pay again.
    if (this.#sending()) return;
    this.#settledKey = undefined;
    this.#leave();
    this.#queueSync();
  }

  override connectedCallback(): void {
    // Queued before Lit's first update (which super's call queues): the widget script, which the shopper
    // waits for, is asked for before the element renders its own chrome.
    this.#queueSync();
    super.connectedCallback();
    followTranslations(this, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    followTranslations(this, false);
    this.#queueSync();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('checkoutId')) {
      this.#idReceivedAt = Date.now();
      // A deadline belongs to the checkout it came with (`renderCheckout` writes one): another checkout id set without
      // its own counts its 30 minutes afresh, never the last one's (past, it would expire the new checkout at once).
      if (changed.get('checkoutId') && !changed.has('expiresAt')) {
        this.removeAttribute('expires-at');
        this.expiresAt = undefined;
      }
    }
    // A new `expires-at` for the checkout shown moves its deadline; it is no load setting, so the widget stays.
    else if (changed.has('expiresAt') && this.#joined) this.#armExpiry(this.#expiry());
    // Every property but `options` (read at load time) and `texts` is a load setting (`lang` is: it may set the locale).
    if ([...changed.keys()].some((name) => name !== 'options' && name !== 'texts')) this.#queueSync();
  }

  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    const state = this.state;
    const { language, texts } = textsOf(this, 'gw-checkout', ENGLISH, this.texts);
    // Built once; the role=status region is always there (empty unless loading), so its text is announced when it appears.
    const view = (this.#view ??= this.#createView());
    view.base.lang = language;
    view.widget.hidden = state === 'idle' || state === 'error' || state === 'expired';
    const alert = state === 'error' || state === 'expired' ? state : undefined;
    if (state === 'loading') showFeedback(view, state, texts.loading, 'busy');
    else showFeedback(view, alert, alert && texts[alert]);
  }

  #createView() {
    const status = tag('div', { class: 'status', part: 'loading', role: 'status' });
    const widget = tag('div', { part: 'widget' }, tag('slot', {}));
    const base = tag('div', { part: 'base' }, status, widget);
    this.renderRoot.append(base);
    return { base, status, widget, alertBefore: widget };
  }

  /**
   * Connection changes and attribute changes are applied once, a microtask
   * later, so a synchronous connect → disconnect → connect (React StrictMode)
   * loads exactly one widget.
   */
  #queueSync(): void {
    if (this.#syncQueued) return;
    this.#syncQueued = true;
    // Rendered by the server and upgraded while the page is parsed: the form and the widget script that follow
    // this tag are not there yet. It waits for them (the widget already loads from the HTML) instead of loading another.
    if (document.readyState === 'loading' && this.hasAttribute(RENDERED_ELEMENT_ATTRIBUTE)) {
      this.setState('loading');
      document.addEventListener('DOMContentLoaded', () => ((this.#syncQueued = false), this.#sync()), { once: true });
      return;
    }
    queueMicrotask(() => {
      this.#syncQueued = false;
      this.#sync();
    });
  }

  #sync(): void {
    if (!this.isConnected) {
      this.#leave();
      this.#clearExpiry();
      // A re-mount is a fresh attempt; out of the page it shows nothing and sends nothing.
      this.#settledKey = undefined;
      this.setState('idle');
      return;
    }
    const key = loadKey(this);
    // The same widget: only the deadline may have moved (a checkout id changed and changed back while paying).
    if (this.#joined && this.#joinedKey === key) return this.#armExpiry(this.#expiry());
    // A payment being sent is never cut off by a new setting: it applies once the shopper is back on the form.
    if (this.#joined && this.#sending()) return this.#armExpiry(this.#expiry());
    if (this.#settledKey === key && (this.state === 'error' || this.state === 'expired')) return;
    this.#leave();
    this.#clearExpiry();
    this.#settledKey = undefined;
    const checkoutId = String(this.checkoutId ?? '').trim();
    if (!checkoutId) {
      if (this.integrity) this.#fail('missing-attribute', explained('checkout-id', 'checkout-id is missing'), { attribute: 'checkout-id' });
      else {
        this.setState('idle');
        this.#hintWhileIdle();
      }
      return;
    }
    // Card data goes to this origin, so plain http is only for a sandbox on this machine.
    const gateway = this.baseUrl ? httpUrl(this.baseUrl) : undefined;
    if (!gateway || !isSecureEndpoint(gateway)) {
      this.#fail('missing-attribute', explained('base-url', 'base-url must be an https URL (http on localhost)'), {
        attribute: 'base-url',
      });
      return;
    }
    // Only http(s): a `javascript:` result URL would run script when the widget navigates to it.
    if (!this.shopperResultUrl || !httpUrl(this.shopperResultUrl, document.baseURI)) {
      this.#fail('missing-attribute', explained('shopper-result-url', 'shopper-result-url must be an http(s) URL'), {
        attribute: 'shopper-result-url',
      });
      return;
    }
    // Absent, integrity is the page's choice; present, it must be metadata the browser enforces, since
    // the browser skips the check for anything else and runs whatever script the gateway origin serves.
    const integrity = this.integrity ?? undefined;
    if (integrity !== undefined && !isIntegrityMetadata(String(integrity))) {
      this.#fail('missing-attribute', explained('integrity', 'integrity is not Subresource Integrity metadata'), {
        attribute: 'integrity',
      });
      return;
    }
    const root = this.getRootNode();
    if (root !== document) {
      const host = root instanceof ShadowRoot ? `, not in <${root.host.localName}>'s shadow root` : '';
      this.#fail('widget-error', explained('light-dom', `gw-checkout must be in the document's light DOM${host}`));
      return;
    }
    const expiresAt = this.#expiry();
    if (expiresAt.getTime() <= Date.now()) {
      this.#expire(expiresAt);
      return;
    }
    const source: WidgetSource = { checkoutId, baseUrl: gateway.href, integrity, nonce: this.nonce || undefined };
    // Before joining: adopting a rendered widget replays what it reported, naming this checkout, and a failure among
    // it settles this element as a failure after joining does (it leaves, and no deadline is armed).
    this.#shown = checkoutId;
    this.#joined = true;
    this.#joinedKey = key;
    const conflict = joinWidget(this.#owner, source);
    if (conflict) {
      this.#joined = false;
      this.#joinedKey = undefined;
      // Once more after the syncs queued beside this one: elements given the next checkout in the same task (a cart
      // change) leave the last one's widget there, and the first to sync would otherwise meet it still shown.
      if (!conflict.submitting && !this.#retried) {
        this.#retried = true;
        return this.#queueSync();
      }
      this.#retried = false;
      this.#fail(
        'widget-error',
        conflict.submitting
          ? explained('payment-under-way', `a payment of checkout ${conflict.checkoutId} is being sent from another <gw-checkout>`)
          : explained('one-checkout-per-page', `another <gw-checkout> shows checkout ${conflict.checkoutId}`),
      );
      return;
    }
    this.#retried = false;
    if (this.#joined) this.#armExpiry(expiresAt);
  }

  /**
   * setTimeout holds at most 2^31 - 1 ms (24.8 days): a later `expires-at` re-arms instead of firing early. A payment
   * being sent is never told its session expired, nor its widget torn down: the gateway answers it, and the element
   * expires once it is back on the form (a decline), looking every second meanwhile, when a setting that waited for
   * the payment applies too.
   */
  #armExpiry(expiresAt: Date): void {
    this.#clearExpiry();
    const remaining = expiresAt.getTime() - Date.now();
    const sending = this.#sending();
    if (remaining <= 0 && !sending) this.#expire(expiresAt);
    else this.#expiryTimer = setTimeout(() => this.#queueSync(), remaining <= 0 || sending ? 1_000 : Math.min(remaining, TIMER_MAX_MS));
  }

  /**
   * A payment is being sent: the shopper pressed the pay button of this element or of another showing its checkout,
   * or paid with a wallet or STC Pay, whose
   * controls the widget disables meanwhile (a disabled pay button alone may be a widget that gave up on its checkout).
   * The platform's wallets pay in the browser's own sheet, which the page cannot see.
   */
  #sending(): boolean {
    return this.#ownSending() || (this.#joined && widgetSending());
  }

  /** `#sending` for this element's own form: what the widget's other elements ask of it. */
  #ownSending(): boolean {
    return this.state === 'submitting' || (this.#joined && !!document.querySelector('.wpwl-button:disabled:not(.wpwl-button-pay)'));
  }

  /** Read through `new Date()`, not `instanceof`: a `Date` made in another frame (or epoch milliseconds from untyped code) counts too. */
  #expiry(): Date {
    const given: unknown = this.expiresAt;
    // `false` (a template's `cond && date`) or `null` is no date: the element counts its 30 minutes.
    const at = given == null || typeof given === 'boolean' ? NaN : +new Date(given as Date);
    return new Date(Number.isNaN(at) ? this.#idReceivedAt + CHECKOUT_LIFETIME_MS : at);
  }

  #leave(): void {
    if (!this.#joined) return;
    this.#joined = false;
    this.#joinedKey = undefined;
    leaveWidget(this.#owner);
  }

  /**
   * Once per element, when it is still idle `idleHintMs` after it waited for its
   * checkout: a blank element otherwise says nothing about what it waits for.
   */
  #hintWhileIdle(): void {
    if (this.#idleHint !== undefined) return;
    this.#idleHint = setTimeout(() => {
      if (!this.isConnected || this.state !== 'idle' || this.checkoutId) {
        this.#idleHint = undefined;
        return;
      }
      console.warn(
        `<gw-checkout>: ${explained('idle', `still idle after ${GwCheckout.idleHintMs / 1000} s: set checkout-id and integrity`)}`,
        this,
      );
    }, GwCheckout.idleHintMs);
  }

  #clearExpiry(): void {
    clearTimeout(this.#expiryTimer);
    this.#expiryTimer = undefined;
  }

  /** Announced once per expiry: a new setting (a `lang`) finding the same checkout still expired says nothing new. */
  #expire(expiredAt: Date): void {
    const checkoutId = this.checkoutId ?? '';
    const announced = this.state === 'expired' && this.#expiredId === checkoutId;
    this.#expiredId = checkoutId;
    this.#settle('expired');
    if (!announced) this.emit('gw-expired', { checkoutId, expiredAt });
  }

  #fail(code: GwCheckoutErrorCode, message: string, extra: Partial<GwErrorDetail> = {}): void {
    this.#settle('error');
    const detail: GwErrorDetail = { code, message, ...extra };
    if (this.checkoutId) (detail as { checkoutId?: string }).checkoutId = this.checkoutId;
    this.emit('gw-error', detail);
    this.reportToConsole(message, code === 'missing-attribute' ? 'error' : 'warn');
  }

  /** Ends this load for good (until a setting changes or `reload()`); the widget is unloaded a microtask later. */
  #settle(state: 'error' | 'expired'): void {
    this.#settledKey = loadKey(this);
    this.#clearExpiry();
    this.setState(state);
    if (this.#joined) {
      // Never tear the widget down from inside its own callback.
      this.#joined = false;
      this.#joinedKey = undefined;
      queueMicrotask(() => leaveWidget(this.#owner));
    } else discardRenderedWidget();
  }

  /**
   * A declined card leaves the shopper on the form: the widget has no callback
   * for that, but it enables its pay button again, which ends `submitting`. The
   * button is the one the widget disabled for this payment (a one-click form has
   * a saved card's pay button before the card form's, which stays enabled).
   */
  #watchPayButton(): void {
    this.#payButtonObserver?.disconnect();
    const area = this.#widgetArea;
    if (!area) return;
    const isPayButton = (node: unknown): node is HTMLButtonElement => node instanceof HTMLButtonElement && node.matches('.wpwl-button-pay');
    // A widget may disable it before it asks (`onBeforeSubmitCard`) or right after: either way, the one disabled last.
    let sending = [...area.querySelectorAll<HTMLButtonElement>('button.wpwl-button-pay')].find((button) => button.disabled);
    const observer = new MutationObserver((records) => {
      for (const { target } of records) if (isPayButton(target) && target.disabled) sending = target;
      if (this.state !== 'submitting' || !sending || sending.disabled) return;
      observer.disconnect();
      this.setState('ready');
      this.#queueSync();
    });
    observer.observe(area, { attributes: true, attributeFilter: ['disabled'], subtree: true });
    this.#payButtonObserver = observer;
  }

  #createOwner(): WidgetOwner {
    return {
      connected: () => this.isConnected,
      widgetOptions: (page) => {
        // The page's own wpwlOptions (if it had some) under ours: its callbacks are wrapped, not lost.
        const options: WpwlOptions = { ...page, ...this.#renderedOptions, ...this.options };
        const locale = widgetLocale(this.locale, options.locale, langOf(this));
        if (locale) options.locale = locale;
        if (this.widgetStyle) options.style = this.widgetStyle;
        return options;
      },
      mountForm: () => {
        // Also a form the page's HTML held for a checkout this element no longer shows.
        for (const area of this.querySelectorAll(`:scope > .${WIDGET_AREA_CLASS}`)) area.remove();
        const area = document.createElement('div');
        area.className = WIDGET_AREA_CLASS;
        const form = document.createElement('form');
        form.className = 'paymentWidgets';
        form.action = this.shopperResultUrl ?? '';
        form.dataset.brands = dataBrandsOf(this.brands);
        area.append(form);
        this.#widgetArea = area;
        this.append(area);
      },
      adoptForm: (renderedOptions) => {
        const area = this.querySelector<HTMLDivElement>(`:scope > .${WIDGET_AREA_CLASS}`);
        if (!area?.querySelector('form.paymentWidgets')) return false;
        this.#widgetArea = area;
        this.#renderedOptions = renderedOptions;
        return true;
      },
      unmountForm: () => {
        this.#payButtonObserver?.disconnect();
        this.#widgetArea?.remove();
        this.#widgetArea = undefined;
      },
      submitting: () => this.#ownSending(),
      holds: (node) => this.#widgetArea?.contains(node) ?? false,
      widgetLoading: () => {
        // A new form preselects its own brand: the last one's choice is not this one's.
        this.#brand = undefined;
        this.setState('loading');
      },
      widgetReady: () => {
        if (this.state !== 'loading') return;
        this.setState('ready');
        this.emit('gw-ready', { checkoutId: this.#shown, expiresAt: this.#expiry() });
      },
      widgetFailed: (code, message, cause) => this.#fail(code, message, { cause }),
      widgetError: (given: WpwlError) => {
        // The widget's words reach the page's handlers and its console: a run of card digits in them is masked, and
        // the cause is this copy, never the widget's own object.
        const error = { name: given?.name, message: String(given?.message ?? '').replace(/\d(?:[\s-]?\d){11,}/g, '…') } as WpwlError;
        // Refused while a payment is being sent, the checkout is expired or already paid: never told "expired", the
        // shopper goes on to the result page, whose server reads which (below: a `widget-error`, the widget kept).
        if (error.name === 'InvalidCheckoutIdError' && !this.#sending()) {
          // Refused at load: the id is wrong (or was already dead). Refused after the widget had accepted it: it expired.
          if (this.state === 'loading')
            this.#fail('invalid-checkout', explained('invalid-checkout', `the gateway refused checkout ${this.checkoutId}`), {
              cause: error,
            });
          else this.#expire(new Date());
          return;
        }
        const message = `The payment widget reported ${error.name ?? 'an error'}${error.message ? `: ${error.message}` : ''}.`;
        if (this.state === 'loading') this.#fail('widget-error', message, { cause: error });
        // Once ready, the widget keeps its form and shows its own message: the shopper may go on.
        else this.emit('gw-error', { code: 'widget-error', message, cause: error, checkoutId: this.#shown } satisfies GwErrorDetail);
      },
      widgetBeforeSubmit: () => {
        // Only from the form: a second press while a payment is being sent (a double click, Enter and a click) sends nothing.
        if (this.state !== 'ready') return false;
        // The widget reports a brand only when the shopper changes it: the one its form preselected is read from the form.
        const brand = this.#brand ?? (this.querySelector<HTMLSelectElement>('select.wpwl-control-brand')?.value || undefined);
        const event = this.emit('gw-before-submit', { checkoutId: this.#shown, brand }, true);
        if (event.defaultPrevented) return false;
        this.setState('submitting');
        this.#watchPayButton();
        return true;
      },
      widgetBrandChanged: (brand) => {
        this.#brand = brand;
        this.emit('gw-brand-change', { checkoutId: this.#shown, brand });
      },
    };
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'gw-checkout': GwCheckout;
  }
}
