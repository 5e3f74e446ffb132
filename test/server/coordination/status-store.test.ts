/**
 * The memory status store against the shared contract, and the races of issue 12
 * class 4 against the real sandbox: concurrent shopper returns on one checkout,
 * from one client and from many clients sharing one store. The sandbox's request
 * log is the witness of how many status calls the gateway saw.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.js';
import {
  createMemoryStatusStore,
  STATUS_STORE_DEFAULTS,
  StatusStoreUnavailableError,
  GatewayThrottledError,
  isApproved,
  RESULT_CODES,
  STATUS_CALLS_PER_MINUTE,
  type StatusStore,
} from '../../../src/server/index.js';
import { clientFor, payInWidget, useSandbox } from '../fixtures.js';
import { statusStoreContract } from './status-store.contract.js';

let clock = Date.now();
statusStoreContract('memory', {
  store: (options) => createMemoryStatusStore({ ...options, now: () => clock }),
  async advance(ms) {
    clock += ms;
  },
});

describe('the memory store is bounded in bytes (issue 19, class 1)', () => {
  const T = 1_800_000_000_000;
  test('a flood of claims is refused (throttled, typed) at maxBytes; final values are never dropped and are still answered', async () => {
    let now = T;
    const store = createMemoryStatusStore({ maxBytes: 20_000, now: () => now });
    const paid = JSON.stringify({ id: 'paid', result: { code: '000.100.110' } });
    store.settle('status:/paid', 'reader', { value: paid, final: true });
    let refused = 0;
    for (let index = 0; index < 5050; index++) {
      const answer = await (async () =>
        store.claim(`status:/v1/checkouts/${index}/payment`, {
          token: 't',
          now,
          until: now + 10_000,
          limit: { count: 2, windowMs: 60_000 },
        }))().catch((error: unknown) => error);
      if (answer instanceof StatusStoreUnavailableError) {
        refused++;
        assert.equal(answer.outcome, 'throttled');
        assert.ok(answer.retryAfterSeconds! >= 1);
      }
    }
    assert.ok(refused > 4800, `${refused} refused`);
    assert.ok(store.usage.bytes <= 20_000, `${store.usage.bytes} bytes`);
    assert.deepEqual(await store.claim('status:/paid', { token: 'x', now, until: now + 1 }), { status: 'final', value: paid });
    // Claims without an answer expire after transientMs; then there is room again, and the final is still there.
    now += STATUS_STORE_DEFAULTS.transientMs + 20_000;
    assert.equal((await store.claim('status:/new', { token: 'y', now, until: now + 10_000 })).status, 'claimed');
    assert.equal(await store.read!('status:/paid'), paid);
    assert.equal(store.usage.keptBytes > 0, true);
  });

  test('a final value lives its whole ttlMs, whatever was written after it', async () => {
    let now = T;
    const store = createMemoryStatusStore({ maxBytes: 5000, ttlMs: 60_000, now: () => now });
    store.settle('fulfil:p1', 'w', { value: 'done', final: true });
    for (let index = 0; index < 100; index++) store.settle(`fulfil:p${index + 2}`, 'w', { value: 'done', final: true });
    now += 59_999;
    assert.equal(await store.read!('fulfil:p1'), 'done');
    now += 1;
    assert.equal(await store.read!('fulfil:p1'), undefined);
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
      assert.ok(
        statusCalls(context.sandbox, checkout.id) <= STATUS_CALLS_PER_MINUTE,
        `${statusCalls(context.sandbox, checkout.id)} status calls`,
      );
    });
  }
});
