/**
 * A read answered with a success that names no transaction (no `id`): here the
 * answer to a report search (`000.000.100`, a `payments` list), as a proxy or
 * cache that mixed answers up would hand it over. It is no answer to the read:
 * `payments.get`, `reports.get` and a checkout's status read throw it as a lost
 * answer, and the shopper return neither tells the shop "approved" nor keeps it
 * as the final answer. `payments.create` treats the same shape alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError, GatewayNetworkError, StatusUnknownError, type Payment } from '../../src/server/index.js';
import { answer, ENTITY, PAYMENT_ID, standInClient } from '../support/gateway-stand-in.js';

const CHECKOUT_ID = 'ABCE449B5FC84ED5A1C7174840C7A3F8.uat01-vm-tx03';

/** What /v3/query answers a search: its own result `000.000.100` (an approved code) and a list. */
const reportAnswer = () =>
  answer('000.000.100', {
    ndc: `${ENTITY}_${'1'.repeat(32)}`,
    payments: [
      {
        id: '8ac7a4a17000000000000000000000bb',
        paymentType: 'DB',
        amount: '1.00',
        currency: 'EUR',
        result: { code: '000.100.110', description: 'x' },
      },
    ],
  });

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

const unnamed = (result: { value: unknown } | { error: unknown }) => {
  assert.ok('error' in result, `returned ${JSON.stringify((result as { value?: Payment }).value)}`);
  return result.error;
};

test('payments.get and reports.get: an approval naming no payment is a lost answer, not the payment read', async () => {
  const { client } = standInClient(() => ({ status: 200, body: reportAnswer() }));
  for (const read of [client.payments.get(PAYMENT_ID), client.reports.get(PAYMENT_ID)]) {
    const error = unnamed(await outcome(read));
    assert.ok(error instanceof GatewayNetworkError, String(error));
    assert.match(error.message, /names no transaction \(000\.000\.100 without an id\)/);
  }
});

test("a checkout's status read: an approval naming nothing is a lost answer; a pending one (not paid yet) is the answer", async () => {
  const { client } = standInClient(() => ({ status: 200, body: { ...reportAnswer(), ndc: CHECKOUT_ID } }));
  assert.ok(unnamed(await outcome(client.checkouts.getPayment(CHECKOUT_ID))) instanceof GatewayNetworkError);
  const open = answer('000.200.000', { ndc: CHECKOUT_ID });
  const { client: waiting } = standInClient(() => ({ status: 200, body: open }));
  assert.equal((await waiting.checkouts.getPayment(CHECKOUT_ID)).result.code, '000.200.000');
});

test('handleShopperReturn after 3-D Secure: never an approval for a read answered with what names no payment', async () => {
  const { client } = standInClient(() => ({ status: 200, body: reportAnswer() }));
  const query = { id: PAYMENT_ID, resourcePath: `/v1/payments/${PAYMENT_ID}` };
  const error = unnamed(await outcome(client.handleShopperReturn(query)));
  assert.ok(error instanceof StatusUnknownError, String(error));
});

test('handleShopperReturn: such an answer is not kept, so the next return reads the payment as it is', async () => {
  let mixedUp = true;
  const { client, calls } = standInClient(() => {
    if (mixedUp) return { status: 200, body: reportAnswer() };
    return { status: 200, body: answer('800.100.152', { id: PAYMENT_ID, paymentType: 'DB', amount: '92.00', currency: 'EUR' }) };
  });
  const query = { id: PAYMENT_ID, resourcePath: `/v1/payments/${PAYMENT_ID}` };
  await client.handleShopperReturn(query).catch(() => undefined);
  mixedUp = false;
  const reads = calls.length;
  const error = unnamed(await outcome(client.handleShopperReturn(query)));
  assert.ok(calls.length > reads, 'the second return sent no read: it answered the kept approval');
  assert.ok(error instanceof GatewayError && error.resultCode === '800.100.152', String(error));
});
