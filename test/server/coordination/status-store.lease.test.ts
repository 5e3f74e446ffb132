/**
 * `acquire` and its lease (src/server/coordination/status-store.ts) on a mocked
 * clock (node:test mock timers): renewal while the work runs, noticing a lost
 * claim, ending the claim every way, bounded waits that poll on a schedule, a
 * waiter of this process woken when the lease ends, store failures wrapped,
 * and a caller's abort honoured while it waits. No real time passes, so the
 * cases are exact and fast (they run once per mutant under Stryker).
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import {
  acquire,
  guarded,
  STATUS_STORE_DEFAULTS,
  StatusStoreUnavailableError,
  type ClaimRequest,
  type StatusStore,
} from '../../../src/server/coordination/status-store.js';
import { createMemoryStatusStore } from '../../../src/server/coordination/memory-status-store.js';
import { GatewayNetworkError, GatewayThrottledError } from '../../../src/server/index.js';

const T0 = 1_800_000_000_000;
const KEY = 'status:/v1/checkouts/C1/payment';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: T0 }));
afterEach(() => mock.timers.reset());

/** Lets promise callbacks run (the mocked clock stands still meanwhile). */
const flush = async () => {
  for (let index = 0; index < 10; index++) await Promise.resolve();
};
/** Moves the mocked clock `ms` forward in `step`s, running what falls due. */
async function pass(ms: number, step = 1) {
  for (let passed = 0; passed < ms; passed += step) {
    mock.timers.tick(step);
    await flush();
  }
}

/** A memory store on the mocked clock whose calls are recorded; `override` replaces any of them. */
function recorded(timing: StatusStore['timing'], override: Partial<StatusStore> = {}) {
  const inner = createMemoryStatusStore({ now: () => Date.now(), ...timing });
  const calls: { op: string; args: unknown[] }[] = [];
  const store: StatusStore = {
    timing,
    claim: (key, request) => (calls.push({ op: 'claim', args: [key, request] }), (override.claim ?? inner.claim)(key, request)),
    settle: (key, token, settlement) => (
      calls.push({ op: 'settle', args: [key, token, settlement] }),
      (override.settle ?? inner.settle)(key, token, settlement)
    ),
    renew: (key, token, until) => (
      calls.push({ op: 'renew', args: [key, token, until] }),
      (override.renew ?? inner.renew)(key, token, until)
    ),
  };
  return { store, inner, calls, count: (op: string) => calls.filter((call) => call.op === op).length };
}

const rival = (store: StatusStore) => store.claim(KEY, { token: 'rival', now: Date.now(), until: Date.now() + 1 });

describe('a lease is renewed while its work runs', () => {
  test('every third of claimMs, to now + claimMs: another caller finds the key busy long after claimMs', async () => {
    const { store, calls } = recorded({ claimMs: 300 });
    const acquired = await acquire(store, KEY, { now: () => Date.now() });
    assert.equal(acquired.kind, 'lease');
    await pass(99);
    assert.equal(calls.filter((call) => call.op === 'renew').length, 0, 'not before a third of claimMs');
    await pass(1);
    assert.deepEqual(calls.at(-1), { op: 'renew', args: [KEY, (calls[0]!.args[1] as ClaimRequest).token, T0 + 100 + 300] });
    await pass(900, 100);
    assert.equal((await rival(store)).status, 'busy', 'renewed, so still held at 1000 ms with claimMs 300');
    if (acquired.kind === 'lease') await acquired.lease.release();
  });

  test("the first claim asks for claimMs from now (the store's timing, else the default)", async () => {
    for (const [timing, claimMs] of [
      [{ claimMs: 300 }, 300],
      [{ claimMs: undefined }, STATUS_STORE_DEFAULTS.claimMs],
      [undefined, STATUS_STORE_DEFAULTS.claimMs],
    ] as const) {
      const { store, calls } = recorded(timing);
      const acquired = await acquire(store, `${KEY}:${claimMs}`, { now: () => Date.now() });
      const request = calls[0]!.args[1] as ClaimRequest;
      assert.equal(request.now, Date.now());
      assert.equal(request.until, request.now + claimMs);
      assert.equal('limit' in request || 'answerOf' in request, false, 'nothing else asked');
      if (acquired.kind === 'lease') await acquired.lease.release();
    }
  });

  test("a claim that lapsed and was taken aborts the lease's signal; an unreachable store or a held claim does not", async () => {
    for (const [renew, lost] of [
      [() => false, true],
      [() => true, false],
      [() => Promise.reject(new Error('connection refused')), false],
      [
        () => {
          throw new Error('connection refused');
        },
        false,
      ],
    ] as const) {
      const { store } = recorded({ claimMs: 30 }, { renew });
      const acquired = await acquire(store, KEY, { now: () => Date.now() });
      assert.ok(acquired.kind === 'lease');
      await pass(10);
      assert.equal(acquired.lease.signal.aborted, lost);
      if (lost) {
        assert.ok(acquired.lease.signal.reason instanceof StatusStoreUnavailableError);
        assert.match((acquired.lease.signal.reason as Error).message, /The claim on status:\/v1\/checkouts\/C1\/payment lapsed/);
      }
      await acquired.lease.release();
    }
  });

  test("the lease's signal is one signal however often it is read: every reader learns of a lost claim", async () => {
    const { store } = recorded({ claimMs: 30 }, { renew: () => false });
    const acquired = await acquire(store, KEY, { now: () => Date.now() });
    assert.ok(acquired.kind === 'lease');
    const early = acquired.lease.signal;
    assert.equal(acquired.lease.signal, early, 'read twice before the loss');
    await pass(10);
    assert.ok(early.aborted, 'a signal read before the claim was lost is aborted');
    assert.equal(acquired.lease.signal, early);
    await acquired.lease.release();
  });

  for (const [end, settlement] of [
    ['settle', { value: 'answer', final: true }],
    ['release', {}],
    ['unanswered', { unanswered: true }],
  ] as const) {
    test(`${end} ends the claim in the store (${JSON.stringify(settlement)}) and stops renewing`, async () => {
      const { store, calls, count } = recorded({ claimMs: 30 });
      const acquired = await acquire(store, KEY, { now: () => Date.now() });
      assert.ok(acquired.kind === 'lease');
      const { token } = calls[0]!.args[1] as ClaimRequest;
      if (end === 'settle') assert.equal(await acquired.lease.settle('answer', true), 'answer', "the key's final value");
      else await acquired.lease[end]();
      assert.deepEqual(calls.at(-1), { op: 'settle', args: [KEY, token, settlement] });
      await pass(100, 10);
      assert.equal(count('renew'), 0);
      const next = await acquire(store, KEY, { now: () => Date.now() });
      if (end === 'settle') assert.deepEqual(next, { kind: 'value', value: 'answer', final: true });
      else {
        assert.ok(next.kind === 'lease');
        assert.equal(next.unanswered, end === 'unanswered', 'an unanswered end is told to the next holder');
        await next.lease.release();
      }
    });
  }

  test("a granted claim reports the store's start as since, and no unanswered work", async () => {
    const { store } = recorded({});
    const acquired = await acquire(store, KEY, { now: () => Date.now() });
    assert.ok(acquired.kind === 'lease');
    assert.equal(acquired.since, T0);
    assert.equal(acquired.unanswered, false);
    await acquired.lease.release();
  });
});

