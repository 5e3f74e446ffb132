/**
 * <gw-checkout> on pages of their own (iframes of this origin): the widget
 * navigates the document it runs in, and a Content-Security-Policy covers a
 * whole document. Real sandbox, real widget script.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { merchantCall } from '../../support/gateway.js';
import type { GwCheckout } from '../../../src/components/gw-checkout/gw-checkout.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { classifyResult } from '../../../src/contract/result-codes.js';
import {
  createCheckout,
  framePage,
  framePageWithHeaderPolicy,
  mount,
  mountReady,
  pay,
  sandboxUrl,
  settingsFor,
  shopperResultUrl,
  widgetScripts,
} from './support.js';
import '../../../src/components/gw-checkout/define.js';

afterEach(() => {
  for (const frame of document.querySelectorAll('iframe')) frame.remove();
});

describe('<gw-checkout> on a page', () => {
  it('a full payment ends on the shopper result URL with id and resourcePath, and the payment is approved', async () => {
    const checkout = await createCheckout();
    const { frame, doc } = await framePage();
    const element = await mountReady(settingsFor(checkout), doc.querySelector('main')!, doc);
    const events: string[] = [];
    element.addEventListener('gw-before-submit', () => events.push(`gw-before-submit ${element.state}`));
    const navigated = oneEvent(frame, 'load');
    pay(element, CARDS.approved);
    expect(element.state).to.equal('submitting');
    await navigated;
    const landed = new URL(frame.contentWindow!.location.href);
    expect(`${landed.origin}${landed.pathname}`).to.equal(shopperResultUrl);
    expect(landed.searchParams.get('id')).to.equal(checkout.id);
    expect(landed.searchParams.get('resourcePath')).to.equal(`/v1/checkouts/${checkout.id}/payment`);
    expect(events).to.deep.equal(['gw-before-submit ready']);
    const status = await merchantCall('GET', landed.searchParams.get('resourcePath')!);
    expect(classifyResult(status.body.result.code)).to.equal('approved');
    expect(status.body.amount).to.equal('12.00');
  });

  it('sandbox clock: a checkout refused as gone when the shopper pays is never told "expired": the result page reads which', async () => {
    // The clock sandbox: moving the shared sandbox's clock would expire other test files' checkouts.
    const checkout = await createCheckout('clock');
    const { frame, doc } = await framePage();
    const element = await mountReady(settingsFor(checkout), doc.querySelector('main')!, doc);
    expect((await merchantCall('POST', '/__sandbox/clock', { advance: '1801' }, { sandbox: 'clock' })).status).to.equal(200);
    let expired = 0;
    element.addEventListener('gw-expired', () => expired++);
    const refused = oneEvent(element, 'gw-error');
    const navigated = oneEvent(frame, 'load');
    pay(element, CARDS.approved);
    const { detail } = await refused;
    expect(detail.code).to.equal('widget-error');
    expect(detail.checkoutId).to.equal(checkout.id);
    expect((detail.cause as Error).name).to.equal('InvalidCheckoutIdError');
    // The gateway cannot tell "expired" from "already paid" here (another tab may have paid): the element
    // says neither, keeps the widget, and the widget ends on the result page, whose server reads the outcome.
    expect(element.state).to.equal('submitting');
    await navigated;
    expect(expired, 'no gw-expired for a checkout that may be paid').to.equal(0);
    expect(new URL(frame.contentWindow!.location.href).searchParams.get('id')).to.equal(checkout.id);
  });

  it('sandbox clock: a checkout loaded after it expired gives invalid-checkout', async () => {
    const checkout = await createCheckout('clock');
    expect((await merchantCall('POST', '/__sandbox/clock', { advance: '1801' }, { sandbox: 'clock' })).status).to.equal(200);
    const element = mount(settingsFor(checkout));
    const failed = await oneEvent(element, 'gw-error');
    expect(failed.detail.code).to.equal('invalid-checkout');
    expect(element.state).to.equal('error');
    await element.updateComplete;
    await expect(element).to.be.accessible();
    element.remove();
  });

  describe('with a strict Content-Security-Policy', () => {
    const nonce = 'c2NyaXB0LW5vbmNl';
    const policy = () =>
      `default-src 'none'; script-src 'self' 'nonce-${nonce}'; connect-src ${sandboxUrl}; style-src ${sandboxUrl}; img-src data:; form-action 'self'`;
    const head = () => `<meta http-equiv="Content-Security-Policy" content="${policy()}">`;

    it("loads the widget when given the page's nonce (attribute), and pays", async () => {
      const checkout = await createCheckout();
      const { frame, doc } = await framePage(head(), nonce);
      const element = doc.createElement('gw-checkout');
      Object.assign(element, settingsFor(checkout));
      element.setAttribute('nonce', nonce);
      const ready = oneEvent(element, 'gw-ready');
      doc.querySelector('main')!.append(element);
      await ready;
      expect(widgetScripts(doc)[0]!.nonce).to.equal(nonce);
      const navigated = oneEvent(frame, 'load');
      pay(element, CARDS.approved);
      await navigated;
      expect(new URL(frame.contentWindow!.location.href).searchParams.get('id')).to.equal(checkout.id);
    });

    it('with the policy as a header (which hides nonce attributes): the element still passes its nonce on', async () => {
      const checkout = await createCheckout();
      const { doc } = await framePageWithHeaderPolicy(policy(), nonce);
      const holder = doc.createElement('div');
      holder.innerHTML = `<gw-checkout nonce="${nonce}"></gw-checkout>`; // as a server-rendered page writes it
      const element = holder.firstElementChild as GwCheckout;
      Object.assign(element, settingsFor(checkout));
      const ready = oneEvent(element, 'gw-ready');
      doc.querySelector('main')!.append(element);
      await ready;
      expect(element.getAttribute('nonce'), 'the browser hid the attribute').to.equal('');
      expect(widgetScripts(doc)[0]!.nonce).to.equal(nonce);
    });

    it('without the nonce the policy blocks the script: script-load-failed', async () => {
      const checkout = await createCheckout();
      const { doc } = await framePage(head(), nonce);
      const element = mount(settingsFor(checkout), doc.querySelector('main')!, doc);
      const failed = await oneEvent(element, 'gw-error');
      expect(failed.detail.code).to.equal('script-load-failed');
      expect(element.state).to.equal('error');
    });
  });
});
