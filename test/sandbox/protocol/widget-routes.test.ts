/**
 * What the widget's card form may send with the card (widget-routes.ts): the fields a merchant adds
 * to the form, as the platform's widget submits them (`createRegistration`, `customParameters[…]`),
 * and nothing that changes the money terms: amount, currency, paymentType and entityId come from the
 * checkout alone, and so does every parameter the shop's server created it with. Kept scrubbed.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { classifyResult, RESULT_CODES } from '../../../src/contract/result-codes.js';
import { browserCall, CARDS, useSandbox, widgetCard } from '../support.js';

const handle = useSandbox();
const { call } = handle;

async function createCheckout(extra: Record<string, string> = {}): Promise<string> {
  const answer = await call('POST', '/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...extra });
  assert.equal(answer.body.result.code, RESULT_CODES.checkoutCreated);
  return answer.body.id;
}

/** Pays the checkout from its card form with `added` fields, and reads the status as the shop's server does. */
async function payWith(id: string, added: Record<string, string>) {
  const answer = await browserCall(handle.sandbox, 'POST', `/v1/checkouts/${id}/widget/payments`, {
    ...widgetCard(CARDS.approved),
    ...added,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (await call('GET', `/v1/checkouts/${id}/payment`)).body;
}

beforeEach(() => handle.sandbox.reset());

describe('POST /v1/checkouts/{id}/widget/payments: fields the merchant adds to the card form', () => {
  it('createRegistration=true saves the card; customParameters[…] are kept and echoed', async () => {
    const status = await payWith(await createCheckout(), { createRegistration: 'true', 'customParameters[ORDER_NOTE]': 'gift wrap' });
    assert.match(status.registrationId, /^[0-9a-f]{32}$/);
    assert.equal(status.customParameters.ORDER_NOTE, 'gift wrap');
  });

  it('the widget cannot change the amount: amount, currency, paymentType, entityId and other fields are ignored', async () => {
    const status = await payWith(await createCheckout(), {
      amount: '0.01',
      currency: 'USD',
      paymentType: 'PA',
      entityId: 'ffffffffffffffffffffffffffffffff',
      merchantTransactionId: 'page-made',
      'customer.email': 'page@example.com',
    });
    assert.equal(classifyResult(status.result.code), 'approved');
    assert.deepEqual([status.amount, status.currency, status.paymentType], ['92.00', 'EUR', 'DB']);
    assert.equal(status.merchantTransactionId, undefined);
    assert.equal(status.customer?.email, undefined);
  });

  it("never overrides a parameter the checkout was created with (the shop server's reference, its createRegistration)", async () => {
    const id = await createCheckout({ 'customParameters[GW_REFERENCE]': 'server-ref', createRegistration: 'false' });
    const status = await payWith(id, { 'customParameters[GW_REFERENCE]': 'page-ref', createRegistration: 'true' });
    assert.equal(status.customParameters.GW_REFERENCE, 'server-ref');
    assert.equal(status.registrationId, undefined);
  });

  it('refuses a malformed added field as the gateway does, naming it, and charges nothing', async () => {
    const id = await createCheckout();
    const answer = await browserCall(handle.sandbox, 'POST', `/v1/checkouts/${id}/widget/payments`, {
      ...widgetCard(CARDS.approved),
      createRegistration: 'yes',
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(
      answer.body.result.parameterErrors.map((error: { name: string }) => error.name),
      ['createRegistration'],
    );
    assert.equal((await call('GET', `/v1/checkouts/${id}/payment`)).body.result.code, RESULT_CODES.pending);
  });

  it('keeps a card number or security code sent in a custom parameter out of the status and the request log', async () => {
    const id = await createCheckout();
    const status = await payWith(id, { 'customParameters[CVV]': '987', 'customParameters[note]': `card ${CARDS.approved}` });
    const texts = [JSON.stringify(status), JSON.stringify(handle.sandbox.requests())];
    for (const text of texts) {
      assert.ok(!text.includes(CARDS.approved), 'no whole card number');
      assert.ok(!/\b987\b/.test(text), 'no security code');
    }
    assert.ok(status.customParameters.note.startsWith('card '), 'the rest of the note is kept');
  });
});
