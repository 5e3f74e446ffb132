/**
 * The sandbox's payment widget. esbuild bundles this module and what it
 * imports into the one classic script `GET /v1/paymentWidgets.js?checkoutId=`
 * serves (src/sandbox/widget-script.ts); the sha384 of those exact bytes is
 * every checkout's `integrity`. It reads its checkout id and the sandbox
 * origin from its own <script src>. Like the platform's widget it reads
 * `window.wpwlOptions`, renders a card form into every `form.paymentWidgets`,
 * sends the card to the gateway, runs the 3-D Secure steps and finally sends
 * the shopper to the form's `action`. No eval, no inline styles or handlers: it
 * runs under a strict Content-Security-Policy.
 */
import { checkRedirect, METHOD_TIMEOUT_MS, navigate, runPrecondition, Scope, type CheckedRedirect } from '../../browser/three-d-secure-flow.js';
import { isSecureEndpoint } from '../../browser/url.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { isGatewayId, resourcePathOf } from '../../contract/resource-path.js';
import { parseGatewayTimestamp } from '../../contract/timestamp.js';
import type { CheckoutAnswer } from './answers.js';
import { autofocus, element, renderCardForm, showMessage, type Widget } from './card-form.js';
import { CARD_CSS, PLAIN_CSS } from './styles.js';
import { languageOf, textsFor, type TextKey } from './texts.js';
import type { WpwlCallback, WpwlErrorName, WpwlOptions } from '../../browser/widget-contract.js';

