// <gw-3ds-handler> on a page whose Content Security Policy refuses something else of the gateway's host (an image):
// the violation is none of the flow's, and a running challenge goes on.
// Its own file, because a policy cannot be taken back from a page once it applies.
import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-3ds-handler/define.js';
import type { Gw3dsHandler } from '../../../src/components/gw-3ds-handler/gw-3ds-handler.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { sandboxUrl } from '../../support/gateway.js';
import { pendingThreeDsPayment } from '../../support/three-ds.js';

before(() => {
  const policy = document.createElement('meta');
  policy.httpEquiv = 'Content-Security-Policy';
  // Forms and frames may go to the gateway; images only to this page's origin.
  policy.content = "img-src 'self'";
  document.head.append(policy);
});

afterEach(() => fixtureCleanup());

describe('<gw-3ds-handler> under a Content Security Policy that refuses an image of the gateway host', () => {
  it('keeps a running challenge: only a refused post or frame ends the flow', async () => {
    const { body: payment } = await pendingThreeDsPayment(CARDS.challengeNoMethod);
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-timeout="60000"></gw-3ds-handler>`);
    const errors: string[] = [];
    el.addEventListener('gw-error', (event) => errors.push((event as CustomEvent<{ code: string }>).detail.code));
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    const frame = el.shadowRoot!.querySelector('iframe')!;
    // Somewhere else on the page, an image from the gateway host (a brand logo), refused by img-src.
    const refused = new Promise<SecurityPolicyViolationEvent>((resolve) =>
      document.addEventListener('securitypolicyviolation', resolve as EventListener, { once: true }),
    );
    const image = document.createElement('img');
    image.src = `${sandboxUrl}/brand-logo.png`;
    document.body.append(image);
    expect((await refused).effectiveDirective).to.equal('img-src');
    await new Promise((resolve) => setTimeout(resolve, 300));
    image.remove();
    expect(errors).to.deep.equal([]);
    expect(el.state).to.equal('challenge');
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(frame);
  });
});
