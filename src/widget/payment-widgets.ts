/**
 * The sandbox's payment widget. esbuild bundles this module and what it
 * imports into the one classic script `GET /v1/paymentWidgets.js?checkoutId=`
 * serves (src/sandbox/node/widget-bundle.ts); the sha384 of those exact bytes is
 * every checkout's `integrity`. It reads its checkout id and the sandbox
 * origin from its own <script src>. Like the platform's widget it reads
 * `window.wpwlOptions`, renders a card form into every `form.paymentWidgets`,
 * sends the card to the gateway, runs the 3-D Secure steps and finally sends
 * the shopper to the form's `action`. No eval, no inline styles or handlers: it
 * runs under a strict Content-Security-Policy.
 */
import {
  checkRedirect,
  METHOD_TIMEOUT_MS,
  navigate,
  runPrecondition,
  Scope,
  type CheckedRedirect,
} from '../browser/three-d-secure-flow.js';
import { httpUrl, isSecureEndpoint } from '../browser/url.js';
import { TIMER_MAX_MS } from '../contract/limits.js';
import { RESULT_CODES } from '../contract/result-codes.js';
import { isGatewayId, resourcePathOf, widgetCheckoutOf } from '../contract/resource-path.js';
import { parseGatewayTimestamp } from '../contract/timestamp.js';
import type { CheckoutAnswer } from '../contract/widget-answers.js';
import { autofocus, cardFormIn, element, NO_RESULT_PAGE, renderCardForm, showMessage } from './card-form.js';
import type { Widget } from './widget.js';
import { isSavedCard, renderSavedCards } from './saved-cards.js';
import { CARD_CSS, PLAIN_CSS } from './styles.js';
import { cardBrandsOf } from './offered-brands.js';
import { renderWallets, type CheckoutSummary } from './wallets.js';
import { languageOf, textsFor, type TextKey } from './texts.js';
import type { WpwlCallback, WpwlErrorName, WpwlOptions } from '../browser/widget-contract.js';

interface Wpwl {
  readonly checkout: Record<string, string>;
  unload(): void;
}

const win = window as Window & { wpwl?: Wpwl; wpwlOptions?: WpwlOptions };

/** One loaded checkout: what the card forms get (`Widget`) and what the loader keeps beside it. */
interface Session extends Widget {
  readonly checkoutId: string;
  /** This script's own URL: the sandbox's origin, and the checkout id in its query. */
  readonly scriptUrl: URL | undefined;
  /** `window.wpwl` while this checkout is loaded. */
  readonly api: Wpwl;
  /** The widget's styles, unless `style: 'none'`. */
  readonly sheet: CSSStyleSheet | undefined;
}

/** Reads the merchant's options and, unless another checkout is loaded, opens this one and starts it. */
function load(): void {
  const options: WpwlOptions = win.wpwlOptions ?? {};
  const { call, report } = merchantCallbacks(options);
  if (win.wpwl) return report('WidgetError', 'Another checkout is loaded on this page: call wpwl.unload() before loading a new one.');
  const session = openSession(options, call, report, ownScript());
  win.wpwl = session.api;
  void start(session);
}

/**
 * The merchant's callbacks: `call` calls one; one that throws is reported and
 * counts as `false`, so a broken onBeforeSubmitCard stops the payment rather
 * than letting it through unchecked. `report` warns and calls `onError`.
 */
function merchantCallbacks(options: WpwlOptions): Pick<Widget, 'call' | 'report'> {
  const call = (name: WpwlCallback, ...args: unknown[]): unknown => {
    const callback = options[name];
    if (typeof callback !== 'function') return undefined;
    try {
      return (callback as (...parameters: unknown[]) => unknown).apply(options, args);
    } catch (error) {
      reportError(error);
      return false;
    }
  };
  const report = (name: WpwlErrorName, message: string): void => {
    const error = new Error(message);
    error.name = name;
    console.warn(`paymentWidgets.js: ${name}: ${message}`);
    call('onError', error);
  };
  return { call, report };
}

/** This script's URL and the checkout id in it (from `document.currentScript`, or the last paymentWidgets.js script). */
function ownScript(): Pick<Session, 'scriptUrl' | 'checkoutId' | 'registration'> {
  const script = (document.currentScript ?? [...document.querySelectorAll('script[src*="paymentWidgets.js"]')].pop()) as
    HTMLScriptElement | undefined;
  const scriptUrl = script ? new URL(script.src, document.baseURI) : undefined;
  const checkoutId = scriptUrl?.searchParams.get('checkoutId') ?? '';
  // `{id}/registration` asks for the registration form; anything else is passed on as the checkout id the gateway judges.
  return { scriptUrl, ...(widgetCheckoutOf(checkoutId) ?? { checkoutId, registration: false }) };
}

