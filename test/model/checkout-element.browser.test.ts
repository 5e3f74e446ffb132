/**
 * `<gw-checkout>` in a single-page app, against the model in `checkout-element-model.ts`: two elements of
 * this test page, reused across mounts, over three checkouts, with the page's own `wpwlOptions` to put back.
 */
import { expect } from '@open-wc/testing';
import { appPage, ran, runModel } from './checkout-element-model.js';

describe('<gw-checkout> model', () => {
  it('a single-page app: one widget, every payment being sent kept, states and events true, whatever the page does', async function () {
    this.timeout(300_000);
    ran.clear();
    await runModel(async () => appPage(), 50);
    // About a dozen of each in 50 runs: none would mean the runs never reached a payment, and proved nothing of it.
    const reached = JSON.stringify(Object.fromEntries(ran));
    expect(ran.get('payHeldOpen') ?? 0, reached).to.be.at.least(1);
    expect(ran.get('payDeclined') ?? 0, reached).to.be.at.least(1);
    expect(ran.get('payWallet') ?? 0, reached).to.be.at.least(1);
  });
});
