// <gw-3ds-handler> on a page whose Content Security Policy refuses to post forms to the gateway: `method-failed` or
// `challenge-refused`, and nothing more is posted.
// Its own file, because a policy cannot be taken back from a page once it applies.
import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-3ds-handler/define.js';
import type { Gw3dsHandler } from '../../../src/components/gw-3ds-handler/gw-3ds-handler.js';
import type { ThreeDsErrorDetail } from '../../../src/components/gw-3ds-handler/events.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { merchantCall } from '../../support/gateway.js';
import { pendingThreeDsPayment } from '../../support/three-ds.js';

before(() => {
  const policy = document.createElement('meta');
  policy.httpEquiv = 'Content-Security-Policy';
  policy.content = "form-action 'self'";
  document.head.append(policy);
});

afterEach(() => fixtureCleanup());

describe('<gw-3ds-handler> under a Content Security Policy that blocks the gateway', () => {
  it('fails with method-failed when the page refuses the method post, and never posts the challenge', async () => {
    const { body: payment } = await pendingThreeDsPayment(CARDS.challenge);
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler method-timeout="5000"></gw-3ds-handler>`);
    const seen: string[] = [];
    for (const name of ['gw-3ds-method-complete', 'gw-3ds-challenge-start', 'gw-3ds-complete'])
      el.addEventListener(name, () => seen.push(name));
    const error = oneEvent(el, 'gw-error');
    el.redirect = payment.redirect;
    const { detail } = (await error) as CustomEvent<ThreeDsErrorDetail>;
    expect(detail.code).to.equal('method-failed');
    expect(detail.message).to.contain('form-action');
    expect(detail.cause).to.be.instanceOf(SecurityPolicyViolationEvent);
    expect((detail.cause as SecurityPolicyViolationEvent).effectiveDirective).to.equal('form-action');
    expect(el.state).to.equal('error');
    expect(el.shadowRoot!.querySelectorAll('iframe, form')).to.have.length(0);
    expect(seen).to.deep.equal([]);
    const { body } = await merchantCall('GET', '/__sandbox/requests');
    const posted = (body.requests as { path: string; paymentId?: string }[]).filter(
      (entry) => entry.paymentId === payment.id && entry.path.startsWith('/v1/threeDSecure/'),
    );
    expect(posted).to.deep.equal([]);
  });

  it('fails with challenge-refused when the page refuses the challenge post, instead of a blank frame until challenge-timeout', async () => {
    const { body: payment } = await pendingThreeDsPayment(CARDS.challengeNoMethod);
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-timeout="60000"></gw-3ds-handler>`);
    const error = oneEvent(el, 'gw-error');
    el.redirect = payment.redirect;
    const { detail } = (await error) as CustomEvent<ThreeDsErrorDetail>;
    expect(detail.code).to.equal('challenge-refused');
    expect(detail.message).to.contain(new URL(payment.redirect.url).origin);
    expect((detail.cause as SecurityPolicyViolationEvent).effectiveDirective).to.equal('form-action');
    expect(el.state).to.equal('error');
    expect(el.shadowRoot!.querySelectorAll('iframe, form')).to.have.length(0);
  });
});
