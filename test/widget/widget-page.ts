/**
 * A merchant's plain HTML page with the platform's two lines (the widget script with integrity and
 * crossorigin, and form.paymentWidgets) inside a same-origin iframe, so a test can drive the
 * widget and watch where it sends the shopper: the widget navigates the page it runs in.
 */
import { clockSandboxUrl, merchantCall, sandboxUrl, shopperResultUrl } from '../support/gateway.js';
import { clickInFrame } from '../support/three-ds.js';
import type { WpwlError, WpwlOptions } from '../../src/browser/widget-contract.js';

export type { WpwlError, WpwlOptions };

export interface Checkout {
  id: string;
  integrity: string;
  /** The sandbox that holds it: the shared one unless the test moves the clock. */
  sandbox?: 'shared' | 'clock';
}

export type WidgetWindow = Window &
  typeof globalThis & {
    wpwl?: { checkout: Record<string, string>; unload(): void };
    wpwlOptions?: WpwlOptions;
    /** The src of every script element that failed to load (network or integrity). */
    gwScriptErrors: string[];
    /** Every Content-Security-Policy violation of the page. */
    gwViolations: string[];
  };

/** The nonce the page's own inline script carries, for pages with a strict CSP. */
export const NONCE = 'gw-widget-test';

/** Creates a checkout; tests that move the clock create theirs in the second sandbox (`sandbox: 'clock'`). */
export async function createCheckout(amount = '12.50', sandbox: 'shared' | 'clock' = 'shared'): Promise<Checkout> {
  const { body } = await merchantCall(
    'POST',
    '/v1/checkouts',
    { amount, currency: 'EUR', paymentType: 'DB', integrity: 'true' },
    { sandbox },
  );
  if (body.result?.code !== '000.200.100') throw new Error(`checkout not created: ${JSON.stringify(body.result)}`);
  return { id: body.id, integrity: body.integrity, sandbox };
}

export const widgetScriptUrl = ({ id, sandbox }: Checkout) =>
  `${sandbox === 'clock' ? clockSandboxUrl : sandboxUrl}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(id)}`;

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export interface PageSpec {
  checkout: Checkout;
  /** One form per entry; `action` defaults to the test runner's shopper result page; `hidden`: the page hides it. */
  forms?: { brands: string; action?: string; hidden?: boolean }[];
  options?: WpwlOptions;
  /** A Content-Security-Policy for the page, as a meta element before any script. */
  csp?: string;
  /** Stands between the widget and the gateway: given the page's own fetch, answers the widget's requests (a hostile peer). */
  fetch?: (pageFetch: typeof fetch) => typeof fetch;
  /** Stands between the widget and the page's `setTimeout`: given it, arms the widget's timers (a test's clock). */
  setTimeout?: (pageSetTimeout: typeof setTimeout) => typeof setTimeout;
}

/** A `PageSpec.fetch` that rewrites the text of the gateway's checkout answer (`…/widget`) and passes every other answer on. */
export const checkoutAnswerRewritten =
  (rewrite: (text: string) => string): NonNullable<PageSpec['fetch']> =>
  (pageFetch) =>
  async (input, init) => {
    const answer = await pageFetch(input, init);
    if (!String(input instanceof Request ? input.url : input).endsWith('/widget')) return answer;
    return new Response(rewrite(await answer.text()), { status: answer.status, headers: answer.headers });
  };

/** A `PageSpec.fetch` that sets `fields` on the checkout the gateway's checkout answer describes. */
export const checkoutFieldsSet = (fields: Record<string, unknown>) =>
  checkoutAnswerRewritten((text) => {
    const body = JSON.parse(text) as { checkout?: object };
    return JSON.stringify({ ...body, checkout: { ...body.checkout, ...fields } });
  });

export interface WidgetPage {
  frame: HTMLIFrameElement;
  window: WidgetWindow;
  document: Document;
  /** Resolves when the widget calls onReady. */
  ready: Promise<void>;
  /** Resolves with the first error the widget reports through onError. */
  error: Promise<WpwlError>;
  errors: WpwlError[];
  form(index?: number): HTMLFormElement;
}

const pages: HTMLIFrameElement[] = [];

