/**
 * <gw-checkout> in single-page apps: re-mounts, React StrictMode's double
 * mount, several elements on one page and shadow roots, against the real
 * widget, which is a page-global singleton.
 */
import { expect, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-checkout/define.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
import { merchantCall } from '../../support/gateway.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { createCheckout, mount, mountReady, pay, settingsFor, until, widgetScripts } from './support.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Counts the listeners alive on window and document: added, minus removed,
 * minus those whose AbortSignal fired (the widget removes its own that way).
 */
function trackGlobalListeners(): { active(): number; restore(): void } {
  const targets = new Set<EventTarget>([window, document]);
  const alive = new Set<string>();
  const ids = new WeakMap<object, number>();
  let next = 0;
  const keyOf = (target: EventTarget, type: string, listener: unknown, options?: boolean | AddEventListenerOptions) => {
    if (!ids.has(listener as object)) ids.set(listener as object, next++);
    const capture = typeof options === 'boolean' ? options : !!options?.capture;
    return `${target === window ? 'window' : 'document'} ${type} ${ids.get(listener as object)} ${capture}`;
  };
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (
    this: EventTarget,
    type: string,
    listener: any,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (targets.has(this) && listener) {
      const key = keyOf(this, type, listener, options);
      const signal = typeof options === 'object' ? options.signal : undefined;
      if (!signal?.aborted) {
        alive.add(key);
        signal?.addEventListener('abort', () => alive.delete(key));
      }
    }
    return add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (
    this: EventTarget,
    type: string,
    listener: any,
    options?: boolean | EventListenerOptions,
  ) {
    if (targets.has(this) && listener) alive.delete(keyOf(this, type, listener, options));
    return remove.call(this, type, listener, options);
  };
  return {
    active: () => alive.size,
    restore() {
      EventTarget.prototype.addEventListener = add;
      EventTarget.prototype.removeEventListener = remove;
    },
  };
}

afterEach(async () => {
  for (const element of document.querySelectorAll('gw-checkout')) element.remove();
  for (const host of document.querySelectorAll('[data-test-host]')) host.remove();
  await nextTask();
});

describe('<gw-checkout> life cycle', () => {
  it('re-mounted 20 times with a new checkout: one script each time, globals restored, no leaked listeners or nodes', async () => {
    const pageOptions = { locale: 'en' };
    (window as any).wpwlOptions = pageOptions;
    const listeners = trackGlobalListeners();
    const sheetsBefore = document.adoptedStyleSheets.length;
    const bodyBefore = document.body.childElementCount;
    try {
      const checkouts = await Promise.all(Array.from({ length: 20 }, () => createCheckout()));
      const baseline = listeners.active();
      for (const checkout of checkouts) {
        const element = await mountReady(settingsFor(checkout));
        const scripts = widgetScripts();
        expect(scripts, 'exactly one widget script while mounted').to.have.length(1);
        expect(new URL(scripts[0]!.src).searchParams.get('checkoutId')).to.equal(checkout.id);
        expect((window as any).wpwl?.checkout?.id ?? checkout.id).to.equal(checkout.id);
        element.remove();
        await nextTask();
        expect(widgetScripts(), 'no script after unmount').to.have.length(0);
        expect((window as any).wpwlOptions, "the page's own wpwlOptions are back").to.equal(pageOptions);
        expect('wpwl' in window, 'wpwl is gone').to.equal(false);
      }
      expect(listeners.active(), 'listeners on window and document').to.equal(baseline);
      expect(document.adoptedStyleSheets.length).to.equal(sheetsBefore);
      expect(document.body.childElementCount).to.equal(bodyBefore);
    } finally {
      listeners.restore();
      delete (window as any).wpwlOptions;
    }
  });

  it('changing checkout-id on a mounted element unloads the old widget and loads the new one', async () => {
    const [first, second] = await Promise.all([createCheckout(), createCheckout()]);
    const element = await mountReady(settingsFor(first!));
    const oldForm = element.querySelector('form.paymentWidgets');
    element.checkoutId = second!.id;
    element.integrity = second!.integrity;
    const ready = await oneEvent(element, 'gw-ready');
    expect(ready.detail.checkoutId).to.equal(second!.id);
    expect(widgetScripts()).to.have.length(1);
    expect(new URL(widgetScripts()[0]!.src).searchParams.get('checkoutId')).to.equal(second!.id);
    expect(oldForm!.isConnected).to.equal(false);
    expect(element.querySelectorAll('form.paymentWidgets')).to.have.length(1);
    expect(element.querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
  });

  it('React StrictMode: connect → disconnect → connect in one task loads exactly one widget', async () => {
    const checkout = await createCheckout();
    const element = document.createElement('gw-checkout') as GwCheckout;
    Object.assign(element, settingsFor(checkout));
    document.body.append(element);
    element.remove();
    document.body.append(element);
    await oneEvent(element, 'gw-ready');
    expect(widgetScripts()).to.have.length(1);
    expect(document.querySelectorAll('form.paymentWidgets')).to.have.length(1);
    expect(document.querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
  });

  it('removed while its script is still loading: the late script is cleaned up before the next checkout loads', async () => {
    const [first, second] = await Promise.all([createCheckout(), createCheckout()]);
    const early = mount(settingsFor(first!));
    await until(() => widgetScripts().length === 1, 'the first script is injected', 2000);
    early.remove();
    const element = await mountReady(settingsFor(second!));
    expect(widgetScripts()).to.have.length(1);
    expect((window as any).wpwl.checkout.id).to.equal(second!.id);
    expect(element.querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
  });

  it('a script given up on (over 10 s) that arrives later never takes the next checkout: that one loads again', async function () {
    this.timeout(45_000);
    const [first, second] = await Promise.all([createCheckout(), createCheckout()]);
    // The first script arrives after the 10 s the next checkout waits for it; the second, injected then, 3 s later still.
    const late = (ms: number) => `${location.origin}/__gw/late/${ms}`;
    const early = mount({ ...settingsFor(first!), baseUrl: late(12_000) });
    await until(() => widgetScripts().length === 1, 'the first script is injected', 2000);
    early.remove();
    const startedAt = performance.now();
    const element = mount({ ...settingsFor(second!), baseUrl: late(3_000) });
    const shown = () => (window as { wpwl?: { checkout?: { id?: string } } }).wpwl?.checkout?.id;
    // Past the first script's arrival, the page shows the second checkout's widget, in this element's form.
    await until(
      () => performance.now() - startedAt > 13_000 && element.state === 'ready' && shown() === second!.id,
      'the second checkout shown',
      40_000,
    );
    expect(widgetScripts()).to.have.length(1);
    expect(document.querySelectorAll('.wpwl-control-cardNumber'), 'one card form').to.have.length(1);
  });

  it('a pay press in a second element showing the same checkout sends nothing while the first one is sending', async () => {
    const checkout = await createCheckout();
    // The sandbox holds the first card submission open.
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'hang', count: '1' });
    const [first, second] = [mount(settingsFor(checkout)), mount(settingsFor(checkout))];
    await until(() => first.state === 'ready' && second.state === 'ready', 'both ready', 8000);
    let asked = 0;
    second.addEventListener('gw-before-submit', () => asked++);
    pay(first, CARDS.approved);
    expect(first.state).to.equal('submitting');
    pay(second, CARDS.approved);
    expect(asked, 'the second press is refused before it is asked about').to.equal(0);
    expect(second.state).to.equal('ready');
    const log = await merchantCall('GET', '/__sandbox/requests');
    const sent = (log.body as { requests: { path: string }[] }).requests.filter(
      (request) => request.path === `/v1/checkouts/${checkout.id}/widget/payments`,
    );
    expect(sent, 'one payment request').to.have.length(1);
  });

  it('two elements with the same checkout share one script, also when the second comes after the first is ready', async () => {
    const checkout = await createCheckout();
    const first = mount(settingsFor(checkout));
    const second = mount(settingsFor(checkout));
    await Promise.all([oneEvent(first, 'gw-ready'), oneEvent(second, 'gw-ready')]);
    expect(widgetScripts()).to.have.length(1);
    const third = mount(settingsFor(checkout));
    await Promise.all([oneEvent(first, 'gw-ready'), oneEvent(third, 'gw-ready')]);
    expect(widgetScripts()).to.have.length(1);
    for (const element of [first, second, third])
      expect(element.querySelectorAll('.wpwl-control-cardNumber'), 'each form rendered once').to.have.length(1);
    first.remove();
    second.remove();
    await nextTask();
    expect(widgetScripts(), 'the last one still uses the widget').to.have.length(1);
    third.remove();
    await nextTask();
    expect(widgetScripts()).to.have.length(0);
  });

  it('an element joining a checkout whose payment is under way is refused, not allowed to reload the widget mid-payment', async () => {
    const checkout = await createCheckout();
    // The sandbox holds this checkout's card submission open, so the first element stays submitting.
    const fault = await merchantCall('POST', '/__sandbox/faults', {
      path: `/v1/checkouts/${checkout.id}/widget/payments`,
      mode: 'hang',
      count: '1',
    });
    expect(fault.status).to.equal(200);
    const paying = await mountReady(settingsFor(checkout));
    pay(paying, CARDS.approved);
    expect(paying.state).to.equal('submitting');
    const joiner = document.createElement('gw-checkout') as GwCheckout;
    Object.assign(joiner, settingsFor(checkout));
    const failed = oneEvent(joiner, 'gw-error');
    document.body.append(joiner);
    const event = await failed;
    expect(event.detail.code).to.equal('widget-error');
    expect(event.detail.message).to.contain('being sent');
    expect(paying.state).to.equal('submitting');
    expect(widgetScripts()).to.have.length(1);
    expect(paying.querySelector<HTMLButtonElement>('.wpwl-button-pay')!.disabled, 'the payment is still under way').to.equal(true);
  });

  it('a second element with another checkout gets a clear gw-error and the first keeps working', async () => {
    const [first, second] = await Promise.all([createCheckout(), createCheckout()]);
    const working = await mountReady(settingsFor(first!));
    const other = document.createElement('gw-checkout') as GwCheckout;
    Object.assign(other, settingsFor(second!));
    const failed = oneEvent(other, 'gw-error');
    document.body.append(other);
    const event = await failed;
    expect(event.detail.code).to.equal('widget-error');
    expect(event.detail.message).to.contain(first!.id);
    expect(other.state).to.equal('error');
    expect(working.state).to.equal('ready');
    expect(widgetScripts()).to.have.length(1);
    expect(working.querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
    await other.updateComplete;
    await expect(other).to.be.accessible();
  });

  it("inside another component's shadow root: refused with a clear gw-error (the widget cannot see shadow roots)", async () => {
    const checkout = await createCheckout();
    const host = document.createElement('div');
    host.dataset.testHost = '';
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open' });
    const element = document.createElement('gw-checkout') as GwCheckout;
    Object.assign(element, settingsFor(checkout));
    const failed = oneEvent(element, 'gw-error');
    root.append(element);
    const event = await failed;
    expect(event.detail.code).to.equal('widget-error');
    expect(event.detail.message).to.contain('shadow root');
    expect(event.composed, 'the error reaches listeners outside the shadow root').to.equal(true);
    expect(element.state).to.equal('error');
    expect(widgetScripts()).to.have.length(0);
    await element.updateComplete;
    await expect(element).to.be.accessible();
  });
});
