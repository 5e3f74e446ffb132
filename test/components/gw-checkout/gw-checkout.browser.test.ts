/**
 * <gw-checkout> in real Chromium against the real sandbox and its real widget
 * script: states, events, errors and the single-page-app life cycle.
 */
import { expect, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-checkout/define.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { merchantCall } from '../../support/gateway.js';
import { createCheckout, mount, mountReady, pay, sandboxUrl, settingsFor, shopperResultUrl, until, widgetScripts } from './support.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(async () => {
  for (const element of document.querySelectorAll('gw-checkout')) element.remove();
  for (const host of document.querySelectorAll('[data-test-host]')) host.remove();
  await nextTask();
});

describe('<gw-checkout> states and events', () => {
  it('is idle and accessible without a checkout id, and loads nothing', async () => {
    const element = mount({ baseUrl: sandboxUrl, shopperResultUrl });
    await element.updateComplete;
    await nextTask();
    expect(element.state).to.equal('idle');
    expect(element.getAttribute('state')).to.equal('idle');
    expect(widgetScripts()).to.have.length(0);
    await expect(element).to.be.accessible();
  });

  it('left without a checkout id, says once on the console what it waits for', async () => {
    const definition = customElements.get('gw-checkout') as unknown as { idleHintMs: number };
    const { idleHintMs } = definition;
    definition.idleHintMs = 30;
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const element = mount({ baseUrl: sandboxUrl, shopperResultUrl });
      await until(() => warnings.length > 0, 'the hint');
      expect(String(warnings[0]![0])).to.match(/^<gw-checkout>: still idle .* checkout-id and integrity/);
      expect(warnings[0]![1]).to.equal(element);
      element.brands = ['VISA'];
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(warnings, 'once per element').to.have.length(1);
    } finally {
      console.warn = warn;
      definition.idleHintMs = idleHintMs;
    }
  });

  it('goes loading (role=status) then ready, firing gw-ready, with the form and script in the light DOM', async () => {
    const checkout = await createCheckout();
    const element = mount(settingsFor(checkout));
    // Listening from the start: the accessibility check below can take longer than the widget takes to load.
    const readied = oneEvent(element, 'gw-ready');
    await nextTask();
    expect(element.state).to.equal('loading');
    expect(element.getAttribute('state')).to.equal('loading');
    await element.updateComplete;
    const status = element.shadowRoot!.querySelector('[role="status"]')!;
    expect(status.textContent).to.contain('Loading the payment form');
    await expect(element).to.be.accessible();

    const ready = await readied;
    expect(ready.detail.checkoutId).to.equal(checkout.id);
    expect(ready.bubbles && ready.composed).to.equal(true);
    expect(element.state).to.equal('ready');

    const scripts = widgetScripts();
    expect(scripts).to.have.length(1);
    const script = scripts[0]!;
    expect(script.parentNode).to.equal(document.head);
    expect(script.integrity).to.equal(checkout.integrity);
    expect(script.crossOrigin).to.equal('anonymous');
    expect(new URL(script.src).searchParams.get('checkoutId')).to.equal(checkout.id);

    const form = document.querySelector('form.paymentWidgets') as HTMLFormElement;
    expect(element.contains(form), "form is the element's light-DOM child").to.equal(true);
    expect(form.action).to.equal(shopperResultUrl);
    expect(form.dataset.brands).to.equal('VISA MASTER');
    expect(form.querySelector('.wpwl-control-cardNumber')).to.be.instanceOf(HTMLInputElement);
    expect(element.shadowRoot!.querySelector('[role="status"]')!.textContent!.trim()).to.equal('');
    await expect(element).to.be.accessible();
  });

  it('asks for the widget script before its own first render (the shopper waits for the widget, not for our chrome)', async () => {
    const checkout = await createCheckout();
    const element = document.createElement('gw-checkout') as GwCheckout;
    Object.assign(element, settingsFor(checkout));
    const renderedWhenInjected: boolean[] = [];
    // The element puts the script into document.head: look at the element at that moment.
    const append = document.head.append;
    document.head.append = (...nodes) => {
      if (nodes.some((node) => node instanceof HTMLScriptElement)) renderedWhenInjected.push(element.hasUpdated);
      append.apply(document.head, nodes);
    };
    try {
      const ready = oneEvent(element, 'gw-ready');
      document.body.append(element);
      await ready;
    } finally {
      delete (document.head as Partial<Pick<HTMLHeadElement, 'append'>>).append;
    }
    expect(renderedWhenInjected).to.deep.equal([false]);
  });

  it('state is read-only', async () => {
    const element = mount({});
    expect(() => ((element as unknown as { state: string }).state = 'ready')).to.throw(TypeError);
    expect(element.state).to.equal('idle');
  });

  it("passes brands, locale and widget-style to the widget, and wraps the page's callbacks without losing them", async () => {
    const checkout = await createCheckout();
    const calls: string[] = [];
    const element = mount({
      ...settingsFor(checkout),
      brands: ['VISA'],
      locale: 'de',
      widgetStyle: 'plain',
      options: { labels: { submit: 'Jetzt zahlen' }, onReady: () => calls.push('user onReady') },
    });
    element.addEventListener('gw-ready', () => calls.push('gw-ready'));
    await oneEvent(element, 'gw-ready');
    expect(calls).to.deep.equal(['user onReady', 'gw-ready']);
    const options = (window as any).wpwlOptions;
    expect(options.locale).to.equal('de');
    expect(options.style).to.equal('plain');
    expect(element.querySelector('.wpwl-button-pay')!.textContent).to.equal('Jetzt zahlen');
    expect(element.querySelector('.wpwl-label-cardNumber')!.textContent).to.equal('Kartennummer');
    expect([...element.querySelectorAll('.wpwl-control-brand option')].map((option) => option.textContent)).to.deep.equal(['VISA']);
  });

  it("the page's own global wpwlOptions stay in effect under the element's, callbacks included, and come back after", async () => {
    const brands: string[] = [];
    const pageOptions = { onChangeBrand: (brand: string) => brands.push(`page ${brand}`) };
    (window as any).wpwlOptions = pageOptions;
    try {
      const checkout = await createCheckout();
      const element = await mountReady(settingsFor(checkout));
      element.addEventListener('gw-brand-change', (event) => brands.push(`event ${event.detail.brand}`));
      const input = element.querySelector<HTMLInputElement>('.wpwl-control-cardNumber')!;
      input.value = CARDS.approvedMaster;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      expect(brands).to.deep.equal(['page MASTER', 'event MASTER']);
      element.remove();
      await nextTask();
      expect((window as any).wpwlOptions).to.equal(pageOptions);
    } finally {
      delete (window as any).wpwlOptions;
    }
  });

  it('an options.onBeforeSubmitCard returning false stops the payment before gw-before-submit', async () => {
    const checkout = await createCheckout();
    let asked = 0;
    const element = await mountReady({ ...settingsFor(checkout), options: { onBeforeSubmitCard: () => (asked++, false) } });
    let fired = false;
    element.addEventListener('gw-before-submit', () => (fired = true));
    pay(element, CARDS.approved);
    expect(asked).to.equal(1);
    expect(fired).to.equal(false);
    expect(element.state).to.equal('ready');
    const status = await merchantCall('GET', `/v1/checkouts/${checkout.id}/payment`);
    expect(status.body.result.code, 'no payment was made').to.equal('000.200.000');
  });

  it('fires gw-brand-change as the card number is typed', async () => {
    const checkout = await createCheckout();
    const element = await mountReady(settingsFor(checkout));
    const input = element.querySelector<HTMLInputElement>('.wpwl-control-cardNumber')!;
    const changed = oneEvent(element, 'gw-brand-change');
    input.value = CARDS.approvedMaster;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const event = await changed;
    expect(event.detail).to.deep.equal({ checkoutId: checkout.id, brand: 'MASTER' });
  });

  it('gw-before-submit cancelled stops the payment: no transaction, still ready', async () => {
    const checkout = await createCheckout();
    const element = await mountReady(settingsFor(checkout));
    const submitting = oneEvent(element, 'gw-before-submit');
    element.addEventListener('gw-before-submit', (event) => event.preventDefault(), { once: true });
    pay(element, CARDS.approved);
    const event = await submitting;
    expect(event.cancelable).to.equal(true);
    expect(event.detail.checkoutId).to.equal(checkout.id);
    expect(event.detail.brand, 'the brand the form preselected, which the widget never reports as changed').to.equal('VISA');
    expect(event.defaultPrevented).to.equal(true);
    expect(element.state).to.equal('ready');
    await nextTask();
    const status = await merchantCall('GET', `/v1/checkouts/${checkout.id}/payment`);
    expect(status.body.result.code, 'no payment was made').to.equal('000.200.000');
  });

  it('a declined card goes submitting → ready again, on the same form', async () => {
    const checkout = await createCheckout();
    const element = await mountReady(settingsFor(checkout));
    const states: string[] = [];
    element.addEventListener('gw-before-submit', () => queueMicrotask(() => states.push(element.state, element.getAttribute('state')!)));
    pay(element, CARDS.declined);
    await until(() => states.length === 2, 'submitted');
    expect(states).to.deep.equal(['submitting', 'submitting']);
    await until(() => element.state === 'ready', 'ready again after the decline');
    expect(element.querySelector('.wpwl-message')!.textContent).to.contain('declined');
    await expect(element).to.be.accessible();
  });
});