function openSession(
  options: WpwlOptions,
  call: Widget['call'],
  report: Widget['report'],
  { scriptUrl, checkoutId, registration }: Pick<Session, 'scriptUrl' | 'checkoutId' | 'registration'>,
): Session {
  const language = languageOf(options.locale);
  // Ending `scope` (wpwl.unload()) removes every listener, request, timer and node the widget added.
  const scope = new Scope();
  const session: Session = {
    options,
    texts: textsFor(language, options.labels, options.errorMessages),
    language,
    scope,
    call,
    report,
    checkoutId,
    registration,
    scriptUrl,
    api: { checkout: { id: checkoutId }, unload: () => unload(session) },
    sending: false,
    sheet: options.style === 'none' ? undefined : new CSSStyleSheet(),
    gatewayUrl: (path) => new URL(`checkouts/${encodeURIComponent(checkoutId)}/${path}`, scriptUrl).href,
    showResult(form) {
      // Only to an http(s) result page: a form whose action is anything else was never rendered, but a saved card or a
      // late answer may still name it.
      const target = httpUrl(form.action);
      if (!target) return report('WidgetError', NO_RESULT_PAGE);
      target.searchParams.set('id', checkoutId);
      target.searchParams.set('resourcePath', resourcePathOf({ kind: registration ? 'registration' : 'checkout', id: checkoutId }));
      window.location.assign(target.href);
    },
    authenticate: (redirect, form) => void authenticate(session, redirect, form),
  };
  return session;
}

/** Asks for the checkout while the page loads, then renders the forms once both are there. */
async function start(session: Session): Promise<void> {
  const loading = requestCheckout(session);
  await domReady(session.scope.signal);
  const answered = await checkoutOf(session, loading);
  if (!answered) return;
  const { timestamp, ...checkout } = answered;
  // Defined, not assigned: a `__proto__` key in the answer stays a plain field and never becomes the object's prototype.
  Object.defineProperties(session.api.checkout, Object.getOwnPropertyDescriptors(checkout));
  expireLater(session, checkout.expiresAt, timestamp);
  // The page's onError may unload the widget while the forms are rendered: then it stops there, and onReady is not called.
  if (!renderForms(session) || session.scope.signal.aborted) return;
  // Saved cards as the gateway listed them, each readable; they pay into the first form with a result page.
  const saved = Array.isArray(checkout.registrations) ? checkout.registrations.filter(isSavedCard) : [];
  if (saved.length)
    renderSavedCards(
      session,
      saved,
      [...forms()].filter((form) => httpUrl(form.action)),
    );
  // Only now is every form the shopper can use in the page, the saved cards' too.
  session.call('onReady');
}

/** The checkout's request, started at once; undefined when the script's URL names no valid checkout. */
function requestCheckout(session: Session): Promise<CheckoutAnswer | undefined> | undefined {
  if (!session.scriptUrl || !isGatewayId(session.checkoutId)) return undefined;
  return fetch(session.gatewayUrl('widget'), { signal: session.scope.signal, credentials: 'omit' })
    .then((response) => response.json() as Promise<CheckoutAnswer>)
    .catch(() => undefined);
}

/** The checkout the gateway answered, with the gateway's time; or undefined, after telling the shopper and the merchant why not. */
async function checkoutOf(
  session: Session,
  loading: ReturnType<typeof requestCheckout>,
): Promise<(NonNullable<CheckoutAnswer['checkout']> & { timestamp: string | undefined }) | undefined> {
  if (!loading) return void fail(session, 'InvalidCheckoutIdError', 'The script URL carries no valid checkoutId.', 'invalidCheckout');
  const answer = await loading;
  if (session.scope.signal.aborted) return undefined;
  if (answer?.result?.code === RESULT_CODES.invalidParameter)
    return void fail(session, 'InvalidCheckoutIdError', 'The checkout is unknown, expired or already paid.', 'invalidCheckout');
  if (!answer?.checkout)
    return void fail(session, 'PciIframeCommunicationError', 'The gateway could not be reached or answered no checkout.', 'unavailable');
  return { ...answer.checkout, timestamp: answer.timestamp };
}

