/**
 * Both elements' own texts: the built-in English and the imported German and Arabic translations
 * picked by `lang` (the element's, an ancestor's, the document's), a translation imported after the
 * element rendered, partial overrides through `texts`, slots over both, and a right-to-left layout
 * that mirrors and stays accessible. Against the real sandbox.
 */
import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-3ds-handler/define.js';
import '../../../src/components/gw-checkout/define.js';
import '../../../src/translations/checkout/ar.js';
import '../../../src/translations/checkout/de.js';
import '../../../src/translations/3ds-handler/ar.js';
import '../../../src/translations/3ds-handler/de.js';
import type { Gw3dsHandler } from '../../../src/components/gw-3ds-handler/gw-3ds-handler.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { pendingThreeDsPayment, withHangingMethod } from '../../support/three-ds.js';
import { createCheckout, sandboxUrl, settingsFor, shopperResultUrl } from '../gw-checkout/support.js';

afterEach(() => fixtureCleanup());

const part = (el: HTMLElement, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

/** A redirect the handler refuses at once: the `error` state, without the network. */
const unsafeRedirect = { url: 'javascript:void 0', parameters: [] };

async function failed3ds(el: Gw3dsHandler): Promise<string> {
  const error = oneEvent(el, 'gw-error');
  el.redirect = unsafeRedirect;
  await error;
  await el.updateComplete;
  return part(el, 'error')!.textContent!.trim();
}

/** A checkout element whose checkout is already past its expiry: the `expired` state, without loading the widget. */
async function expiredCheckout(el: GwCheckout): Promise<string> {
  const expired = oneEvent(el, 'gw-expired');
  Object.assign(el, { checkoutId: 'any', baseUrl: sandboxUrl, shopperResultUrl, expiresAt: new Date(0) });
  await expired;
  await el.updateComplete;
  return part(el, 'expired')!.textContent!.trim();
}

describe("the elements' texts by language", () => {
  for (const [lang, threeDsError, checkoutExpired] of [
    ['en', 'Your card could not be verified.', 'This payment session has expired.'],
    ['de-CH', 'Ihre Karte konnte nicht geprüft werden.', 'Diese Zahlungssitzung ist abgelaufen.'],
    ['ar-SA', 'تعذّر التحقق من بطاقتك.', 'انتهت صلاحية جلسة الدفع هذه.'],
    ['ja', 'Your card could not be verified.', 'This payment session has expired.'],
  ] as const) {
    it(`speaks ${lang === 'ja' ? 'English for a language with no translation imported (ja)' : lang} under an ancestor's lang`, async () => {
      const wrapper = await fixture(html`<div lang=${lang}><gw-3ds-handler></gw-3ds-handler><gw-checkout></gw-checkout></div>`);
      const handler = wrapper.querySelector('gw-3ds-handler')!;
      expect(await failed3ds(handler)).to.equal(threeDsError);
      expect(part(handler, 'base')!.lang, 'the shadow text says which language it is in').to.equal(lang === 'ja' ? 'en' : lang.slice(0, 2));
      expect(await expiredCheckout(wrapper.querySelector('gw-checkout')!)).to.equal(checkoutExpired);
    });
  }

  it('renders again in a language whose translation the page imports after it rendered', async () => {
    const wrapper = await fixture(html`<div lang="pl"><gw-3ds-handler></gw-3ds-handler><gw-checkout></gw-checkout></div>`);
    const handler = wrapper.querySelector('gw-3ds-handler')!;
    expect(await failed3ds(handler)).to.equal('Your card could not be verified.');
    const checkout = wrapper.querySelector('gw-checkout')!;
    expect(await expiredCheckout(checkout)).to.equal('This payment session has expired.');
    await import('../../../src/translations/3ds-handler/pl.js');
    await handler.updateComplete;
    expect(part(handler, 'error')!.textContent!.trim()).to.equal('Nie udało się zweryfikować Twojej karty.');
    expect(part(handler, 'base')!.lang).to.equal('pl');
    // Only the handler's Polish was imported: the checkout stays English.
    await checkout.updateComplete;
    expect(part(checkout, 'expired')!.textContent!.trim()).to.equal('This payment session has expired.');
    await import('../../../src/translations/checkout/pl.js');
    await checkout.updateComplete;
    expect(part(checkout, 'expired')!.textContent!.trim()).to.equal('Ta sesja płatności wygasła.');
  });

  it("follows its own lang attribute over its ancestors', and re-renders when it changes", async () => {
    const wrapper = await fixture(html`<div lang="de"><gw-3ds-handler lang="ar"></gw-3ds-handler></div>`);
    const el = wrapper.querySelector('gw-3ds-handler')!;
    expect(await failed3ds(el)).to.equal('تعذّر التحقق من بطاقتك.');
    el.removeAttribute('lang');
    await el.updateComplete;
    expect(part(el, 'error')!.textContent!.trim()).to.equal('Ihre Karte konnte nicht geprüft werden.');
  });

  it("falls back to the document's lang inside another component's shadow root without one", async () => {
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    const root = host.attachShadow({ mode: 'open' });
    const before = document.documentElement.lang;
    document.documentElement.lang = 'de';
    try {
      const el = document.createElement('gw-3ds-handler');
      root.append(el);
      expect(await failed3ds(el)).to.equal('Ihre Karte konnte nicht geprüft werden.');
      host.lang = 'ar';
      el.requestUpdate();
      await el.updateComplete;
      expect(part(el, 'error')!.textContent!.trim(), "the shadow host's lang is an ancestor's").to.equal('تعذّر التحقق من بطاقتك.');
    } finally {
      document.documentElement.lang = before;
    }
  });

  it('names its frames in its language', async () => {
    const { body } = await pendingThreeDsPayment(CARDS.challenge);
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler lang="ar" method-timeout="5000"></gw-3ds-handler>`);
    el.redirect = await withHangingMethod(body.redirect);
    await el.updateComplete;
    const method = el.shadowRoot!.querySelector<HTMLIFrameElement>('.method-frames iframe')!;
    expect(method.title).to.equal('التحقق من البطاقة (طريقة 3-D Secure)');
    el.lang = 'en';
    await el.updateComplete;
    expect(method.title).to.equal('Card verification (3-D Secure method)');
    el.cancel();
  });
});

describe("the elements' texts property", () => {
  it("overrides some texts of the element's language, keeps the rest, and ignores what is not a string", async () => {
    const wrapper = await fixture(html`<div lang="ar"><gw-checkout></gw-checkout></div>`);
    const el = wrapper.querySelector('gw-checkout')!;
    el.texts = { expired: 'انتهت الجلسة، ابدأ من جديد.', error: 42 as unknown as string };
    expect(await expiredCheckout(el)).to.equal('انتهت الجلسة، ابدأ من جديد.');
    el.texts = { error: 'Nope' };
    await el.updateComplete;
    expect(part(el, 'expired')!.textContent!.trim(), 'a new texts object renders again').to.equal('انتهت صلاحية جلسة الدفع هذه.');
  });

  it('lets a slot win over its text', async () => {
    const el = await fixture<Gw3dsHandler>(
      html`<gw-3ds-handler .texts=${{ error: 'From texts', timeout: 'Too slow' }}><b slot="error">From the slot</b></gw-3ds-handler>`,
    );
    await failed3ds(el);
    const slot = part(el, 'error')!.querySelector('slot')!;
    expect(slot.assignedElements().map((node) => node.textContent)).to.deep.equal(['From the slot']);
  });

  it('titles the challenge frame from texts.challengeFrame unless label is set', async () => {
    const el = await fixture<Gw3dsHandler>(
      html`<gw-3ds-handler lang="de" .texts=${{ challengeFrame: 'Ihre Bank fragt nach' }}></gw-3ds-handler>`,
    );
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = { url: `${sandboxUrl}/v1/threeDSecure/execute`, parameters: [{ name: 'threeDSSessionData', value: 'unknown' }] };
    await started;
    const frame = el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part~="challenge-frame"]')!;
    expect(frame.title).to.equal('Ihre Bank fragt nach');
    el.texts = undefined;
    await el.updateComplete;
    expect(frame.title).to.equal('Kartenprüfung (3-D Secure)');
    el.label = 'Label wins';
    await el.updateComplete;
    expect(frame.title).to.equal('Label wins');
    el.cancel();
  });
});

describe('the elements right to left', () => {
  it('<gw-3ds-handler>: the spinner sits right of the Arabic text under dir="rtl", accessibly', async () => {
    const { body } = await pendingThreeDsPayment(CARDS.challenge);
    const wrapper = await fixture(html`<div lang="ar" dir="rtl"><gw-3ds-handler method-timeout="5000"></gw-3ds-handler></div>`);
    const el = wrapper.querySelector('gw-3ds-handler')!;
    el.redirect = await withHangingMethod(body.redirect);
    await el.updateComplete;
    // The flow starts after the update that took the redirect, and renders `method` in the next.
    await el.updateComplete;
    const spinner = part(el, 'spinner')!.getBoundingClientRect();
    const text = part(el, 'status')!.querySelector('span:not(.spinner)')!;
    expect(text.textContent).to.equal('جارٍ التحقق من بطاقتك مع البنك…');
    expect(spinner.left).to.be.above(text.getBoundingClientRect().right);
    expect(spinner.right).to.be.closeTo(el.getBoundingClientRect().right, 1);
    await expect(el).to.be.accessible();
    el.cancel();
  });

  it('<gw-checkout lang="ar">: the whole checkout in Arabic, right to left, accessible', async () => {
    const checkout = await createCheckout();
    const wrapper = await fixture(html`<div dir="rtl" style="inline-size: 30rem"><gw-checkout lang="ar"></gw-checkout></div>`);
    const el = wrapper.querySelector('gw-checkout')!;
    const loading = oneEvent(el, 'gw-ready');
    Object.assign(el, settingsFor(checkout));
    await el.updateComplete;
    await loading;
    const form = el.querySelector('form')!;
    expect(form.lang, "the element's lang is the widget's locale").to.equal('ar');
    expect(form.dir).to.equal('rtl');
    expect(el.querySelector('.wpwl-button-pay')!.textContent).to.equal('ادفع الآن');
    const button = el.querySelector('.wpwl-button-pay')!.getBoundingClientRect();
    expect(button.right, 'the pay button starts on the right').to.be.closeTo(form.getBoundingClientRect().right, 20);
    await expect(el).to.be.accessible();
  });

  it('<gw-checkout>: an explicit locale wins over lang', async () => {
    const checkout = await createCheckout();
    const el = await fixture<GwCheckout>(html`<gw-checkout lang="ar" locale="de"></gw-checkout>`);
    const ready = oneEvent(el, 'gw-ready');
    Object.assign(el, settingsFor(checkout));
    await ready;
    expect(el.querySelector('form')!.lang).to.equal('de');
    expect(el.querySelector('form')!.dir).to.equal('ltr');
  });

  it('<gw-checkout>: the error alert mirrors under dir="rtl"', async () => {
    const wrapper = await fixture(
      html`<div lang="ar" dir="rtl" style="inline-size: 30rem"><gw-checkout checkout-id="x"></gw-checkout></div>`,
    );
    const el = wrapper.querySelector('gw-checkout')!;
    await el.updateComplete;
    expect(el.state, 'no base-url').to.equal('error');
    const alert = part(el, 'error')!;
    expect(alert.textContent!.trim()).to.equal('تعذّر تحميل نموذج الدفع.');
    const range = document.createRange();
    range.selectNodeContents(alert.querySelector('slot')!);
    expect(range.getBoundingClientRect().right, 'the text starts on the right').to.be.above(alert.getBoundingClientRect().right - 30);
    await expect(el).to.be.accessible();
  });
});