describe('<gw-checkout> submitting', () => {
  it('a second press while the payment is being sent sends nothing (onBeforeSubmitCard answers false, no second gw-before-submit)', async () => {
    const checkout = await createCheckout();
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'hang', count: '1' });
    const element = await mountReady(settingsFor(checkout));
    let asked = 0;
    element.addEventListener('gw-before-submit', () => asked++);
    pay(element, CARDS.approved);
    expect(element.state).to.equal('submitting');
    const form = element.querySelector('form.paymentWidgets')!;
    const again = (window as unknown as { wpwlOptions: { onBeforeSubmitCard(event: Event): unknown } }).wpwlOptions.onBeforeSubmitCard(
      Object.defineProperty(new Event('submit'), 'target', { value: form }),
    );
    expect(again).to.equal(false);
    expect(asked).to.equal(1);
  });

  it("with another pay button before the card form's (a saved card's), a card payment stays submitting until its own button is enabled again", async () => {
    const checkout = await createCheckout();
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'hang', count: '1' });
    const element = await mountReady(settingsFor(checkout));
    const area = element.querySelector('.gw-checkout-widget')!;
    const saved = Object.assign(document.createElement('button'), { className: 'wpwl-button wpwl-button-pay', type: 'button' });
    area.prepend(saved);
    const form = area.querySelector('form.paymentWidgets')!;
    const cardButton = form.querySelector<HTMLButtonElement>('.wpwl-button-pay')!;
    pay(form, CARDS.approved);
    await until(() => cardButton.disabled, "the widget disables the card form's button");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(element.state, 'the saved card button, enabled, says nothing about this payment').to.equal('submitting');
    cardButton.disabled = false;
    await until(() => element.state === 'ready', 'ready again once its own button is enabled');
  });
});

