/**
 * createFulfilment on the memory store: the shared suite, then the real paths a
 * payment reaches a merchant by (the shopper's return, a status read, a report
 * look-up) against the sandbox, all keyed by the same payment id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFulfilment, createMemoryStatusStore } from '../../../src/server/index.js';
import { cardPayment, clientFor, orderId, payInWidget, useSandbox } from '../fixtures.js';
import { fulfilmentSuite } from './fulfilment.contract.js';

fulfilmentSuite('memory', (timing) => createMemoryStatusStore(timing));

const context = useSandbox();

test("a checkout payment from the return, a second instance's return, a status read and a reconciliation: fulfilled once", async () => {
  const statusStore = createMemoryStatusStore();
  const [first, second] = [clientFor(context.sandbox, { statusStore }).client, clientFor(context.sandbox, { statusStore }).client];
  const fulfilment = createFulfilment({ store: statusStore });
  const merchantTransactionId = orderId('fulfil');
  const checkout = await first.checkouts.create({ amount: '25.00', currency: 'EUR', paymentType: 'DB', merchantTransactionId });
  await payInWidget(context.sandbox, checkout.id);
  const query = { id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` };
  const [returned, reloaded] = await Promise.all([first.handleShopperReturn(query), second.handleShopperReturn(query)]);
  const [{ payments: [reported] = [] }, read] = await Promise.all([
    first.reports.findByMerchantTransactionId(merchantTransactionId),
    first.payments.get(returned.id),
  ]);
  const shipped: string[] = [];
  const ship = (payment: { id: string }) => shipped.push(payment.id);
  const outcomes = await Promise.all(
    [returned, reloaded, reported!, read, returned].map((payment) => fulfilment.fulfilOnce(payment, ship)),
  );
  assert.deepEqual(shipped, [returned.id]);
  assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
});

test('a server-to-server payment: its create answer and its read are one fulfilment', async () => {
  const { client } = clientFor(context.sandbox);
  const fulfilment = createFulfilment({ store: createMemoryStatusStore() });
  const debit = await client.payments.create(cardPayment());
  let runs = 0;
  await fulfilment.fulfilOnce(debit, () => runs++);
  await fulfilment.fulfilOnce(await client.payments.get(debit.id), () => runs++);
  assert.equal(runs, 1);
});