/** setTimeout holds at most 2^31 - 1 ms; no checkout lives that long. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

interface Wpwl {
  readonly checkout: Record<string, string>;
  unload(): void;
}

const win = window as Window & { wpwl?: Wpwl; wpwlOptions?: WpwlOptions };

function load(): void {
  const options: WpwlOptions = win.wpwlOptions ?? {};
  const language = languageOf(options.locale);
  const texts = textsFor(language, options.labels, options.errorMessages);

  /**
   * Calls a merchant callback; one that throws is reported and counts as
   * `false`, so a broken onBeforeSubmitCard stops the payment rather than
   * letting it through unchecked.
   */
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

  if (win.wpwl) return report('WidgetError', 'Another checkout is loaded on this page: call wpwl.unload() before loading a new one.');

  const script = (document.currentScript ?? [...document.querySelectorAll('script[src*="paymentWidgets.js"]')].pop()) as HTMLScriptElement | undefined;
  const scriptUrl = script ? new URL(script.src, document.baseURI) : undefined;
  const checkoutId = scriptUrl?.searchParams.get('checkoutId') ?? '';
  // Ending `scope` (wpwl.unload()) removes every listener, request, timer and node the widget added.
  const scope = new Scope();
  const { signal } = scope;
  const sheet = options.style === 'none' ? undefined : new CSSStyleSheet();
  const api: Wpwl = { checkout: { id: checkoutId }, unload };
  win.wpwl = api;

  const forms = () => document.querySelectorAll<HTMLFormElement>('form.paymentWidgets');

  /** Reports a widget error, shows a short message in every form and disables its pay button. */
  const fail = (name: WpwlErrorName, message: string, text: TextKey): void => {
    for (const form of forms()) {
      showMessage(scope, form, texts[text]);
      for (const button of form.querySelectorAll<HTMLButtonElement>('button.wpwl-button-pay')) button.disabled = true;
    }
    report(name, message);
  };

  const widget: Widget = {
    options,
    texts,
    language,
    scope,
    call,
    report,
    gatewayUrl: (path) => new URL(`checkouts/${encodeURIComponent(checkoutId)}/${path}`, scriptUrl).href,
    showResult(form) {
      const target = new URL(form.action);
      target.searchParams.set('id', checkoutId);
      target.searchParams.set('resourcePath', resourcePathOf({ kind: 'checkout', id: checkoutId }));
      window.location.assign(target.href);
    },
    authenticate: (redirect, form) => void authenticate(redirect, form),
  };

  void start();

  async function start(): Promise<void> {
    const loading =
      scriptUrl && isGatewayId(checkoutId)
        ? fetch(widget.gatewayUrl('widget'), { signal, credentials: 'omit' })
            .then((response) => response.json() as Promise<CheckoutAnswer>)
            .catch(() => undefined)
        : undefined;
    await domReady();
    if (!loading) return fail('InvalidCheckoutIdError', 'The script URL carries no valid checkoutId.', 'invalidCheckout');
    const answer = await loading;
    if (signal.aborted) return;
    if (answer?.result?.code === RESULT_CODES.invalidParameter) return fail('InvalidCheckoutIdError', 'The checkout is unknown, expired or already paid.', 'invalidCheckout');
    if (!answer?.checkout) return fail('PciIframeCommunicationError', 'The gateway could not be reached or answered no checkout.', 'unavailable');
    Object.assign(api.checkout, answer.checkout);
    expireLater(answer.checkout.expiresAt, answer.timestamp);

    const found = [...forms()];
    if (!found.length) return report('WidgetError', 'No form.paymentWidgets found in the document.');
    if (sheet) {
      sheet.replaceSync(options.style === 'plain' ? PLAIN_CSS : CARD_CSS);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }
    const [first] = found.map((form, index) => renderCardForm(widget, form, index)).filter((cardForm) => cardForm !== undefined);
    if (!first) return;
    autofocus(first, options.autofocus);
    call('onReady');
  }

  /** Reports the end of the checkout's life while the form is open, counting on the gateway's clock, not the shopper's. */
  function expireLater(expiresAt: string, timestamp: string | undefined): void {
    const now = parseGatewayTimestamp(String(timestamp));
    const remaining = Date.parse(expiresAt) - (Number.isNaN(now) ? Date.now() : now);
    if (Number.isNaN(remaining)) return;
    scope.timer(Math.min(Math.max(remaining, 0), LONGEST_TIMER_MS), () => fail('InvalidCheckoutIdError', 'The checkout expired.', 'invalidCheckout'));
  }

  function domReady(): Promise<void> {
    if (document.readyState !== 'loading') return Promise.resolve();
    return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true, signal }));
  }

  /**
   * The seed's 3-D Secure steps, through the runner <gw-3ds-handler> uses: each
   * precondition in a hidden iframe (until it loads, at most 10 seconds), then
   * the challenge in this window; the gateway's challenge page ends on the
   * shop's result page.
   */
  async function authenticate(redirect: unknown, form: HTMLFormElement): Promise<void> {
    let checked: CheckedRedirect;
    try {
      // The sandbox's own pages are on the script's origin, which may be plain http off this machine.
      checked = checkRedirect(redirect, (url) => isSecureEndpoint(url) || url.origin === scriptUrl?.origin);
    } catch (problem) {
      // The payment is pending at the gateway: the result page reads how it ends.
      report('PciIframeCommunicationError', `The gateway answered a 3-D Secure redirect the widget cannot follow: ${(problem as Error).message}`);
      return widget.showResult(form);
    }
    for (const [index, step] of checked.preconditions.entries()) {
      const frame = scope.own(element('iframe', 'wpwl-precondition', { name: `wpwl-precondition-${index}`, title: '3-D Secure', hidden: true, tabIndex: -1 }));
      document.body.append(frame);
      // A method page that does not load, or that the page's policy refuses, is skipped (EMVCo): the challenge goes on.
      const { outcome } = await runPrecondition(scope, frame, step, METHOD_TIMEOUT_MS);
      if (outcome === 'aborted') return;
    }
    navigate(scope, checked.challenge, '_self');
  }

  /** Removes everything the widget added, so a single-page app can load another checkout. */
  function unload(): void {
    scope.end();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
    if (win.wpwl === api) delete win.wpwl;
  }
}

load();