describe('<gw-checkout> errors', () => {
  for (const [missing, attribute] of [
    ['baseUrl', 'base-url'],
    ['shopperResultUrl', 'shopper-result-url'],
  ] as const) {
    it(`missing ${attribute}: state error and gw-error missing-attribute naming it, accessible`, async () => {
      const checkout = await createCheckout();
      const settings = { ...settingsFor(checkout), [missing]: undefined };
      const element = document.createElement('gw-checkout');
      Object.assign(element, settings);
      const failed = oneEvent(element, 'gw-error');
      const logged: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => logged.push(args);
      try {
        document.body.append(element);
        await failed;
      } finally {
        console.error = original;
      }
      const event = await failed;
      // The shopper reads "could not be loaded"; the developer reads what is wrong without listening for gw-error.
      expect(logged).to.deep.equal([[`<gw-checkout>: ${event.detail.message}`, element]]);
      expect(event.detail.code).to.equal('missing-attribute');
      expect(event.detail.attribute).to.equal(attribute);
      expect(event.detail.message).to.contain(attribute);
      expect(element.state).to.equal('error');
      expect(widgetScripts()).to.have.length(0);
      await element.updateComplete;
      expect(element.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.contain('could not be loaded');
      await expect(element).to.be.accessible();
    });
  }

  it('missing checkout-id when the page gave the rest of a checkout (integrity): missing-attribute', async () => {
    const checkout = await createCheckout();
    const element = document.createElement('gw-checkout');
    Object.assign(element, { ...settingsFor(checkout), checkoutId: undefined });
    const failed = oneEvent(element, 'gw-error');
    document.body.append(element);
    expect((await failed).detail.attribute).to.equal('checkout-id');
  });

  for (const [property, attribute, value] of [
    ['baseUrl', 'base-url', 'javascript:alert(1)'],
    ['baseUrl', 'base-url', '/relative'],
    // Card data would cross the network in clear: plain http is only for a sandbox on this machine.
    ['baseUrl', 'base-url', 'http://gateway.example'],
    ['shopperResultUrl', 'shopper-result-url', 'javascript:alert(1)'],
  ] as const) {
    it(`${attribute}="${value}" is refused as ${attribute}`, async () => {
      const checkout = await createCheckout();
      const element = document.createElement('gw-checkout');
      Object.assign(element, { ...settingsFor(checkout), [property]: value });
      const failed = oneEvent(element, 'gw-error');
      document.body.append(element);
      expect((await failed).detail.attribute).to.equal(attribute);
      expect(widgetScripts()).to.have.length(0);
    });
  }

  it('a relative shopper-result-url is fine: the form resolves it against the page', async () => {
    const checkout = await createCheckout();
    const element = await mountReady({ ...settingsFor(checkout), shopperResultUrl: '/__gw/result' });
    expect(element.querySelector('form')!.action).to.equal(shopperResultUrl);
  });

  it('a wrong integrity value: the browser refuses the script, script-load-failed', async () => {
    const checkout = await createCheckout();
    const element = document.createElement('gw-checkout');
    Object.assign(element, { ...settingsFor(checkout), integrity: `sha384-${btoa('x'.repeat(48))}` });
    const failed = oneEvent(element, 'gw-error');
    document.body.append(element);
    const event = await failed;
    expect(event.detail.code).to.equal('script-load-failed');
    expect(event.detail.cause).to.be.instanceOf(Event);
    expect(element.state).to.equal('error');
    await nextTask();
    expect(widgetScripts(), 'the refused script is removed').to.have.length(0);
    expect('wpwlOptions' in window).to.equal(false);
    await element.updateComplete;
    await expect(element).to.be.accessible();
  });

  it('an unreachable gateway: script-load-failed, and reload() tries again', async () => {
    const checkout = await createCheckout();
    const element = document.createElement('gw-checkout');
    Object.assign(element, { ...settingsFor(checkout), baseUrl: 'http://127.0.0.1:9' });
    const failed = oneEvent(element, 'gw-error');
    document.body.append(element);
    expect((await failed).detail.code).to.equal('script-load-failed');
    element.baseUrl = sandboxUrl;
    await oneEvent(element, 'gw-ready');
    expect(widgetScripts()).to.have.length(1);
  });

  it('an unknown checkout id: invalid-checkout (and options.onError still hears the widget)', async () => {
    const heard: string[] = [];
    const element = document.createElement('gw-checkout');
    Object.assign(element, {
      checkoutId: 'f'.repeat(32),
      baseUrl: sandboxUrl,
      shopperResultUrl,
      options: { onError: (error: Error) => heard.push(error.name) },
    });
    const failed = oneEvent(element, 'gw-error');
    document.body.append(element);
    const event = await failed;
    expect(event.detail.code).to.equal('invalid-checkout');
    expect((event.detail.cause as Error).name).to.equal('InvalidCheckoutIdError');
    expect(heard).to.deep.equal(['InvalidCheckoutIdError']);
    expect(element.state).to.equal('error');
    await nextTask();
    expect(widgetScripts()).to.have.length(0);
    await element.updateComplete;
    await expect(element).to.be.accessible();
  });

  it('a widget error that echoes a card number reaches gw-error and the console with the digits masked, in any spelling', async () => {
    const element = await mountReady(settingsFor(await createCheckout()));
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(' '));
    try {
      for (const spelling of ['4200000000000000', '4200 0000 0000 0000', '4200-0000-0000-0000']) {
        const failed = oneEvent(element, 'gw-error');
        (window as { wpwlOptions?: { onError?: (error: Error) => void } }).wpwlOptions!.onError!(
          Object.assign(new Error(`card ${spelling} could not be read`), { name: 'PciIframeSubmitError' }),
        );
        const { detail } = await failed;
        const shown = JSON.stringify({ message: detail.message, cause: detail.cause });
        expect(shown).to.not.match(/4200[ -]?0000[ -]?0000[ -]?0000/);
        expect(detail.message).to.contain('card … could not be read');
        expect((detail.cause as Error).name).to.equal('PciIframeSubmitError');
      }
    } finally {
      console.warn = warn;
    }
    expect(warned.join('\n')).to.not.match(/4200[ -]?0000/);
    expect(element.state, 'the widget keeps its form').to.equal('ready');
  });
});

