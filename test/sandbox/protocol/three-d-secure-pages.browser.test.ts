import { expect, fixture } from '@open-wc/testing';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { threeDsPayment } from '../../../src/sandbox/fixtures.js';
import { merchantCall, shopperResultUrl } from '../../support/gateway.js';

/** A pending challenge payment's ACS page, fetched same-origin through the test runner's proxy. */
async function challengePage(): Promise<Document> {
  const { body } = await merchantCall(
    'POST',
    '/v1/payments',
    threeDsPayment(CARDS.challengeNoMethod, shopperResultUrl, { amount: '10.00' }),
  );
  expect(body.result.code).to.equal('000.200.000');
  const form = new URLSearchParams((body.redirect.parameters as { name: string; value: string }[]).map(({ name, value }) => [name, value]));
  const response = await fetch('/__gw/api/v1/threeDSecure/execute', { method: 'POST', body: form });
  expect(response.status).to.equal(200);
  expect(response.headers.get('x-frame-options')).to.equal(null);
  return new DOMParser().parseFromString(await response.text(), 'text/html');
}

describe('the sandbox ACS challenge page', () => {
  it('is a complete document: language, title, a heading and two named buttons', async () => {
    const page = await challengePage();
    expect(page.documentElement.lang).to.equal('en');
    expect(page.title).to.not.equal('');
    expect(page.querySelector('h1')?.textContent).to.not.equal('');
    const buttons = [...page.querySelectorAll('button')].map((button) => button.textContent);
    expect(buttons).to.deep.equal(['Complete authentication', 'Fail authentication']);
    expect(page.querySelector('script')).to.equal(null);
  });

  it('passes the axe accessibility checks', async () => {
    const page = await challengePage();
    const element = await fixture(`<div>${page.querySelector('main')!.outerHTML}</div>`);
    await expect(element).to.be.accessible();
  });
});