/** Removes every page opened by the current test. */
export function closePages(): void {
  for (const frame of pages.splice(0)) frame.remove();
}

/** Wraps the page's callbacks so the test can await them; the page's own callbacks still run. */
function observe(options: WpwlOptions = {}) {
  const errors: WpwlError[] = [];
  let readied!: () => void;
  let failed!: (error: WpwlError) => void;
  const ready = new Promise<void>((resolve) => (readied = resolve));
  const error = new Promise<WpwlError>((resolve) => (failed = resolve));
  const observed: WpwlOptions = {
    ...options,
    onReady() {
      options.onReady?.();
      readied();
    },
    onError(reported) {
      errors.push(reported);
      options.onError?.(reported);
      failed(reported);
    },
  };
  return { observed, ready, error, errors };
}

/** Opens the merchant page and resolves once it has loaded (the widget script ran or was refused). */
export async function openWidgetPage(spec: PageSpec): Promise<WidgetPage> {
  const { observed, ready, error, errors } = observe(spec.options);
  const forms = (spec.forms ?? [{ brands: 'VISA MASTER' }])
    .map(
      ({ brands, action = `${shopperResultUrl}?order=42`, hidden }) =>
        `<form action="${attribute(action)}" class="paymentWidgets" data-brands="${attribute(brands)}"${hidden ? ' hidden' : ''}></form>`,
    )
    .join('\n');
  const frame = document.createElement('iframe');
  Object.assign(frame, {
    gwOptions: observed,
    gwFetch: spec.fetch,
    gwSetTimeout: spec.setTimeout,
    title: 'merchant page',
    width: 600,
    height: 700,
  });
  frame.srcdoc = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
${spec.csp ? `<meta http-equiv="Content-Security-Policy" content="${attribute(spec.csp)}">` : ''}
<script nonce="${NONCE}">
window.wpwlOptions = frameElement.gwOptions;
if (frameElement.gwFetch) window.fetch = frameElement.gwFetch(window.fetch.bind(window));
if (frameElement.gwSetTimeout) window.setTimeout = frameElement.gwSetTimeout(window.setTimeout.bind(window));
window.gwScriptErrors = [];
window.gwViolations = [];
addEventListener('error', (event) => { if (event.target instanceof HTMLScriptElement) gwScriptErrors.push(event.target.src); }, true);
addEventListener('securitypolicyviolation', (event) => gwViolations.push(event.violatedDirective + ' ' + event.blockedURI));
</script>
<script src="${attribute(widgetScriptUrl(spec.checkout))}" integrity="${attribute(spec.checkout.integrity)}" crossorigin="anonymous"></script>
</head><body>
${forms}
</body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  pages.push(frame);
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow as WidgetWindow;
  return {
    frame,
    window: win,
    document: win.document,
    ready,
    error,
    errors,
    form: (index = 0) => win.document.querySelectorAll('form.paymentWidgets')[index] as HTMLFormElement,
  };
}

/** Loads another checkout into an open page, as a single-page app does after `wpwl.unload()`. */
export function loadCheckout(page: WidgetPage, checkout: Checkout, options?: WpwlOptions): Pick<WidgetPage, 'ready' | 'error' | 'errors'> {
  const { observed, ready, error, errors } = observe(options);
  page.window.wpwlOptions = observed;
  const script = page.document.createElement('script');
  script.integrity = checkout.integrity;
  script.crossOrigin = 'anonymous';
  script.src = widgetScriptUrl(checkout);
  page.document.head.append(script);
  return { ready, error, errors };
}

export interface Card {
  number: string;
  expiry?: string;
  cvv?: string;
  holder?: string;
}

/** An expiry date two years ahead, as the shopper types it. */
export const FUTURE_EXPIRY = `12 / ${String(new Date().getFullYear() + 2).slice(2)}`;

export function control(form: HTMLFormElement, name: 'cardNumber' | 'expiry' | 'cvv' | 'cardHolder' | 'brand'): HTMLInputElement {
  const found = form.querySelector(`.wpwl-control-${name}`);
  if (!found) throw new Error(`no .wpwl-control-${name} in the form`);
  return found as HTMLInputElement;
}

