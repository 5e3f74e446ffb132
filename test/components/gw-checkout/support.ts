/**
 * Helpers for the <gw-checkout> browser tests: checkouts from the real sandbox
 * (through the test runner's merchant proxy), mounting, and paying in the widget
 * the way a shopper does, through its public `.wpwl-*` controls.
 */
import { oneEvent } from '@open-wc/testing';
import { clockSandboxUrl, merchantCall, sandboxUrl, shopperResultUrl } from '../../support/gateway.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';

export { sandboxUrl, shopperResultUrl };

export interface Checkout {
  id: string;
  integrity: string;
  /** The sandbox it lives on. */
  baseUrl: string;
}

/** A fresh checkout, as the merchant server would create it; on the clock sandbox for tests that move time. */
export async function createCheckout(sandbox: 'shared' | 'clock' = 'shared'): Promise<Checkout> {
  const { status, body } = await merchantCall(
    'POST',
    '/v1/checkouts',
    { amount: '12.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' },
    { sandbox },
  );
  if (status !== 200 || typeof body.id !== 'string') throw new Error(`checkout not created: ${status} ${JSON.stringify(body.result)}`);
  return { id: body.id, integrity: body.integrity, baseUrl: sandbox === 'clock' ? clockSandboxUrl : sandboxUrl };
}

export type CheckoutSettings = Partial<
  Pick<
    GwCheckout,
    'checkoutId' | 'integrity' | 'baseUrl' | 'shopperResultUrl' | 'brands' | 'locale' | 'widgetStyle' | 'expiresAt' | 'options'
  >
> & { nonce?: string };

/** A <gw-checkout> of `doc` with the given properties, connected to `parent` (the body unless given). */
export function mount(settings: CheckoutSettings, parent: ParentNode = document.body, doc: Document = document): GwCheckout {
  const element = doc.createElement('gw-checkout') as GwCheckout;
  Object.assign(element, settings);
  parent.append(element);
  return element;
}

/** Everything a page needs for `checkout`, pointing at the test sandbox. */
export function settingsFor(checkout: Checkout): CheckoutSettings {
  return { checkoutId: checkout.id, integrity: checkout.integrity, baseUrl: checkout.baseUrl, shopperResultUrl };
}

/** The widget scripts present in `doc`. */
export function widgetScripts(doc: Document = document): HTMLScriptElement[] {
  return [...doc.querySelectorAll<HTMLScriptElement>('script[src*="/v1/paymentWidgets.js"]')];
}

/** Mounts and waits for `gw-ready`. */
export async function mountReady(settings: CheckoutSettings, parent?: ParentNode, doc?: Document): Promise<GwCheckout> {
  const element = mount(settings, parent, doc);
  await oneEvent(element, 'gw-ready');
  return element;
}

function control(root: ParentNode, name: string): HTMLInputElement {
  const input = root.querySelector<HTMLInputElement>(`.wpwl-control-${name}`);
  if (!input) throw new Error(`no .wpwl-control-${name}`);
  return input;
}

/** Types a card into the widget inside `root` and presses pay. */
export function pay(root: ParentNode, cardNumber: string): void {
  const year = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');
  const values: Record<string, string> = { cardNumber, expiry: `12 / ${year}`, cvv: '123', cardHolder: 'Jane Jones' };
  for (const [name, value] of Object.entries(values)) {
    const input = control(root, name);
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  const button = root.querySelector<HTMLButtonElement>('.wpwl-button-pay');
  if (!button) throw new Error('no .wpwl-button-pay');
  button.click();
}

/** Resolves when `predicate` holds, checking on every animation frame (rejects after `timeout` ms). */
export async function until(predicate: () => boolean, message: string, timeout = 5000): Promise<void> {
  const start = performance.now();
  while (!predicate()) {
    if (performance.now() - start > timeout) throw new Error(`timed out waiting until ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A page of this origin sent with a Content-Security-Policy header, loading the element's define module with `nonce`. */
export async function framePageWithHeaderPolicy(
  policy: string,
  nonce: string,
): Promise<{ frame: HTMLIFrameElement; doc: Document; win: Window }> {
  const frame = document.createElement('iframe');
  frame.title = 'checkout page';
  frame.src = `/__gw/page?${new URLSearchParams({ csp: policy, nonce, module: '/src/components/gw-checkout/define.ts' })}`;
  const loaded = oneEvent(frame, 'load');
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow!;
  await win.customElements.whenDefined('gw-checkout');
  return { frame, doc: frame.contentDocument!, win };
}

/**
 * An about:srcdoc page of this origin that loads the element's define module,
 * for tests that need their own document (the widget navigates the document it
 * runs in; a CSP applies to a whole document).
 */
export async function framePage(head = '', scriptNonce = ''): Promise<{ frame: HTMLIFrameElement; doc: Document; win: Window }> {
  const frame = document.createElement('iframe');
  frame.title = 'checkout page';
  const nonce = scriptNonce ? ` nonce="${scriptNonce}"` : '';
  frame.srcdoc = `<!doctype html><html lang="en"><head><title>Checkout page</title>${head}<script type="module"${nonce} src="/src/components/gw-checkout/define.ts"></script></head><body><main></main></body></html>`;
  const loaded = oneEvent(frame, 'load');
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow!;
  await win.customElements.whenDefined('gw-checkout');
  return { frame, doc: frame.contentDocument!, win };
}
