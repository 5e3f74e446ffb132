/**
 * Reports by order: a capture, refund or reversal given the payment as the
 * caller holds it carries its order's merchantTransactionId (unless the caller
 * gives one), so the order's reference lists its preauthorisation and
 * everything after it. From a bare id it is still one request, never a read
 * first: it carries a fresh reference and is found by its link to the payment.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cardPayment, clientFor, orderId, useSandbox } from '../fixtures.js';

const context = useSandbox();

const summary = (payments: readonly { paymentType?: string; amount?: string; merchantTransactionId?: string }[]) =>
  payments.map((payment) => `${payment.paymentType} ${payment.amount} ${payment.merchantTransactionId}`);

describe('reports by order', () => {
  test("the order's reference finds its PA, captures, refunds and reversals", async () => {
    const { client } = clientFor(context.sandbox);
    const order = orderId('by-order');
    const pa = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '100.00', merchantTransactionId: order }));
    const first = await client.payments.capture(pa, { amount: '60.00', currency: 'EUR' });
    await client.payments.capture(pa, { amount: '30.00', currency: 'EUR' });
    await client.payments.refund(first, { amount: '5.00', currency: 'EUR' });
    const held = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '20.00', merchantTransactionId: order }));
    await client.payments.reverse(held);
    const { payments } = await client.reports.findByMerchantTransactionId(order);
    assert.deepEqual(summary(payments), [
      `PA 100.00 ${order}`,
      `CP 60.00 ${order}`,
      `CP 30.00 ${order}`,
      `RF 5.00 ${order}`,
      `PA 20.00 ${order}`,
      `RV 20.00 ${order}`,
    ]);
  });

  test("the caller's own merchantTransactionId wins; a payment without one gives none to inherit", async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const order = orderId('own');
    const pa = await client.payments.create(cardPayment({ paymentType: 'PA', merchantTransactionId: order }));
    const capture = await client.payments.capture(pa.id, { amount: '10.00', currency: 'EUR', merchantTransactionId: `${order}-capture` });
    assert.equal(capture.merchantTransactionId, `${order}-capture`);
    assert.deepEqual(summary((await client.reports.findByMerchantTransactionId(order)).payments), [`PA 92.00 ${order}`]);
    // With the caller's reference, the order's is never read.
    assert.ok(!recorder.calls.some((call) => call.method === 'GET' && call.url.pathname === `/v3/query/${pa.id}`));
  });

  test('a capture whose answer is lost is reconciled under the order reference: the one new capture, never the PA', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const order = orderId('lost');
    const pa = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '50.00', merchantTransactionId: order }));
    await client.payments.capture(pa, { amount: '10.00', currency: 'EUR' });
    context.sandbox.fault(`/v1/payments/${pa.id}`, 'drop');
    const capture = await client.payments.capture(pa, { amount: '20.00', currency: 'EUR' });
    assert.equal(capture.paymentType, 'CP');
    assert.equal(capture.amount, '20.00');
    assert.equal(capture.merchantTransactionId, order);
    assert.equal(recorder.posts().filter((call) => call.url.pathname === `/v1/payments/${pa.id}`).length, 2, 'each capture sent once');
    assert.deepEqual(summary((await client.reports.findByMerchantTransactionId(order)).payments), [
      `PA 50.00 ${order}`,
      `CP 10.00 ${order}`,
      `CP 20.00 ${order}`,
    ]);
  });

  test('from a bare id: one request each, nothing read first; linked to the order through the payment it references', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const order = orderId('bare');
    const pa = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '50.00', merchantTransactionId: order }));
    const before = recorder.calls.length;
    const capture = await client.payments.capture(pa.id, { amount: '20.00', currency: 'EUR' });
    const refund = await client.payments.refund(capture.id, { amount: '5.00', currency: 'EUR' });
    const sent = recorder.calls.slice(before).map((call) => `${call.method} ${call.url.pathname}`);
    assert.deepEqual(sent, [`POST /v1/payments/${pa.id}`, `POST /v1/payments/${capture.id}`]);
    assert.notEqual(capture.merchantTransactionId, order);
    const linked = [];
    for await (const payment of client.reports.search({ merchantTransactionId: order, includeLinkedTransactions: true }))
      linked.push(payment.id);
    assert.deepEqual(linked, [pa.id, capture.id]);
    assert.equal(refund.referencedId, capture.id);
  });

  test('a capture under its own key: the search by that key, with linked transactions, lists the PA it captured', async () => {
    const { client } = clientFor(context.sandbox);
    const order = orderId('own-key');
    const pa = await client.payments.create(cardPayment({ paymentType: 'PA', merchantTransactionId: order }));
    const capture = await client.payments.capture(pa.id, { amount: '10.00', currency: 'EUR', merchantTransactionId: `${order}-capture` });
    const linked = [];
    for await (const payment of client.reports.search({ merchantTransactionId: `${order}-capture`, includeLinkedTransactions: true }))
      linked.push(payment.id);
    assert.deepEqual(linked, [pa.id, capture.id]);
  });

  test('a reference to a payment that does not exist is still refused by the gateway, not by the look-up', async () => {
    const { client } = clientFor(context.sandbox);
    await assert.rejects(
      client.payments.capture('f'.repeat(32), { amount: '1.00', currency: 'EUR' }),
      (error: Error & { resultCode?: string }) => error.resultCode === '700.400.510',
    );
  });
});
