/**
 * The README's report search example (docs/examples/server/reconciliation.ts)
 * runs here against the real sandbox, so it stays correct and type-checked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayTotals } from '../../docs/examples/server/reconciliation.js';
import { reportDate } from '../../src/contract/report-filters.js';
import { CARDS, card, cardPayment, clientFor, useSandbox } from '../server/fixtures.js';

const context = useSandbox();

test("dayTotals sums the day's approved debits, captures and refunds per type and currency", async () => {
  context.sandbox.reset();
  const { client } = clientFor(context.sandbox);
  // Yesterday's debit is outside the day searched.
  await client.payments.create(cardPayment({ amount: '7.00' }));
  context.sandbox.clock.advance(24 * 3600);
  const day = reportDate(context.sandbox.clock.now()).slice(0, 10);
  const debit = await client.payments.create(cardPayment({ amount: '10.00' }));
  await client.payments.create(cardPayment({ amount: '3.00', card: card(CARDS.declined) })).catch(() => undefined);
  const pa = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '8.00' }));
  await client.payments.capture(pa.id, { amount: '5.00', currency: 'EUR' });
  await client.payments.refund(debit.id, { amount: '2.50', currency: 'EUR' });
  await client.payments.create(cardPayment({ amount: '4.00', currency: 'USD' }));
  assert.deepEqual(await dayTotals(client, day), { 'DB EUR': 1000, 'DB USD': 400, 'CP EUR': 500, 'RF EUR': 250 });
});
