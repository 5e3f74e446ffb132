/**
 * The StatusStore contract (README "The status store contract"), as one suite
 * every implementation runs: the memory store here in test/server, the Redis
 * store in test/redis against a real redis-server. Each test uses fresh keys.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { acquire, type StatusStore } from '../../../src/server/coordination/status-store.js';

export interface ContractSubject {
  /** A store whose records expire after `ttlMs` (default: the store's own). */
  store(options?: { ttlMs?: number; waitMs?: number; transientMs?: number }): StatusStore;
  /** Lets `ms` pass for the store's record expiry (a test clock where the store has one, real time otherwise). */
  advance(ms: number): Promise<void>;
}

const key = () => `status:/v1/checkouts/${randomUUID().replaceAll('-', '').toUpperCase()}.uat01-vm-tx01/payment`;
const T0 = 1_800_000_000_000;
const claimAt = (now: number, token = randomUUID(), extra: object = {}) => ({ token, now, until: now + 10_000, ...extra });
const limit = { count: 2, windowMs: 60_000 };

export function statusStoreContract(name: string, subject: ContractSubject) {
  describe(`StatusStore contract: ${name}`, () => {
    test('one claim at a time: the first is granted, the others wait for it; a final value answers everyone after', async () => {
      const store = subject.store();
      const k = key();
      const first = claimAt(T0);
      assert.equal((await store.claim(k, first)).status, 'claimed');
      assert.deepEqual(await store.claim(k, claimAt(T0 + 1)), { status: 'busy', holder: first.token, until: first.until });
      const value = JSON.stringify({ id: 'ä\n"paid"', amount: '92.00' });
      assert.equal(await store.settle(k, first.token, { value, final: true }), value);
      assert.deepEqual(await store.claim(k, claimAt(T0 + 2, randomUUID(), { limit })), { status: 'final', value });
    });

    test('many concurrent claims on one key: exactly one is granted', async () => {
      const store = subject.store();
      const k = key();
      const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => store.claim(k, claimAt(T0 + index))));
      assert.equal(answers.filter((answer) => answer.status === 'claimed').length, 1);
      assert.equal(answers.filter((answer) => answer.status === 'busy').length, 39);
    });

    test('a waiter gets the answer of the claim it waited for; a newcomer does not (it claims anew, counted)', async () => {
      const store = subject.store();
      const k = key();
      const holder = claimAt(T0, randomUUID(), { limit });
      await store.claim(k, holder);
      const pending = JSON.stringify({ result: { code: '000.200.000' } });
      assert.equal(await store.settle(k, holder.token, { value: pending, final: false }), undefined);
      assert.deepEqual(await store.claim(k, claimAt(T0 + 5, randomUUID(), { limit, answerOf: holder.token })), {
        status: 'answer',
        value: pending,
      });
      assert.equal((await store.claim(k, claimAt(T0 + 6, randomUUID(), { limit, answerOf: 'another claim' }))).status, 'claimed');
    });

    test('the limit counts granted claims over a sliding window, not calendar minutes', async () => {
      const store = subject.store();
      const k = key();
      for (const at of [T0 + 59_000, T0 + 61_000]) {
        const claim = claimAt(at, randomUUID(), { limit });
        assert.equal((await store.claim(k, claim)).status, 'claimed');
        await store.settle(k, claim.token, {});
      }
      // Two claims 2 s apart across a minute boundary: a third is refused until the first leaves the window.
      assert.deepEqual(await store.claim(k, claimAt(T0 + 62_000, randomUUID(), { limit })), { status: 'limited', retryAt: T0 + 119_000 });
      assert.deepEqual(await store.claim(k, claimAt(T0 + 118_999, randomUUID(), { limit })), { status: 'limited', retryAt: T0 + 119_000 });
      assert.equal((await store.claim(k, claimAt(T0 + 119_000, randomUUID(), { limit }))).status, 'claimed');
    });

    test('concurrent workers on an unpaid checkout: only `count` claims are granted in the window', async () => {
      const store = subject.store();
      const k = key();
      let granted = 0;
      await Promise.all(
        Array.from({ length: 12 }, async (_, worker) => {
          for (let round = 0; round < 4; round++) {
            const claim = claimAt(T0 + worker * 10 + round, randomUUID(), { limit });
            const answer = await store.claim(k, claim);
            if (answer.status === 'claimed') {
              granted++;
              await store.settle(k, claim.token, {});
            }
          }
        }),
      );
      assert.equal(granted, 2);
    });

    test('a lapsed claim is taken over; its late answer is still stored and the old holder can no longer renew or end the new claim', async () => {
      const store = subject.store();
      const k = key();
      const crashed = claimAt(T0);
      await store.claim(k, crashed);
      assert.equal(await store.renew(k, crashed.token, T0 + 20_000), true);
      assert.equal((await store.claim(k, claimAt(T0 + 19_999))).status, 'busy', 'renewed until T0+20000');
      const next = claimAt(T0 + 20_000);
      const taken = await store.claim(k, next);
      assert.equal(
        taken.status === 'claimed' && taken.unanswered,
        true,
        "the lapsed claim's work may have gone out: the next holder is told",
      );
      assert.equal(await store.renew(k, crashed.token, T0 + 40_000), false);
      assert.equal(await store.settle(k, crashed.token, {}), undefined);
      assert.equal((await store.claim(k, claimAt(T0 + 20_001))).status, 'busy', 'releasing a lost claim does not end the new one');
      await store.settle(k, crashed.token, { value: JSON.stringify({ id: 'late', pending: true }), final: false });
      assert.equal((await store.claim(k, claimAt(T0 + 20_002))).status, 'busy', 'nor does its late answer');
      assert.equal(await store.renew(k, next.token, T0 + 30_000), true, 'the new holder still holds the key');
      const late = JSON.stringify({ id: 'late' });
      assert.equal(await store.settle(k, crashed.token, { value: late, final: true }), late);
      const own = JSON.stringify({ id: 'own' });
      assert.equal(await store.settle(k, next.token, { value: own, final: true }), late, 'the first final value is kept');
    });

    test('a claim ended unanswered by its holder is told to the next claim; the same from anyone else marks nothing', async () => {
      const store = subject.store();
      const k = key();
      const first = claimAt(T0);
      await store.claim(k, first);
      await store.settle(k, 'stranger', { unanswered: true });
      await store.settle(k, first.token, {});
      const second = claimAt(T0 + 1);
      const granted = await store.claim(k, second);
      assert.equal(granted.status === 'claimed' && granted.unanswered, undefined, 'a stranger cannot mark a key');
      await store.settle(k, second.token, { unanswered: true });
      const third = await store.claim(k, claimAt(T0 + 2));
      assert.equal(third.status === 'claimed' && third.unanswered, true);
    });

    test('an unanswered mark outlives a later holder that only releases: every claim is told until a value is settled', async () => {
      const store = subject.store();
      const k = key();
      await store.claim(k, claimAt(T0));
      for (const at of [T0 + 10_000, T0 + 10_001]) {
        const holder = claimAt(at);
        const granted = await store.claim(k, holder);
        assert.equal(granted.status === 'claimed' && granted.unanswered, true, `told at ${at - T0}`);
        await store.settle(k, holder.token, {});
      }
    });

    test('a released claim frees the key at once; a release by anyone else does not', async () => {
      const store = subject.store();
      const k = key();
      const holder = claimAt(T0);
      await store.claim(k, holder);
      await store.settle(k, 'not the holder', {});
      assert.equal((await store.claim(k, claimAt(T0 + 1))).status, 'busy');
      await store.settle(k, holder.token, {});
      assert.equal((await store.claim(k, claimAt(T0 + 2))).status, 'claimed');
    });

    test('a claim never ended (its holder vanished mid-work) is read as lapsed, unanswered, long past transientMs', async () => {
      // A notification the platform retries minutes later must still be told that an earlier run may have half done it.
      const store = subject.store({ ttlMs: 60_000, transientMs: 50 });
      const k = key();
      await store.claim(k, { token: randomUUID(), now: T0, until: T0 + 10 });
      await subject.advance(300);
      const next = await store.claim(k, claimAt(T0 + 400));
      assert.equal(next.status === 'claimed' && next.unanswered, true, JSON.stringify(next));
    });

    test("a lapsed claim's late answer leaves the claim that replaced it held, however short transientMs", async () => {
      const store = subject.store({ ttlMs: 60_000, transientMs: 50 });
      const k = key();
      const lapsed = { token: randomUUID(), now: T0, until: T0 + 10 };
      await store.claim(k, lapsed);
      const next = await store.claim(k, claimAt(T0 + 20));
      assert.equal(next.status === 'claimed' && next.unanswered, true, JSON.stringify(next));
      await store.settle(k, lapsed.token, { value: JSON.stringify({ id: 'late', pending: true }), final: false });
      await subject.advance(300);
      const third = await store.claim(k, claimAt(T0 + 400));
      assert.equal(third.status, 'busy', `the new holder still holds the key: ${JSON.stringify(third)}`);
    });

    test("a lapsed claim's late answer leaves the mark of the newer claim whose answer was lost: it answers an older read", async () => {
      const store = subject.store();
      const k = key();
      const lapsed = { token: randomUUID(), now: T0, until: T0 + 10 };
      await store.claim(k, lapsed);
      const next = claimAt(T0 + 20);
      await store.claim(k, next);
      // The newer read went out and its answer was lost: it may have consumed what the older one saw unpaid.
      await store.settle(k, next.token, { unanswered: true });
      await store.settle(k, lapsed.token, { value: JSON.stringify({ id: 'older', pending: true }), final: false });
      const third = await store.claim(k, claimAt(T0 + 30));
      assert.equal(third.status === 'claimed' && third.unanswered, true, JSON.stringify(third));
    });

    test('counted calls outlive a transientMs shorter than their window: the limit holds', async () => {
      const store = subject.store({ ttlMs: 60_000, transientMs: 50 });
      const k = key();
      // On the real clock: the Redis store's records expire in real time, so the window must end in real time too.
      const start = Date.now();
      for (const at of [start, start + 1]) {
        const holder = claimAt(at, randomUUID(), { limit });
        assert.equal((await store.claim(k, holder)).status, 'claimed');
        await store.settle(k, holder.token, {});
      }
      await subject.advance(300);
      const third = await store.claim(k, claimAt(start + 400, randomUUID(), { limit }));
      assert.equal(third.status, 'limited', JSON.stringify(third));
    });

    test('records expire after ttlMs', async () => {
      const store = subject.store({ ttlMs: 1000 });
      const k = key();
      const holder = claimAt(T0);
      await store.claim(k, holder);
      await store.settle(k, holder.token, { value: 'paid', final: true });
      assert.equal((await store.claim(k, claimAt(T0))).status, 'final');
      await subject.advance(1100);
      assert.equal((await store.claim(k, claimAt(T0))).status, 'claimed');
    });

    test('acquire: 24 concurrent callers, one lease; the others wait and take its answer, final or not', async () => {
      const store = subject.store();
      for (const final of [true, false]) {
        const k = key();
        const results = await Promise.all(
          Array.from({ length: 24 }, async () => {
            const acquired = await acquire(store, k, { now: Date.now, limit });
            if (acquired.kind !== 'lease') return acquired;
            await new Promise((resolve) => setTimeout(resolve, 50));
            await acquired.lease.settle('answer', final);
            return 'lease';
          }),
        );
        assert.equal(results.filter((result) => result === 'lease').length, 1);
        for (const result of results.filter((each) => each !== 'lease'))
          assert.deepEqual(result, { kind: 'value', value: 'answer', final });
      }
    });

    test('acquire: a released lease passes to one waiter; nobody waits longer than waitMs', async () => {
      const store = subject.store({ waitMs: 600 });
      const k = key();
      const first = await acquire(store, k, { now: Date.now });
      assert.equal(first.kind, 'lease');
      const waiting = acquire(store, k, { now: Date.now });
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (first.kind === 'lease') await first.lease.release();
      const second = await waiting;
      assert.equal(second.kind, 'lease');
      const gaveUp = await acquire(store, k, { now: Date.now });
      assert.equal(gaveUp.kind, 'busy');
      if (second.kind === 'lease') await second.lease.release();
    });
  });
}
