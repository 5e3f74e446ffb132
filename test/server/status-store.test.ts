/**
 * The memory status store against the shared contract, and the races of issue 12
 * class 4 against the real sandbox: concurrent shopper returns on one checkout,
 * from one client and from many clients sharing one store. The sandbox's request
 * log is the witness of how many status calls the gateway saw.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  createMemoryStatusStore,
  GatewayThrottledError,
  isApproved,
  RESULT_CODES,
  STATUS_CALLS_PER_MINUTE,
  type StatusStore,
} from '../../src/server/index.js';
import { clientFor, payInWidget, useSandbox } from './fixtures.js';
import { statusStoreContract } from './status-store-contract.js';

let clock = Date.now();
statusStoreContract('memory', {
  store: (options) => createMemoryStatusStore({ ...options, now: () => clock }),
  async advance(ms) {
    clock += ms;
  },
});

describe('the memory store keeps at most maxEntries records', () => {
  test('the least recently written record goes first', async () => {
    const store = createMemoryStatusStore({ maxEntries: 2 });
    const finalOf = async (key: string) => {
      const answer = await store.claim(key, { token: 't', now: 0, until: 1 });
      return answer.status === 'final' ? answer.value : undefined;
    };
    for (const key of ['/a', '/b', '/a', '/c']) store.settle(key, 'writer', { value: key, final: true });
    assert.equal(store.size, 2);
    assert.equal(await finalOf('/a'), '/a');
    assert.equal(await finalOf('/c'), '/c');
    assert.equal(await finalOf('/b'), undefined, '/b was the oldest write');
  });
});

const context = useSandbox();
const returnOf = (checkoutId: string) => ({ id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` });
const statusCalls = (sandbox: Sandbox, checkoutId: string) =>
  sandbox.requests().filter((entry) => entry.method === 'GET' && entry.path === `/v1/checkouts/${checkoutId}/payment`).length;

/** `count` server instances (clients) sharing one store, or one client `count` times. */
function instances(sandbox: Sandbox, count: number, shared: 'one client' | 'many clients', statusStore: StatusStore) {
  const one = clientFor(sandbox, { statusStore }).client;
  return Array.from({ length: count }, () => (shared === 'one client' ? one : clientFor(sandbox, { statusStore }).client));
}

describe('concurrent shopper returns on one checkout (issue 12, class 4)', () => {
  for (const shared of ['one client', 'many clients'] as const) {
    test(`paid, 24 returns at once (${shared}, one memory store): every one gets the approved payment, the gateway saw 1 status call`, async () => {
      const { client } = clientFor(context.sandbox);
      const checkout = await client.checkouts.create({ amount: '25.00', currency: 'EUR', paymentType: 'DB' });
      await payInWidget(context.sandbox, checkout.id);
      const clients = instances(context.sandbox, 24, shared, createMemoryStatusStore());
      const payments = await Promise.all(clients.map((each) => each.handleShopperReturn(returnOf(checkout.id))));
      assert.ok(payments.every((payment) => isApproved(payment.result.code) && payment.id === payments[0]!.id));
      assert.equal(statusCalls(context.sandbox, checkout.id), 1);
      const reload = await clients[3]!.handleShopperReturn(returnOf(checkout.id));
      assert.equal(reload.id, payments[0]!.id);
      assert.equal(statusCalls(context.sandbox, checkout.id), 1, 'a later reload is answered from the store');
    });

    test(`unpaid, 24 returns at once and 24 more (${shared}): at most ${STATUS_CALLS_PER_MINUTE} status calls, the rest pending or throttled, never another error`, async () => {
      const { client } = clientFor(context.sandbox);
      const checkout = await client.checkouts.create({ amount: '25.00', currency: 'EUR', paymentType: 'DB' });
      const clients = instances(context.sandbox, 24, shared, createMemoryStatusStore());
      for (let wave = 0; wave < 2; wave++) {
        const outcomes = await Promise.allSettled(clients.map((each) => each.handleShopperReturn(returnOf(checkout.id))));
        for (const outcome of outcomes) {
          if (outcome.status === 'fulfilled') assert.equal(outcome.value.result.code, RESULT_CODES.pending);
          else {
            assert.ok(outcome.reason instanceof GatewayThrottledError, String(outcome.reason));
            assert.ok(outcome.reason.retryAfterSeconds! >= 1 && outcome.reason.retryAfterSeconds! <= 60);
          }
        }
      }
      assert.ok(statusCalls(context.sandbox, checkout.id) <= STATUS_CALLS_PER_MINUTE, `${statusCalls(context.sandbox, checkout.id)} status calls`);
    });
  }
});
