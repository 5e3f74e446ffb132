import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sandboxUrl } from '/__gw/sandbox.js';
import '../../../src/components/three-ds/define.js';
import type { Gw3dsHandler } from '../../../src/components/three-ds/gw-3ds-handler.js';
import { CARDS } from '../../../src/sandbox/triggers.js';
import { merchantCall } from '../../support/gateway.js';
import { clickInFrame, pendingThreeDsPayment } from '../../support/three-ds.js';

const ACS = `${sandboxUrl}/v1/threeDSecure/execute`;

describe('<gw-3ds-handler>', () => {
  it('runs the method, then the challenge, and reports the shopper back', async () => {
    const { body: payment } = await pendingThreeDsPayment(CARDS.challenge);
    console.log(JSON.stringify(payment.redirect));
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler method-timeout="3000"></gw-3ds-handler>`);
    const method = oneEvent(el, 'gw-3ds-method-complete');
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    expect((await method).detail).to.deep.equal({ timedOut: false });
    console.log("method ok"); await started; console.log("challenge", el.shadowRoot!.innerHTML);
    const complete = oneEvent(el, 'gw-3ds-complete');
    console.log(await clickInFrame(ACS, "Complete authentication"));
    const { detail } = await complete;
    expect(detail.id).to.equal(payment.id);
    const status = await merchantCall('GET', `/v1/payments/${payment.id}`);
    expect(status.body.result.code).to.equal('000.100.110');
    void ACS;
  });
});
