// End to end: the server helper creates a 3DS payment against the sandbox, the page hands `redirect` to
// <gw-3ds-handler>, the shopper completes the challenge, and the server reads the payment approved.
import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import { sandboxUrl } from '/__gw/sandbox.js';
import '../../../src/components/gw-3ds-handler/define.js';
import type { Gw3dsHandler } from '../../../src/components/gw-3ds-handler/gw-3ds-handler.js';
import { classifyResult } from '../../../src/contract/result-codes.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { shopperResultUrl } from '../../support/gateway.js';
import { clickInFrame, serverPayment } from '../../support/three-ds.js';

afterEach(() => fixtureCleanup());

describe('<gw-3ds-handler> end to end with the server helper', () => {
  it('server creates the payment, the shopper completes the challenge, the server reads it approved', async () => {
    const created = await serverPayment({
      action: 'create',
      request: {
        amount: '49.90',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'VISA',
        card: {
          number: CARDS.challenge,
          holder: 'Jane Jones',
          expiryMonth: '12',
          expiryYear: String(new Date().getFullYear() + 2),
          cvv: '123',
        },
        customer: { email: 'jane@example.com', ip: '192.0.2.10', browser: { challengeWindow: '03' } },
        billing: { street1: '1 Main Street', city: 'Vienna', country: 'AT', postcode: '1010' },
        shopperResultUrl,
      },
    });
    expect(created.result.code).to.equal('000.200.000');
    expect(created.redirect.preconditions).to.have.length(1);

    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-window="03"></gw-3ds-handler>`);
    const method = oneEvent(el, 'gw-3ds-method-complete');
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = created.redirect;
    expect((await method).detail.timedOut).to.equal(false);
    expect((await started).detail.challengeWindow).to.equal('03');
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(
      `${sandboxUrl}/v1/threeDSecure/execute`,
      'Complete authentication',
      el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part~="challenge-frame"]')!.name,
    );
    const { detail } = await complete;
    expect(detail.id).to.equal(created.id);

    // What the merchant's server does with the detail (the README's recipe): handle the shopper's return, which checks
    // resourcePath and reads the payment; the page's word is never the outcome.
    const returned = await serverPayment({ action: 'return', query: { id: detail.id, resourcePath: detail.resourcePath } });
    expect(returned.id).to.equal(created.id);
    expect(returned.amount).to.equal('49.90');
    expect(classifyResult(returned.result.code)).to.equal('approved');
    const read = await serverPayment({ action: 'get', id: created.id });
    expect(classifyResult(read.result.code)).to.equal('approved');
  });
});
