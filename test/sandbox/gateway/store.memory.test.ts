import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { browserCall, cardPayment, CARDS, formFields, postForm, threeDsFields, useSandbox, widgetCard } from '../support.js';

const handle = useSandbox({ limits: { checkouts: 5, payments: 5, registrations: 2, logEntries: 7 } });
const { call } = handle;

const checkout = async (extra: Record<string, string> = {}) =>
  (await call('POST', '/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true', ...extra })).body
    .id as string;

const widgetPayment = (checkoutId: string, number: string) =>
  browserCall(handle.sandbox, 'POST', `/v1/checkouts/${checkoutId}/widget/payments`, widgetCard(number));

describe('bounded memory', () => {
  it('keeps at most the configured number of checkouts, payments, registrations and logged requests, dropping the oldest', async () => {
    const checkouts: string[] = [];
    for (let i = 0; i < 8; i++) checkouts.push(await checkout());
    const payments: string[] = [];
    for (let i = 0; i < 8; i++)
      payments.push(
        (await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: `mem-${i}`, createRegistration: 'true' }))).body.id,
      );
    const stats = handle.sandbox.stats();
    assert.deepEqual(
      { checkouts: stats.checkouts, payments: stats.payments, registrations: stats.registrations, requests: stats.requests },
      { checkouts: 5, payments: 5, registrations: 2, requests: 7 },
    );
    assert.equal(
      (await browserCall(handle.sandbox, 'GET', `/v1/checkouts/${checkouts[0]}/widget`)).status,
      400,
      'the oldest checkout is gone',
    );
    assert.equal((await browserCall(handle.sandbox, 'GET', `/v1/checkouts/${checkouts[7]}/widget`)).status, 200);
    assert.equal((await call('GET', `/v1/payments/${payments[0]}`)).body.result.code, RESULT_CODES.transactionNotFound);
    assert.equal(
      (await call('GET', '/v3/query', { merchantTransactionId: 'mem-0' })).body.result.code,
      RESULT_CODES.transactionNotFound,
      'the report index forgets dropped payments',
    );
    assert.equal((await call('GET', '/v3/query', { merchantTransactionId: 'mem-7' })).body.payments.length, 1);
  });

  it('a checkout is paid once after the payment that paid it is dropped for room: the checkout goes with it', async () => {
    handle.sandbox.reset();
    const id = await checkout();
    assert.equal((await widgetPayment(id, CARDS.approved)).body.result.code, RESULT_CODES.approvedIntegratorTest);
    for (let i = 0; i < 5; i++) await call('POST', '/v1/payments', cardPayment());
    const again = await widgetPayment(id, CARDS.approved);
    assert.equal(again.status, 400, 'no second payment');
    assert.equal((await call('GET', `/v1/checkouts/${id}/payment`)).status, 400, 'the checkout is gone with its payment');
  });

  it('an attempt waiting for its challenge when another paid the checkout is refused, though the checkout was dropped for room', async () => {
    handle.sandbox.reset();
    const id = await checkout(threeDsFields());
    const late = await widgetPayment(id, CARDS.challengeNoMethod);
    assert.equal(late.body.result.code, RESULT_CODES.pending);
    assert.equal((await widgetPayment(id, CARDS.approved)).body.result.code, RESULT_CODES.approvedIntegratorTest);
    for (let i = 0; i < 5; i++) await checkout();
    const acs = await postForm(late.body.redirect.url, late.body.redirect.parameters);
    const fields = Object.entries(formFields(await acs.text())).map(([name, value]) => ({ name, value }));
    await postForm(`${handle.sandbox.url}/v1/threeDSecure/challenge`, [...fields, { name: 'outcome', value: 'complete' }]);
    assert.equal((await call('GET', `/v1/payments/${late.body.id}`)).body.result.code, RESULT_CODES.duplicateTransaction);
  });

  it('sweeps expired checkouts when the clock moves', async () => {
    handle.sandbox.reset();
    await checkout();
    await checkout();
    assert.equal(handle.sandbox.stats().checkouts, 2);
    handle.sandbox.clock.advance(30 * 60);
    assert.equal(handle.sandbox.stats().checkouts, 0);
  });
});
