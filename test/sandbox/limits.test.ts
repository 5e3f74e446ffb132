import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../src/contract/result-codes.js';
import { browserCall, cardPayment, useSandbox } from './support.js';

const handle = useSandbox();
const { call } = handle;

const errorNames = (body: { result: { parameterErrors?: { name: string }[] } }) =>
  (body.result.parameterErrors ?? []).map((error) => error.name).sort();

describe("the API reference's Limits table", () => {
  it('merchantTransactionId is AN..255', async () => {
    assert.equal((await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'x'.repeat(255) }))).status, 200);
    const long = await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'x'.repeat(256) }));
    assert.deepEqual(errorNames(long.body), ['merchantTransactionId']);
  });

  it('CreditSenderName AN..30, CreditSenderAddress AN..35, AdditionalTrace N19', async () => {
    const answer = await call('POST', '/v1/payments', {
      ...cardPayment({ paymentType: 'CD', paymentBrand: 'MASTER', 'card.number': '5454545454545454' }),
      'customParameters[CreditSenderName]': 'n'.repeat(31),
      'customParameters[CreditSenderAddress]': `${'a'.repeat(30)}|b|AUT|1`,
      'customParameters[AdditionalTrace]': '123',
    });
    assert.equal(answer.status, 400);
    for (const name of [
      'customParameters[CreditSenderName]',
      'customParameters[CreditSenderAddress]',
      'customParameters[AdditionalTrace]',
    ]) {
      assert.ok(errorNames(answer.body).includes(name), name);
    }
  });

  it('custom parameters are unlimited in number and all echoed', async () => {
    const custom = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`customParameters[Field${i}]`, `value ${i}`]));
    const answer = await call('POST', '/v1/payments', cardPayment(custom));
    assert.equal(answer.status, 200);
    // All 300 come back (names and values scrubbed of the request's CVV), next to the two the gateway adds (SHOPPER_EndToEndIdentity, CTPE_DESCRIPTOR_TEMPLATE).
    assert.equal(Object.keys(answer.body.customParameters).length, 302);
    assert.equal(answer.body.customParameters.Field299, 'value 299');
  });

  it('the same checkout id loads the widget again and again (reload, back button)', async () => {
    const { body } = await call('POST', '/v1/checkouts', { amount: '5.00', currency: 'EUR', paymentType: 'PA', integrity: 'true' });
    for (let i = 0; i < 3; i++) {
      assert.equal((await fetch(`${handle.sandbox.url}/v1/paymentWidgets.js?checkoutId=${body.id}`)).status, 200);
      const widget = await browserCall(handle.sandbox, 'GET', `/v1/checkouts/${body.id}/widget`);
      assert.equal(widget.status, 200);
      assert.equal(widget.body.checkout.paymentType, 'PA');
    }
  });

  it('a checkout created as PA makes a preauthorisation that can be captured', async () => {
    const { body } = await call('POST', '/v1/checkouts', {
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'PA',
      integrity: 'true',
      merchantTransactionId: 'co-pa',
    });
    const paid = await browserCall(handle.sandbox, 'POST', `/v1/checkouts/${body.id}/widget/payments`, {
      paymentBrand: 'VISA',
      'card.number': '4200000000000000',
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
    });
    const status = await call('GET', `/v1/checkouts/${body.id}/payment`);
    assert.equal(status.body.paymentType, 'PA');
    const capture = await call('POST', `/v1/payments/${paid.body.id}`, { paymentType: 'CP', amount: '5.00', currency: 'EUR' });
    assert.equal(capture.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(capture.body.referencedId, paid.body.id);
  });
});