describe('<gw-checkout> expiry', () => {
  it('gw-expired when expires-at passes; the widget is unloaded; accessible', async () => {
    const checkout = await createCheckout();
    const element = await mountReady({ ...settingsFor(checkout), expiresAt: new Date(Date.now() + 60_000) });
    // The end is brought near once the widget shows: set at mount, it could pass before a loaded machine's gw-ready.
    const expiring = oneEvent(element, 'gw-expired');
    element.expiresAt = new Date(Date.now() + 300);
    const expired = await expiring;
    expect(expired.detail.checkoutId).to.equal(checkout.id);
    expect(expired.detail.expiredAt).to.be.instanceOf(Date);
    expect(element.state).to.equal('expired');
    await nextTask();
    expect(widgetScripts()).to.have.length(0);
    expect(element.querySelector('form.paymentWidgets')).to.equal(null);
    await element.updateComplete;
    expect(element.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.contain('expired');
    await expect(element).to.be.accessible();
  });

  it('a payment being sent when expires-at passes is never told it expired, nor loses its widget; back on the form, it expires', async () => {
    const checkout = await createCheckout();
    // The sandbox holds the card submission open: the element stays submitting past its deadline.
    await merchantCall('POST', '/__sandbox/faults', { path: `/v1/checkouts/${checkout.id}/widget/payments`, mode: 'hang', count: '1' });
    const element = await mountReady({ ...settingsFor(checkout), expiresAt: new Date(Date.now() + 60_000) });
    let expired = 0;
    element.addEventListener('gw-expired', () => expired++);
    // The end is brought near once the widget shows, and the card sent in the same task (gw-ready could come late).
    element.expiresAt = new Date(Date.now() + 600);
    pay(element, CARDS.approved);
    expect(element.state).to.equal('submitting');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(expired, 'no gw-expired while the payment is being sent').to.equal(0);
    expect(element.state).to.equal('submitting');
    expect(element.querySelector('form.paymentWidgets'), 'the widget stays').to.not.equal(null);
    expect(widgetScripts()).to.have.length(1);
    // Back on the form (the widget enables its pay button again after a refusal): the deadline has passed.
    element.querySelector<HTMLButtonElement>('.wpwl-button-pay')!.disabled = false;
    await until(() => element.state === 'expired', 'expired once back on the form', 3000);
    expect(expired).to.equal(1);
  });

  it("an expiresAt made in another frame's realm, or given as epoch milliseconds, counts as a Date does", async () => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    try {
      const OtherDate = (frame.contentWindow as unknown as { Date: DateConstructor }).Date;
      for (const expiresAt of [new OtherDate(Date.now() - 1000), Date.now() - 1000]) {
        const checkout = await createCheckout();
        const element = mount({ ...settingsFor(checkout), expiresAt: expiresAt as Date });
        const expired = await oneEvent(element, 'gw-expired');
        expect(expired.detail.checkoutId).to.equal(checkout.id);
        expect(widgetScripts(), 'nothing loaded for a checkout already over').to.have.length(0);
        element.remove();
      }
      // `false` from a template's `cond && date` is no date: the element counts its own 30 minutes and loads.
      const checkout = await createCheckout();
      const element = await mountReady({ ...settingsFor(checkout), expiresAt: false as unknown as Date });
      expect(element.state).to.equal('ready');
      element.remove();
    } finally {
      frame.remove();
    }
  });

  it('an expires-at changed after the widget is ready moves the deadline without reloading the widget', async () => {
    const checkout = await createCheckout();
    const element = await mountReady({ ...settingsFor(checkout), expiresAt: new Date(Date.now() + 10 * 60 * 1000) });
    const script = widgetScripts()[0];
    element.setAttribute('expires-at', String(Date.now() + 20 * 60 * 1000));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(element.state).to.equal('ready');
    expect(widgetScripts(), 'the same widget, not reloaded').to.deep.equal([script]);
    const expired = oneEvent(element, 'gw-expired');
    element.setAttribute('expires-at', String(Date.now() + 200));
    await expired;
    expect(element.state).to.equal('expired');
  });

  it('expires-at as an attribute (ISO 8601) already past: expired at once, nothing loaded', async () => {
    const checkout = await createCheckout();
    const element = document.createElement('gw-checkout') as GwCheckout;
    Object.assign(element, settingsFor(checkout));
    element.setAttribute('expires-at', new Date(Date.now() - 1000).toISOString());
    const expired = oneEvent(element, 'gw-expired');
    document.body.append(element);
    await expired;
    expect(element.state).to.equal('expired');
    expect(widgetScripts()).to.have.length(0);
  });

  it('counts 30 minutes from when it got the id when expires-at is not given (gw-ready tells when)', async () => {
    const checkout = await createCheckout();
    const before = Date.now();
    const element = mount(settingsFor(checkout));
    const ready = await oneEvent(element, 'gw-ready');
    const after = Date.now();
    const deadline = ready.detail.expiresAt.getTime();
    expect(deadline).to.be.within(before + 30 * 60 * 1000, after + 30 * 60 * 1000);
  });

  it('gw-ready reports the expires-at it was given', async () => {
    const checkout = await createCheckout();
    const expiresAt = new Date(Date.now() + 10 * 60 * 1000);
    const ready = await oneEvent(mount({ ...settingsFor(checkout), expiresAt }), 'gw-ready');
    expect(ready.detail.expiresAt.getTime()).to.equal(expiresAt.getTime());
  });
});