describe('waiting for another holder', () => {
  test("polls after 5, 10, 20, 40, 80 ms, then every 100 ms, asking for the holder's answer; busy once waitMs ran out", async () => {
    const { store, inner, calls } = recorded({ waitMs: 1000 });
    await inner.claim(KEY, { token: 'holder', now: T0, until: T0 + 60_000 });
    let result: unknown;
    void acquire(store, KEY, { now: () => Date.now() }).then((value) => (result = value));
    await flush();
    await pass(1000);
    await flush();
    const claims = calls.filter((call) => call.op === 'claim').map((call) => (call.args[1] as ClaimRequest).now - T0);
    assert.deepEqual(claims, [0, 5, 15, 35, 75, 155, 255, 355, 455, 555, 655, 755, 855, 955, 1000]);
    assert.deepEqual(
      calls.slice(1).map((call) => (call.args[1] as ClaimRequest).answerOf),
      claims.slice(1).map(() => 'holder'),
    );
    assert.deepEqual(result, { kind: 'busy', until: T0 + 60_000 });
  });

  test('a waiter in this process is woken the moment the lease ends, and takes its answer', async () => {
    const { store } = recorded({ waitMs: 5000 });
    const holder = await acquire(store, KEY, { now: () => Date.now() });
    assert.ok(holder.kind === 'lease');
    let result: unknown;
    void acquire(store, KEY, { now: () => Date.now() }).then((value) => (result = value));
    await pass(300, 10);
    assert.equal(result, undefined, 'still waiting');
    await holder.lease.settle('not yet paid', false);
    await flush();
    assert.deepEqual(result, { kind: 'value', value: 'not yet paid', final: false });
  });

  test('a waiter is woken at once also when the lease is released or ends unanswered, and claims the key itself', async () => {
    for (const end of ['release', 'unanswered'] as const) {
      const { store } = recorded({ waitMs: 5000 });
      const holder = await acquire(store, KEY, { now: () => Date.now() });
      assert.ok(holder.kind === 'lease');
      let result: unknown;
      void acquire(store, KEY, { now: () => Date.now() }).then((value) => (result = value));
      await pass(300, 10);
      await holder.lease[end]();
      await flush();
      assert.ok(result && (result as { kind: string }).kind === 'lease', `${end}: woken without another poll`);
    }
  });

  test('two waiters, one of them aborts: the other is still woken the moment the lease ends', async () => {
    const { store } = recorded({ waitMs: 5000 });
    const holder = await acquire(store, KEY, { now: () => Date.now() });
    assert.ok(holder.kind === 'lease');
    const leaving = new AbortController();
    void acquire(store, KEY, { now: () => Date.now(), signal: leaving.signal }).catch(() => undefined);
    let result: unknown;
    void acquire(store, KEY, { now: () => Date.now() }).then((value) => (result = value));
    await pass(300, 10);
    leaving.abort(new Error('shopper left'));
    await flush();
    await holder.lease.settle('paid', true);
    await flush();
    assert.deepEqual(result, { kind: 'value', value: 'paid', final: true });
  });

  test("a wait that ends leaves no listener on the caller's signal", async () => {
    const { store } = recorded({ waitMs: 5000 });
    const holder = await acquire(store, KEY, { now: () => Date.now() });
    assert.ok(holder.kind === 'lease');
    const signal = new AbortController().signal;
    const waiting = acquire(store, KEY, { now: () => Date.now(), signal });
    await pass(300, 10);
    assert.equal(getEventListeners(signal, 'abort').length, 1, 'listening while it waits');
    await holder.lease.settle('paid', true);
    await waiting;
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });

  test('a store with a claimMs but no waitMs waits the default waitMs, then answers busy', async () => {
    const { store, inner } = recorded({ claimMs: 300 });
    await inner.claim(KEY, { token: 'holder', now: T0, until: T0 + 10 * STATUS_STORE_DEFAULTS.waitMs });
    let result: unknown;
    void acquire(store, KEY, { now: () => Date.now() }).then((value) => (result = value));
    await pass(STATUS_STORE_DEFAULTS.waitMs - 100, 100);
    assert.equal(result, undefined);
    await pass(200, 100);
    assert.deepEqual(result, { kind: 'busy', until: T0 + 10 * STATUS_STORE_DEFAULTS.waitMs });
  });

  test("a used-up limit answers limited with the store's retryAt", async () => {
    const { store } = recorded({});
    const limit = { count: 1, windowMs: 60_000 };
    const first = await acquire(store, KEY, { now: () => Date.now(), limit });
    assert.ok(first.kind === 'lease');
    await first.lease.release();
    assert.deepEqual(await acquire(store, KEY, { now: () => Date.now(), limit }), { kind: 'limited', retryAt: T0 + 60_000 });
  });

  test("a caller's abort before the first claim: nothing asked of the store, a GatewayNetworkError with the reason", async () => {
    const { store, count } = recorded({});
    const error = await acquire(store, KEY, { now: () => Date.now(), signal: AbortSignal.abort(new Error('shopper left')) }).catch(
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof GatewayNetworkError, String(error));
    assert.equal(error.message, 'The wait for the status store was aborted by its caller; nothing was sent');
    assert.equal((error.cause as Error).message, 'shopper left');
    assert.equal(count('claim'), 0);
  });

  test("a caller's abort while waiting ends the wait at once with the reason; no claim after it", async () => {
    const { store, inner, count } = recorded({ waitMs: 5000 });
    await inner.claim(KEY, { token: 'holder', now: T0, until: T0 + 60_000 });
    const controller = new AbortController();
    let outcome: unknown;
    void acquire(store, KEY, { now: () => Date.now(), signal: controller.signal }).catch((error: unknown) => (outcome = error));
    await pass(200, 10);
    const claims = count('claim');
    controller.abort(new Error('shopper left'));
    await flush();
    assert.ok(outcome instanceof GatewayNetworkError, String(outcome));
    assert.equal(outcome.message, 'The wait for the status store was aborted by its caller; nothing was sent');
    assert.equal((outcome.cause as Error).message, 'shopper left');
    await pass(500, 50);
    assert.equal(count('claim'), claims);
  });
});