/** Adopts the widget's styles and renders a card form into every form.paymentWidgets; the first takes the focus. False when none was rendered. */
function renderForms(session: Session): boolean {
  const found = [...forms()];
  if (!found.length) {
    session.report('WidgetError', 'No form.paymentWidgets found in the document.');
    return false;
  }
  if (session.sheet) {
    session.sheet.replaceSync(session.options.style === 'plain' ? PLAIN_CSS : CARD_CSS);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, session.sheet];
  }
  let wallets = false;
  const { brands: named, ...summary }: CheckoutSummary = session.api.checkout;
  // The entity's brands as the gateway named them; an answer that names none readably restricts nothing (the gateway still refuses).
  const checkout: CheckoutSummary = {
    ...summary,
    ...(Array.isArray(named) ? { brands: named.filter((brand) => typeof brand === 'string') } : {}),
  };
  let first: ReturnType<typeof renderCardForm>;
  for (const [index, form] of found.entries()) {
    const rendered = renderWallets(session, form, index, checkout);
    wallets ||= rendered;
    // A form of wallets alone has no card form.
    const cardForm =
      session.scope.signal.aborted || (rendered && !cardBrandsOf(form).length)
        ? undefined
        : renderCardForm(session, form, index, checkout.brands);
    first ??= cardForm;
    // Every report calls the page's onError, which may unload the widget (wpwl.unload()): then no form more is rendered.
    if (session.scope.signal.aborted) return false;
  }
  if (!first && !wallets) return false;
  if (first) autofocus(first, session.options.autofocus);
  return true;
}

const forms = () => document.querySelectorAll<HTMLFormElement>('form.paymentWidgets');

/**
 * Reports a widget error, shows a short message in every form and leaves no pay control usable: pay buttons
 * (the saved cards' too) disabled, wallets hidden (a disabled wallet button means a wallet payment is being sent).
 */
function fail(session: Session, name: WpwlErrorName, message: string, text: TextKey): void {
  for (const form of forms()) showMessage(session.scope, cardFormIn(form) ?? form, session.texts[text]);
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.wpwl-button-pay')) button.disabled = true;
  for (const wallets of document.querySelectorAll<HTMLElement>('.wpwl-group-wallets')) wallets.hidden = true;
  session.report(name, message);
}

/** Reports the end of the checkout's life while the form is open, counting on the gateway's clock, not the shopper's. */
function expireLater(session: Session, expiresAt: string, timestamp: string | undefined): void {
  const now = parseGatewayTimestamp(String(timestamp));
  // The end on this page's clock: what the gateway's clock had left, from now.
  const end = Date.now() + Date.parse(expiresAt) - (Number.isNaN(now) ? Date.now() : now);
  if (Number.isNaN(end)) return;
  // An end further away than a timer holds is waited for in steps, never reported at the first one.
  const wait = (): void => {
    const remaining = end - Date.now();
    session.scope.timer(Math.min(Math.max(remaining, 0), TIMER_MAX_MS), () =>
      remaining > TIMER_MAX_MS ? wait() : fail(session, 'InvalidCheckoutIdError', 'The checkout expired.', 'invalidCheckout'),
    );
  };
  wait();
}

function domReady(signal: AbortSignal): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true, signal }));
}

/**
 * The API reference's 3-D Secure steps, through the runner <gw-3ds-handler> uses: each
 * precondition in a hidden iframe (until it loads, at most 10 seconds), then
 * the challenge in this window; the gateway's challenge page ends on the
 * shop's result page.
 */
async function authenticate(session: Session, redirect: unknown, form: HTMLFormElement): Promise<void> {
  const { scope, scriptUrl } = session;
  let checked: CheckedRedirect;
  try {
    // The sandbox's own pages are on the script's origin, which may be plain http off this machine.
    checked = checkRedirect(redirect, (url) => isSecureEndpoint(url) || url.origin === scriptUrl?.origin);
  } catch (problem) {
    // The payment is pending at the gateway: the result page reads how it ends.
    session.report(
      'PciIframeCommunicationError',
      `The gateway answered a 3-D Secure redirect the widget cannot follow: ${(problem as Error).message}`,
    );
    return scope.signal.aborted ? undefined : session.showResult(form);
  }
  for (const [index, step] of checked.preconditions.entries()) {
    const frame = scope.own(
      element('iframe', 'wpwl-precondition', { name: `wpwl-precondition-${index}`, title: '3-D Secure', hidden: true, tabIndex: -1 }),
    );
    document.body.append(frame);
    // A method page that does not load, or that the page's policy refuses, is skipped (EMVCo): the challenge goes on.
    const { outcome } = await runPrecondition(scope, frame, step, METHOD_TIMEOUT_MS);
    if (outcome === 'aborted') return;
  }
  navigate(scope, checked.challenge, '_self');
}

/** Removes everything the widget added, so a single-page app can load another checkout. */
function unload(session: Session): void {
  session.scope.end();
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== session.sheet);
  if (win.wpwl === session.api) delete win.wpwl;
}

load();
