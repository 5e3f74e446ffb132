/**
 * A checkout the merchant's server rendered (`renderCheckout`): the widget
 * loads from the page's HTML, before `<gw-checkout>`'s code, which the page
 * loads once the widget is ready and which then adopts the form, the script and
 * what the widget reported, keeping its states, events and clean-up. Each page
 * is an about:srcdoc frame, so the HTML is parsed as a server would send it.
 */
import { expect } from '@open-wc/testing';
import { CHECKOUT_LIFETIME_MS } from '../../../src/contract/limits.js';
import { gatewayTimestamp } from '../../../src/contract/timestamp.js';
import { renderCheckout, type RenderCheckoutOptions } from '../../../src/server/render-checkout.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
import { createCheckout, pay, shopperResultUrl, until, type Checkout } from './support.js';

const ELEMENT_MODULE = '/src/checkout.ts';

interface RenderedPage {
  frame: HTMLIFrameElement;
  doc: Document;
  win: Window & { wpwl?: unknown; wpwlOptions?: unknown; events: string[]; ids?: unknown[]; gwRenderedCheckout?: { events: [string][] } };
}

/** The rendered checkout in a page of its own, which records every gw-* event of its element. */
async function renderedPage(checkout: Checkout, options: Partial<RenderCheckoutOptions> = {}): Promise<RenderedPage> {
  const { html } = renderCheckout(checkout, { baseUrl: checkout.baseUrl, shopperResultUrl, ...options });
  const frame = document.createElement('iframe');
  frame.title = 'rendered checkout';
  frame.srcdoc = `<!doctype html><html lang="en"><head><title>Pay</title></head><body>
<script>window.events = []; for (const type of ['gw-ready', 'gw-error', 'gw-expired', 'gw-before-submit', 'gw-brand-change']) document.addEventListener(type, (event) => (events.push(type), (window.ids ??= []).push(event.detail && event.detail.checkoutId)));</script>
${html}</body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  return { frame, doc: frame.contentDocument!, win: frame.contentWindow as RenderedPage['win'] };
}

/** The creation time of a checkout that expires `ms` from now (the rendered element's `expires-at` comes from it). */
const expiringIn = (ms: number) => gatewayTimestamp(new Date(Date.now() - CHECKOUT_LIFETIME_MS + ms));
/** Well-formed Subresource Integrity of another script: the browser refuses the widget script. */
const WRONG_INTEGRITY = `sha384-${'A'.repeat(64)}`;
const payLabel = (page: RenderedPage) => page.doc.querySelector('.wpwl-button-pay')?.textContent?.trim();

const elementOf = (page: RenderedPage) => page.doc.querySelector('gw-checkout') as GwCheckout;
const resources = (page: RenderedPage, part: string) =>
  page.win.performance.getEntriesByType('resource').filter((entry) => entry.name.includes(part)) as PerformanceResourceTiming[];

/** Loads the element's module into the page, as a page that loads it itself would. */
async function defineElement(page: RenderedPage): Promise<void> {
  const script = page.doc.createElement('script');
  script.type = 'module';
  script.src = ELEMENT_MODULE;
  page.doc.head.append(script);
  await page.win.customElements.whenDefined('gw-checkout');
}

describe('<gw-checkout> rendered by the server', () => {
  const frames: HTMLIFrameElement[] = [];
  afterEach(() => {
    for (const frame of frames.splice(0)) frame.remove();
  });

  it('shows the widget before its own code arrives, then adopts it: same form, one script fetch, ready once', async () => {
    const checkout = await createCheckout();
    const page = await renderedPage(checkout, { elementScript: ELEMENT_MODULE });
    frames.push(page.frame);
    const form = page.doc.querySelector('form.paymentWidgets')!;
    await until(() => elementOf(page).state === 'ready', 'the element adopted the ready widget', 10_000);
    expect(page.doc.querySelector('form.paymentWidgets')).to.equal(form);
    expect(form.querySelector('.wpwl-button-pay'), 'the widget rendered into the server-rendered form').to.not.equal(null);
    expect(page.win.events).to.deep.equal(['gw-ready']);
    expect(page.win.ids, 'the replayed gw-ready names the checkout').to.deep.equal([checkout.id]);
    expect(resources(page, '/v1/paymentWidgets.js')).to.have.length(1);
    // The element's code was asked for only once the widget had everything it loads: it never shared the line.
    const [module] = resources(page, ELEMENT_MODULE);
    const widgetLoads = [...resources(page, '/v1/paymentWidgets.js'), ...resources(page, `/checkouts/${checkout.id}/widget`)];
    expect(widgetLoads.length).to.equal(2);
    for (const load of widgetLoads) expect(module!.startTime).to.be.at.least(load.responseEnd);
    expect(page.win.gwRenderedCheckout, 'the hand-over is consumed').to.equal(undefined);
  });

  it('removed from the page, unloads the widget and leaves nothing behind; a new element loads its own', async () => {
    const checkout = await createCheckout();
    const page = await renderedPage(checkout, { elementScript: ELEMENT_MODULE });
    frames.push(page.frame);
    await until(() => elementOf(page)?.state === 'ready', 'ready', 10_000);
    elementOf(page).remove();
    await until(() => page.win.wpwl === undefined, 'the widget was unloaded');
    expect('wpwlOptions' in page.win).to.equal(false);
    expect(page.doc.querySelectorAll('script[src*="/v1/paymentWidgets.js"]')).to.have.length(0);
    expect(page.doc.querySelectorAll('form.paymentWidgets')).to.have.length(0);
    // A single-page app's next checkout, mounted by script, loads normally.
    const next = await createCheckout();
    const element = page.doc.createElement('gw-checkout') as GwCheckout;
    Object.assign(element, { checkoutId: next.id, integrity: next.integrity, baseUrl: next.baseUrl, shopperResultUrl });
    page.doc.body.append(element);
    await until(() => element.state === 'ready', 'the next checkout is ready', 10_000);
    expect(page.doc.querySelectorAll('form.paymentWidgets')).to.have.length(1);
  });

  it('holds a payment pressed before the element runs; once adopted, gw-before-submit decides', async () => {
    const checkout = await createCheckout();
    const page = await renderedPage(checkout);
    frames.push(page.frame);
    await until(() => page.win.gwRenderedCheckout?.events.some(([name]) => name === 'onReady') ?? false, 'the widget is ready', 10_000);
    pay(page.doc, '4200000000000000');
    // Nothing to wait for: the widget asks onBeforeSubmitCard synchronously, on the click.
    expect(page.doc.querySelector<HTMLButtonElement>('.wpwl-button-pay')!.disabled).to.equal(false);
    expect(resources(page, `/checkouts/${checkout.id}/payment`)).to.have.length(0);
    await defineElement(page);
    await until(() => elementOf(page).state === 'ready', 'adopted');
    elementOf(page).addEventListener('gw-before-submit', (event) => event.preventDefault(), { once: true });
    pay(page.doc, '4200000000000000');
    expect(page.win.events).to.deep.equal(['gw-ready', 'gw-before-submit']);
    expect(elementOf(page).state).to.equal('ready');
  });

  it('defined before its markup is parsed (its module loaded first): waits for the rendered form and widget, loads no second one', async () => {
    const checkout = await createCheckout();
    const { html } = renderCheckout(checkout, { baseUrl: checkout.baseUrl, shopperResultUrl });
    const frame = document.createElement('iframe');
    frame.title = 'rendered checkout, streamed';
    frame.srcdoc = '<!doctype html><html lang="en"><head><title>Pay</title></head><body></body></html>';
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.append(frame);
    frames.push(frame);
    await loaded;
    const page = { frame, doc: frame.contentDocument!, win: frame.contentWindow as RenderedPage['win'] };
    await defineElement(page);
    // The page arrives in two parts, as over a network: the element's start tag, then (a task later) everything after it.
    const split = html.indexOf('>') + 1;
    page.doc.open();
    page.doc.write(`<!doctype html><html lang="en"><head><title>Pay</title></head><body>${html.slice(0, split)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(elementOf(page).state, 'waiting for its markup').to.equal('loading');
    page.doc.write(`${html.slice(split)}</body></html>`);
    page.doc.close();
    await until(() => elementOf(page).state === 'ready', 'the element adopted the rendered widget', 10_000);
    expect(page.doc.querySelectorAll('form.paymentWidgets')).to.have.length(1);
    expect([...page.doc.scripts].filter((script) => script.src.includes('paymentWidgets.js'))).to.have.length(1);
  });

  it('given another checkout before it upgrades, unloads the rendered widget and loads its own', async () => {
    const [rendered, other] = [await createCheckout(), await createCheckout()];
    const page = await renderedPage(rendered);
    frames.push(page.frame);
    await until(() => page.win.gwRenderedCheckout?.events.some(([name]) => name === 'onReady') ?? false, 'the widget is ready', 10_000);
    const element = page.doc.querySelector('gw-checkout')!;
    element.setAttribute('checkout-id', other.id);
    element.setAttribute('integrity', other.integrity);
    await defineElement(page);
    await until(() => elementOf(page).state === 'ready', 'the other checkout is ready', 10_000);
    const scripts = [...page.doc.querySelectorAll<HTMLScriptElement>('script[src*="/v1/paymentWidgets.js"]')];
    expect(scripts.map((script) => new URL(script.src).searchParams.get('checkoutId'))).to.deep.equal([other.id]);
    expect(page.doc.querySelectorAll('form.paymentWidgets')).to.have.length(1);
    expect(page.win.events).to.deep.equal(['gw-ready']);
  });

  it('keeps the rendered widget options for every later load: a new checkout id and reload()', async () => {
    const [first, next] = [await createCheckout(), await createCheckout()];
    const page = await renderedPage(first, { elementScript: ELEMENT_MODULE, widgetOptions: { labels: { submit: 'Pay 12.00 EUR' } } });
    frames.push(page.frame);
    await until(() => elementOf(page)?.state === 'ready', 'ready', 10_000);
    expect(payLabel(page)).to.equal('Pay 12.00 EUR');
    const element = elementOf(page);
    Object.assign(element, { checkoutId: next.id, integrity: next.integrity });
    await until(() => element.state === 'loading', 'the next checkout loads');
    await until(() => element.state === 'ready' && payLabel(page) !== undefined, 'the next checkout is ready', 10_000);
    expect(payLabel(page), 'after a new checkout id').to.equal('Pay 12.00 EUR');
    element.reload();
    await until(() => element.state === 'loading', 'reloading');
    await until(() => element.state === 'ready' && payLabel(page) !== undefined, 'ready again', 10_000);
    expect(payLabel(page), 'after reload()').to.equal('Pay 12.00 EUR');
  });

  it("after gw-expired, a new checkout id loads the new checkout: the rendered expires-at was the last checkout's", async () => {
    const [first, next] = [await createCheckout(), await createCheckout()];
    const page = await renderedPage({ ...first, timestamp: expiringIn(2000) } as Checkout, { elementScript: ELEMENT_MODULE });
    frames.push(page.frame);
    await until(() => elementOf(page)?.state === 'expired', 'the first checkout expired', 10_000);
    const element = elementOf(page);
    Object.assign(element, { checkoutId: next.id, integrity: next.integrity });
    await until(() => element.state === 'ready', 'the next checkout is ready', 10_000);
    expect(page.win.events).to.deep.equal(['gw-ready', 'gw-expired', 'gw-ready']);
    expect(element.hasAttribute('expires-at')).to.equal(false);
    expect(element.expiresAt).to.equal(undefined);
  });

  it('a widget script that failed before the element ran: gw-error once, the widget unloaded, no gw-expired later', async () => {
    const checkout = await createCheckout();
    const page = await renderedPage({ ...checkout, integrity: WRONG_INTEGRITY, timestamp: expiringIn(1500) } as Checkout, {
      elementScript: ELEMENT_MODULE,
    });
    frames.push(page.frame);
    await until(() => elementOf(page)?.state === 'error', 'the adopted failure', 10_000);
    await until(() => !('wpwlOptions' in page.win), 'the failed widget was unloaded');
    // Past the rendered deadline: an element that failed has no deadline.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(page.win.events).to.deep.equal(['gw-error']);
    expect(elementOf(page).state).to.equal('error');
  });

  it('a rendered checkout already past its life: expired on arrival, and the widget it loaded unloaded', async () => {
    const checkout = await createCheckout();
    const page = await renderedPage({ ...checkout, timestamp: expiringIn(-60_000) } as Checkout, { elementScript: ELEMENT_MODULE });
    frames.push(page.frame);
    await until(() => elementOf(page)?.state === 'expired', 'expired on arrival', 10_000);
    await until(() => page.win.wpwl === undefined, 'the widget was unloaded');
    expect(['wpwlOptions' in page.win, 'gwRenderedCheckout' in page.win]).to.deep.equal([false, false]);
    expect(page.win.events).to.deep.equal(['gw-expired']);
  });

  it('its markup removed before the element ran (a single-page app changed its view): the next element loads its checkout', async () => {
    const [rendered, next] = [await createCheckout(), await createCheckout()];
    const page = await renderedPage(rendered);
    frames.push(page.frame);
    await until(() => page.win.gwRenderedCheckout?.events.some(([name]) => name === 'onReady') ?? false, 'the widget is ready', 10_000);
    page.doc.querySelector('gw-checkout')!.remove();
    for (const script of page.doc.querySelectorAll('script[data-gw-widget]')) script.remove();
    await defineElement(page);
    const element = page.doc.createElement('gw-checkout') as GwCheckout;
    Object.assign(element, { checkoutId: next.id, integrity: next.integrity, baseUrl: next.baseUrl, shopperResultUrl });
    page.doc.body.append(element);
    await until(() => element.state !== 'loading' && element.state !== 'idle', 'the next checkout settled', 10_000);
    expect(element.state).to.equal('ready');
    expect(page.win.events).to.deep.equal(['gw-ready']);
  });
});