/**
 * Types into a control and leaves it, with the events a shopper's typing fires. The blur is
 * dispatched, not caused: a page without system focus (test files run side by side) gets no
 * focus events from focus() and blur().
 */
export function type(input: HTMLInputElement, value: string): void {
  const { Event, FocusEvent } = input.ownerDocument.defaultView as WidgetWindow;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new FocusEvent('blur'));
}

export function fill(form: HTMLFormElement, card: Card): void {
  type(control(form, 'cardNumber'), card.number);
  type(control(form, 'expiry'), card.expiry ?? FUTURE_EXPIRY);
  type(control(form, 'cvv'), card.cvv ?? '123');
  type(control(form, 'cardHolder'), card.holder ?? 'Jane Jones');
}

/**
 * The widget's own card form in a shop's form, as the platform's widget renders it:
 * `div.wpwl-container.wpwl-container-card > form.wpwl-form.wpwl-form-card`.
 */
export function cardFormOf(form: HTMLFormElement): HTMLFormElement {
  const found = form.querySelector<HTMLFormElement>(':scope > .wpwl-container.wpwl-container-card > form.wpwl-form.wpwl-form-card');
  if (!found) throw new Error('no div.wpwl-container-card > form.wpwl-form-card in the form');
  return found;
}

export function payButton(form: HTMLFormElement): HTMLButtonElement {
  return form.querySelector('button.wpwl-button-pay') as HTMLButtonElement;
}

/** Fills the form and presses the pay button. */
export function pay(form: HTMLFormElement, card: Card): void {
  fill(form, card);
  payButton(form).click();
}

/** Polls until `probe` returns a value (exceptions count as not yet), or fails after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = probe();
      if (value instanceof Promise) throw new TypeError('waitFor polls synchronous probes only');
      if (value) return value;
    } catch {
      // A cross-origin frame or a page still loading: not yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The URL the widget finally sent the shopper to: the test runner's shopper result page. */
export function shopperResult(page: WidgetPage, timeoutMs?: number): Promise<URL> {
  return waitFor(
    () => {
      const href = page.frame.contentWindow!.location.href;
      return href.startsWith(shopperResultUrl) && page.frame.contentDocument?.readyState === 'complete' && new URL(href);
    },
    'the shopper result page',
    timeoutMs,
  );
}

/** Reads the checkout's payment as the merchant's server does after the shopper's return. */
export async function paymentStatus(result: URL): Promise<Record<string, any>> {
  const resourcePath = result.searchParams.get('resourcePath') ?? '';
  if (!/^\/v1\/checkouts\/[^/]+\/payment$/.test(resourcePath)) throw new Error(`unexpected resourcePath ${resourcePath}`);
  return (await merchantCall('GET', resourcePath)).body;
}

/** axe-core's violations for `element`, run inside the page's own document (axe does not cross into frames it was not loaded in). */
export async function axeViolations(page: WidgetPage, element: Element): Promise<string[]> {
  const win = page.window as WidgetWindow & {
    axe?: { run(context: Element, options: object): Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
  };
  if (!win.axe) {
    const script = page.document.createElement('script');
    script.src = '/node_modules/axe-core/axe.min.js';
    const loaded = new Promise((resolve, reject) => {
      script.addEventListener('load', resolve);
      script.addEventListener('error', reject);
    });
    page.document.head.append(script);
    await loaded;
  }
  // Page-level rules (landmarks, headings) are about the merchant's page, not the widget.
  const { violations } = await win.axe!.run(element, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  return violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
}

/**
 * Presses a button of the sandbox's 3DS challenge page in the merchant page's frame. The frame
 * moves to another renderer process when it navigates cross-origin, and the automation protocol
 * may still hold the frame it replaced: a click that found a detached frame did not happen, so
 * trying again is safe.
 */
export async function answerChallenge(text: 'Complete authentication' | 'Fail authentication'): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await clickInFrame(`${sandboxUrl}/v1/threeDSecure/execute`, text);
      return;
    } catch (error) {
      // The browser side only sees "Waiting for selector … failed"; the runner logs the detachment.
      if (attempt === 3 || !/detached|Waiting for selector/.test(String(error))) throw error;
    }
  }
}