describe('store failures', () => {
  test('anything a store throws becomes StatusStoreUnavailableError (throttled, retry after 1 s) with the cause; typed errors pass unchanged', async () => {
    const boom = new Error('ECONNRESET');
    for (const fail of [
      () => Promise.reject(boom),
      () => {
        throw boom;
      },
    ]) {
      const error = await guarded(fail).catch((caught: unknown) => caught);
      assert.ok(error instanceof StatusStoreUnavailableError, String(error));
      assert.equal((error.cause as Error).message, 'ECONNRESET');
      assert.equal(error.retryAfterSeconds, 1);
      assert.equal(error.outcome, 'throttled');
      assert.equal(error.name, 'StatusStoreUnavailableError');
      assert.equal(error.message, 'The status store did not answer');
    }
    const typed = new GatewayThrottledError('slow down', {});
    assert.equal(await guarded(() => Promise.reject(typed)).catch((caught: unknown) => caught), typed);
    assert.equal(await guarded(() => 'value'), 'value');
  });

  test("a failing claim fails acquire; a failing settle fails the lease's end, typed", async () => {
    const { store } = recorded({}, { claim: () => Promise.reject(new Error('down')) });
    await assert.rejects(acquire(store, KEY, { now: () => Date.now() }), StatusStoreUnavailableError);
    for (const end of ['settle', 'release', 'unanswered'] as const) {
      const failing = recorded({}, { settle: () => Promise.reject(new Error('down')) });
      const acquired = await acquire(failing.store, KEY, { now: () => Date.now() });
      assert.ok(acquired.kind === 'lease');
      const ending = end === 'settle' ? acquired.lease.settle('x', true) : acquired.lease[end]();
      await assert.rejects(ending, StatusStoreUnavailableError);
    }
  });
});
