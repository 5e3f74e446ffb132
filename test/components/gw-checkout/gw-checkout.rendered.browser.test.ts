/**
 * A checkout the merchant's server rendered (`renderCheckout`): the widget
 * loads from the page's HTML, before `<gw-checkout>`'s code, which the page
 * loads once the widget is ready and which then adopts the form, the script and
 * what the widget reported, keeping its states, events and clean-up. Each page
 * is an about:srcdoc frame, so the HTML is parsed as a server would send it.
 */
import { expect } from '@open-wc/testing';
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
});
