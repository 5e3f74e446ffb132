/**
 * `fulfilOnce`'s edges beside the shared suite (fulfilment.contract.ts): what
 * it records and on which clock, what the handler is given, and a store that
 * fails after the handler ran (the run is still reported; the handler's own
 * error still reaches its caller). A store wrapper counts and can fail calls.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFulfilment, createMemoryStatusStore, type FulfillablePayment, type StatusStore } from '../../../src/server/index.js';

const T0 = 1_800_000_000_000;
const approved = (id = 'p1'): FulfillablePayment => ({ id, result: { code: '000.100.110', description: 'approved' } });

function wrapped(override: Partial<StatusStore> = {}) {
  const inner = createMemoryStatusStore({ now: () => T0 });
  const claims: { key: string; now: number }[] = [];
  const store: StatusStore = {
    claim: (key, request) => (claims.push({ key, now: request.now }), inner.claim(key, request)),
    settle: override.settle ?? inner.settle,
    renew: inner.renew,
  };
  return { store, inner, claims };
}

describe('fulfilOnce edges', () => {
  test('records when it was fulfilled, on the given clock, under fulfil:{paymentId}', async () => {
    const { store, inner, claims } = wrapped();
    const outcome = await createFulfilment({ store, now: () => T0 }).fulfilOnce(approved('p7'), () => 42);
    assert.deepEqual(outcome, { status: 'fulfilled', result: 42 });
    assert.deepEqual(claims, [{ key: 'fulfil:p7', now: T0 }]);
    assert.equal(await inner.read!('fulfil:p7'), JSON.stringify({ fulfilledAt: new Date(T0).toISOString() }));
  });

  test('without a clock, the system clock', async () => {
    const { store, inner } = wrapped();
    const before = Date.now();
    await createFulfilment({ store }).fulfilOnce(approved(), () => undefined);
    const { fulfilledAt } = JSON.parse((await inner.read!('fulfil:p1'))!) as { fulfilledAt: string };
    assert.ok(Date.parse(fulfilledAt) >= before && Date.parse(fulfilledAt) <= Date.now(), fulfilledAt);
  });

  test("the handler gets the payment and the lease's signal, live", async () => {
    const { store } = wrapped();
    const payment = approved();
    await createFulfilment({ store, now: () => T0 }).fulfilOnce(payment, (given, signal) => {
      assert.equal(given, payment);
      assert.ok(signal instanceof AbortSignal);
      assert.equal(signal.aborted, false);
    });
  });

  test('a store that cannot record the run: the run is still reported fulfilled', async () => {
    const { store } = wrapped({ settle: () => Promise.reject(new Error('store down')) });
    assert.deepEqual(await createFulfilment({ store, now: () => T0 }).fulfilOnce(approved(), () => 'shipped'), {
      status: 'fulfilled',
      result: 'shipped',
    });
  });

  test("a handler that throws while the store is down: the handler's error reaches the caller, not the store's", async () => {
    const { store } = wrapped({ settle: () => Promise.reject(new Error('store down')) });
    await assert.rejects(
      createFulfilment({ store, now: () => T0 }).fulfilOnce(approved(), () => {
        throw new Error('warehouse unreachable');
      }),
      /warehouse unreachable/,
    );
  });

  test('no payment, no result, no code: not approved, and the store is not asked', async () => {
    const { store, claims } = wrapped();
    const fulfilment = createFulfilment({ store, now: () => T0 });
    for (const payment of [undefined, null, { id: 'p2' }, { id: 'p3', result: {} }]) {
      assert.deepEqual(await fulfilment.fulfilOnce(payment as unknown as FulfillablePayment, () => assert.fail('ran')), {
        status: 'not-approved',
      });
    }
    assert.deepEqual(claims, []);
  });
});

describe("only an order's own payment is fulfilled", () => {
  test('a capture, refund, reversal or credit notified for an order runs nothing; a debit, preauthorisation or rebill runs once', async () => {
    const fulfilment = createFulfilment({ store: createMemoryStatusStore() });
    const approved = { code: '000.100.110', description: 'Request successfully processed' };
    let runs = 0;
    const statuses: Record<string, string> = {};
    for (const [index, paymentType] of ['DB', 'PA', 'RB', 'CP', 'RF', 'RV', 'CD', 'rf'].entries()) {
      const payment = { id: `8ac7a4a1700000000000000000000${String(index).padStart(3, '0')}`, result: approved, paymentType };
      statuses[paymentType] = (await fulfilment.fulfilOnce(payment, () => void runs++)).status;
    }
    assert.deepEqual(statuses, {
      DB: 'fulfilled',
      PA: 'fulfilled',
      RB: 'fulfilled',
      CP: 'not-a-purchase',
      RF: 'not-a-purchase',
      RV: 'not-a-purchase',
      CD: 'not-a-purchase',
      rf: 'not-a-purchase',
    });
    assert.equal(runs, 3);
    // A payment whose type the caller did not keep cannot be proved otherwise: it is fulfilled once.
    assert.equal(
      (await fulfilment.fulfilOnce({ id: '8ac7a4a17000000000000000000000ff', result: approved }, () => void runs++)).status,
      'fulfilled',
    );
  });
});

describe('a run after one that never ended is told so', () => {
  test('a claim left by a process that died lapses; the next run has resumed: true, a fresh one false', async () => {
    const clock = { now: T0 };
    const store = createMemoryStatusStore({ claimMs: 10_000, now: () => clock.now });
    const fulfilment = createFulfilment({ store, now: () => clock.now });
    // The process that died: it claimed the payment and never settled.
    await store.claim('fulfil:p9', { token: 'dead', now: clock.now, until: clock.now + 10_000 });
    clock.now += 10_001;
    const seen: boolean[] = [];
    const outcome = await fulfilment.fulfilOnce(approved('p9'), (_payment, _signal, run) => void seen.push(run.resumed));
    assert.equal(outcome.status, 'fulfilled');
    await fulfilment.fulfilOnce(approved('p10'), (_payment, _signal, run) => void seen.push(run.resumed));
    assert.deepEqual(seen, [true, false]);
  });
});
