/**
 * The memory status store's own bookkeeping, exactly: what each record costs
 * in its byte bound, when records expire (final values and unanswered marks
 * after ttlMs, the rest transientMs after their claim; a claim never ended
 * leaves an unanswered mark), the retry hint when it
 * is full, and the contract's edges (the window's boundary, a lapsed claim's
 * work counted as unanswered). The shared contract itself runs in
 * status-store.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStatusStore } from '../../../src/server/coordination/memory-status-store.js';
import { STATUS_STORE_DEFAULTS, StatusStoreUnavailableError } from '../../../src/server/coordination/status-store.js';

const T0 = 1_800_000_000_000;
const OVERHEAD = 64;

function clocked(options: Parameters<typeof createMemoryStatusStore>[0] = {}) {
  const clock = { now: T0 };
  const store = createMemoryStatusStore({ ...options, now: () => clock.now });
  return { store, clock };
}

describe('what a record costs (UTF-16 code units: 64 per record, its key and strings, 16 per counted call)', () => {
  test('a counted claim, then its final answer', async () => {
    const { store } = clocked();
    store.claim('k1', { token: 'tok', now: T0, until: T0 + 10_000, limit: { count: 5, windowMs: 60_000 } });
    assert.deepEqual(store.usage, { records: 1, bytes: OVERHEAD + 2 + 3 + 16, keptBytes: 0, maxBytes: STATUS_STORE_DEFAULTS.maxBytes });
    assert.equal(store.size, 1);
    store.settle('k1', 'tok', { value: 'paid', final: true });
    // final, answer and answerOf; the holder is gone, the counted call stays.
    const kept = OVERHEAD + 2 + 4 + 4 + 3 + 16;
    assert.deepEqual(store.usage, { records: 1, bytes: kept, keptBytes: kept, maxBytes: STATUS_STORE_DEFAULTS.maxBytes });
    store.claim('k2', { token: 't', now: T0, until: T0 + 10_000 });
    assert.equal(store.usage.bytes, kept + OVERHEAD + 2 + 1);
    assert.equal(store.usage.keptBytes, kept);
    assert.equal(store.size, 2);
  });

  test('a record rewritten is counted once; a non-final answer is transient', async () => {
    const { store } = clocked();
    store.claim('k', { token: 'a', now: T0, until: T0 + 10_000 });
    store.renew('k', 'a', T0 + 20_000);
    store.settle('k', 'a', { value: 'pending', final: false });
    assert.deepEqual(store.usage, { records: 1, bytes: OVERHEAD + 1 + 7 + 1, keptBytes: 0, maxBytes: STATUS_STORE_DEFAULTS.maxBytes });
  });

  test('full at exactly maxBytes: the claim that fits is granted, the next refused with the seconds until room', async () => {
    const size = OVERHEAD + 2 + 1;
    const { store, clock } = clocked({ maxBytes: 2 * size, transientMs: 5_500 });
    assert.equal((await store.claim('k1', { token: 'a', now: T0, until: T0 + 1_000 })).status, 'claimed');
    clock.now += 1_000;
    // Ended by its holder, it is a transient record that frees its room at expiry (a claim never ended leaves a mark).
    store.settle('k1', 'a', {});
    assert.equal((await store.claim('k2', { token: 'b', now: clock.now, until: clock.now + 1_000 })).status, 'claimed');
    const error = (() => {
      try {
        store.claim('k3', { token: 'c', now: clock.now, until: clock.now + 1_000 });
      } catch (caught) {
        return caught;
      }
    })();
    assert.ok(error instanceof StatusStoreUnavailableError, String(error));
    // k1 expires at its end (T0 + 1000) + 5500: 5.5 s from now, so 6 s.
    assert.equal(error.retryAfterSeconds, 6);
    assert.match(error.message, new RegExp(`holds its ${2 * size} bytes`));
    // Rewriting a record already held needs only its growth.
    assert.equal(store.renew('k2', 'b', clock.now + 2_000), true);
    // A final value is written whatever the bound (it is never refused nor evicted).
    assert.equal(store.settle('k3', 'c', { value: 'paid', final: true }), 'paid');
    assert.equal(store.usage.records, 3);
    clock.now = T0 + 1_000 + 5_500;
    assert.equal(store.usage.records, 2, 'k1 expired when the hint said');
  });

  test('the retry hint is at least one second', async () => {
    const size = OVERHEAD + 2 + 1;
    const { store, clock } = clocked({ maxBytes: size, transientMs: 100 });
    store.claim('k1', { token: 'a', now: T0, until: T0 });
    clock.now += 50;
    const error = (() => {
      try {
        store.claim('k2', { token: 'b', now: clock.now, until: clock.now });
      } catch (caught) {
        return caught;
      }
    })();
    assert.ok(error instanceof StatusStoreUnavailableError);
    assert.equal(error.retryAfterSeconds, 1);
  });
});

describe('expiry', () => {
  test("an ended claim's record lives transientMs past its end, then is gone", async () => {
    const { store, clock } = clocked({ transientMs: 1_000 });
    store.claim('k', { token: 'a', now: T0, until: T0 + 10_000 });
    clock.now = T0 + 5_000;
    store.settle('k', 'a', {});
    clock.now = T0 + 5_999;
    assert.equal(store.usage.records, 1);
    clock.now = T0 + 6_000;
    assert.equal(store.usage.records, 0);
    assert.equal(store.usage.bytes, 0);
  });

  test('a claim never ended leaves, at the same time, an unanswered mark kept ttlMs: a claim an hour later is told', async () => {
    // Its holder vanished mid-work (a process that died): its work may have gone out, whenever the next one comes.
    const { store, clock } = clocked({ transientMs: 1_000, ttlMs: 3_600_000 });
    store.claim('k', { token: 'a', now: T0, until: T0 + 5_000 });
    clock.now = T0 + 6_000;
    assert.deepEqual(store.usage, { records: 1, bytes: OVERHEAD + 1, keptBytes: OVERHEAD + 1, maxBytes: STATUS_STORE_DEFAULTS.maxBytes });
    clock.now = T0 + 3_000_000;
    assert.deepEqual(store.claim('k', { token: 'b', now: clock.now, until: clock.now + 100 }), {
      status: 'claimed',
      since: T0,
      unanswered: true,
    });
    store.settle('k', 'b', { value: 'done', final: true });
    assert.equal((await store.claim('k', { token: 'c', now: clock.now, until: clock.now + 100 })).status, 'final');
  });

  test('a mark left by a claim never ended goes after ttlMs, when nothing came for it', async () => {
    const { store, clock } = clocked({ transientMs: 1_000, ttlMs: 10_000 });
    store.claim('k', { token: 'a', now: T0, until: T0 - 5_000 });
    clock.now = T0 + 999;
    assert.equal(store.usage.keptBytes, 0, 'a claim, not yet a mark');
    clock.now = T0 + 1_000;
    assert.equal(store.usage.keptBytes, OVERHEAD + 1);
    clock.now = T0 + 10_999;
    assert.equal(store.usage.records, 1);
    clock.now = T0 + 11_000;
    assert.deepEqual(store.usage, { records: 0, bytes: 0, keptBytes: 0, maxBytes: STATUS_STORE_DEFAULTS.maxBytes });
  });

  test('expired records of both kinds are dropped in order of expiry, the bytes with them', async () => {
    const { store, clock } = clocked({ transientMs: 1_000, ttlMs: 3_000 });
    store.settle('kept1', 'w', { value: 'a', final: true });
    store.claim('t1', { token: 'a', now: T0, until: T0 });
    store.settle('t1', 'a', {});
    clock.now = T0 + 500;
    store.settle('kept2', 'w', { value: 'b', final: true });
    store.claim('t2', { token: 'b', now: clock.now, until: clock.now });
    store.settle('t2', 'b', {});
    clock.now = T0 + 1_000;
    assert.equal(store.usage.records, 3, 't1 went');
    clock.now = T0 + 1_500;
    assert.equal(store.usage.records, 2, 't2 went');
    clock.now = T0 + 3_000;
    assert.deepEqual(store.usage, {
      records: 1,
      bytes: OVERHEAD + 5 + 1 + 1 + 1,
      keptBytes: OVERHEAD + 5 + 1 + 1 + 1,
      maxBytes: STATUS_STORE_DEFAULTS.maxBytes,
    });
    clock.now = T0 + 3_500;
    assert.deepEqual(store.usage, { records: 0, bytes: 0, keptBytes: 0, maxBytes: STATUS_STORE_DEFAULTS.maxBytes });
  });

  test('a record that became the first to expire when the one before it was settled away is dropped at its own expiry', async () => {
    // The store sweeps only once some entry can be due; settling the first claim away must not hide the next one's expiry.
    const { store, clock } = clocked({ transientMs: 1_000, ttlMs: 60_000 });
    store.claim('t1', { token: 'a', now: T0, until: T0 + 5_000 });
    clock.now = T0 + 100;
    store.claim('t2', { token: 'b', now: clock.now, until: clock.now });
    store.settle('t2', 'b', {});
    store.settle('t1', 'a', { value: 'x', final: true });
    clock.now = T0 + 1_099;
    assert.equal(store.usage.records, 2);
    clock.now = T0 + 1_100;
    assert.equal(store.usage.records, 1, 't2 went at its expiry, the kept t1 stays');
  });

  test('a clock that goes back: a record written at the earlier time is dropped once it is first in line and due', async () => {
    const { store, clock } = clocked({ transientMs: 1_000, ttlMs: 60_000 });
    store.claim('late', { token: 'a', now: T0, until: T0 });
    clock.now = T0 - 10_000;
    store.claim('early', { token: 'b', now: clock.now, until: clock.now });
    store.settle('early', 'b', {});
    clock.now = T0 - 8_000;
    store.settle('late', 'a', { value: 'x', final: true });
    assert.equal(store.usage.records, 1, 'early went as soon as late (kept now) no longer stood before it');
  });

  test('an unanswered mark is kept ttlMs (not transientMs): every later claim is told, until an answer', async () => {
    const { store, clock } = clocked({ transientMs: 1_000, ttlMs: 10_000 });
    store.claim('k', { token: 'a', now: T0, until: T0 + 1_000 });
    store.settle('k', 'a', { unanswered: true });
    assert.equal(store.usage.keptBytes, store.usage.bytes);
    clock.now = T0 + 9_999;
    assert.deepEqual(store.claim('k', { token: 'b', now: clock.now, until: clock.now + 1_000 }), {
      status: 'claimed',
      since: T0,
      unanswered: true,
    });
    store.settle('k', 'b', { value: 'pending', final: false });
    assert.deepEqual(store.claim('k', { token: 'c', now: clock.now, until: clock.now + 1_000 }), { status: 'claimed', since: T0 });
  });

  test('read answers the final value only, and an expired one not at all', async () => {
    const { store, clock } = clocked({ ttlMs: 1_000 });
    store.claim('k', { token: 'a', now: T0, until: T0 + 500 });
    assert.equal(store.read!('k'), undefined);
    store.settle('k', 'a', { value: 'paid', final: true });
    assert.equal(store.read!('k'), 'paid');
    clock.now = T0 + 999;
    assert.equal(store.read!('k'), 'paid');
    clock.now = T0 + 1_000;
    assert.equal(store.read!('k'), undefined);
  });
});

describe("the contract's edges", () => {
  test('a counted call leaves the window exactly windowMs after it was granted', async () => {
    const { store } = clocked();
    const limit = { count: 1, windowMs: 1_000 };
    store.claim('k', { token: 'a', now: T0, until: T0 + 10, limit });
    store.settle('k', 'a', {});
    assert.deepEqual(store.claim('k', { token: 'b', now: T0 + 999, until: T0 + 1_010, limit }), { status: 'limited', retryAt: T0 + 1_000 });
    assert.equal((await store.claim('k', { token: 'c', now: T0 + 1_000, until: T0 + 1_010, limit })).status, 'claimed');
  });

  test('the oldest counted call sets retryAt', async () => {
    const { store } = clocked();
    const limit = { count: 2, windowMs: 1_000 };
    for (const [token, now] of [
      ['a', T0 + 300],
      ['b', T0 + 600],
    ] as const) {
      store.claim('k', { token, now, until: now + 10, limit });
      store.settle('k', token, {});
    }
    assert.deepEqual(store.claim('k', { token: 'c', now: T0 + 700, until: T0 + 710, limit }), { status: 'limited', retryAt: T0 + 1_300 });
  });

  test("a claim lives until its until: busy before, taken at it, and the lapsed holder's work is unanswered", async () => {
    const { store } = clocked();
    store.claim('k', { token: 'a', now: T0, until: T0 + 100 });
    assert.deepEqual(store.claim('k', { token: 'b', now: T0 + 99, until: T0 + 200 }), { status: 'busy', holder: 'a', until: T0 + 100 });
    assert.deepEqual(store.claim('k', { token: 'b', now: T0 + 100, until: T0 + 200 }), { status: 'claimed', since: T0, unanswered: true });
  });

  test('an answer is given only to a waiter naming the claim that left it', async () => {
    const { store } = clocked();
    store.claim('k', { token: 'a', now: T0, until: T0 + 100 });
    store.settle('k', 'a', { value: 'pending', final: false });
    assert.deepEqual(store.claim('k', { token: 'b', now: T0, until: T0 + 100, answerOf: 'a' }), { status: 'answer', value: 'pending' });
    assert.deepEqual(store.claim('k', { token: 'c', now: T0, until: T0 + 100, answerOf: 'z' }), { status: 'claimed', since: T0 });
    assert.deepEqual(
      store.claim('k', { token: 'd', now: T0, until: T0 + 100, answerOf: 'a' }),
      { status: 'answer', value: 'pending' },
      'the answer, even while another claim holds the key',
    );
  });

  test('settle by someone who holds nothing, without a value, changes nothing and answers the final value', async () => {
    const { store } = clocked();
    store.claim('k', { token: 'a', now: T0, until: T0 + 100 });
    const before = store.usage;
    assert.equal(store.settle('k', 'stranger', { unanswered: true }), undefined);
    assert.deepEqual(store.usage, before);
    assert.equal((await store.claim('k', { token: 'b', now: T0 + 1, until: T0 + 100 })).status, 'busy');
    assert.equal(store.renew('k', 'stranger', T0 + 500), false);
    assert.equal(store.renew('missing', 'a', T0 + 500), false);
  });
});

describe('records out of expiry order, room for a rewrite, what stays kept', () => {
  test('a record written after a longer-lived one is gone exactly at its own expiry, bytes included', async () => {
    const { store, clock } = clocked();
    store.claim('long', { token: 'a', now: T0, until: T0 + 1_000_000 });
    store.claim('short', { token: 'b', now: T0, until: T0 + 20_000 });
    clock.now = T0 + 10_000;
    store.settle('short', 'b', {});
    clock.now = T0 + 10_000 + STATUS_STORE_DEFAULTS.transientMs - 1;
    assert.equal(store.read!('short'), undefined);
    assert.equal(store.usage.records, 2, 'one ms before its expiry the record is still there');
    clock.now += 1;
    assert.equal(store.read!('short'), undefined);
    assert.equal(store.usage.records, 1, 'at its expiry it is dropped, though the older record expires later');
  });

  test('a claim on such a record at its expiry finds the lapsed claim, which was never ended, unanswered', async () => {
    const { store, clock } = clocked();
    store.claim('long', { token: 'a', now: T0, until: T0 + 1_000_000 });
    store.claim('short', { token: 'b', now: T0, until: T0 + 10_000 });
    clock.now = T0 + 10_000 + STATUS_STORE_DEFAULTS.transientMs;
    assert.deepEqual(store.claim('short', { token: 'c', now: clock.now, until: clock.now + 100 }), {
      status: 'claimed',
      since: T0,
      unanswered: true,
    });
  });

  test('a record rewritten at the bound fits in its own room: only the growth counts', async () => {
    const { store } = clocked({ maxBytes: OVERHEAD + 1 + 2 });
    store.claim('k', { token: 't1', now: T0, until: T0 + 10 });
    store.settle('k', 't1', {});
    assert.equal((await store.claim('k', { token: 't2', now: T0 + 1, until: T0 + 10 })).status, 'claimed');
  });

  test('full of kept records only: the retry hint is transientMs (no transient record will free room sooner)', async () => {
    const { store } = clocked({ maxBytes: OVERHEAD + 2 + 1, transientMs: 30_000 });
    store.claim('k1', { token: 't', now: T0, until: T0 + 10 });
    store.settle('k1', 't', { value: 'v', final: true });
    const error = await Promise.resolve()
      .then(() => store.claim('k2', { token: 't', now: T0, until: T0 + 10 }))
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof StatusStoreUnavailableError, String(error));
    assert.equal(error.retryAfterSeconds, 30);
  });

  test('an unanswered mark survives a later holder that releases; its claims are kept work, granted even when the store is full', async () => {
    // Room for the released mark (64 + key) and one more claim (64 + key + token), and 1 to spare: not for the mark's claim too.
    const { store } = clocked({ maxBytes: OVERHEAD + 1 + (OVERHEAD + 1 + 2) + 1 });
    store.claim('u', { token: 't1', now: T0, until: T0 + 10 });
    assert.deepEqual(store.claim('u', { token: 't2', now: T0 + 10, until: T0 + 20 }), { status: 'claimed', since: T0, unanswered: true });
    store.settle('u', 't2', {});
    assert.deepEqual(
      store.claim('u', { token: 't3', now: T0 + 20, until: T0 + 30 }),
      { status: 'claimed', since: T0, unanswered: true },
      'still unknown: no answer was settled',
    );
    store.settle('u', 't3', {});
    assert.equal(store.usage.keptBytes, OVERHEAD + 1);
    store.claim('f', { token: 'xx', now: T0 + 30, until: T0 + 40 });
    assert.equal(
      (await store.claim('u', { token: 't4', now: T0 + 30, until: T0 + 40 })).status,
      'claimed',
      'the full store still serves the key whose work is unknown',
    );
  });
});

describe('hints (the memories of created checkouts) go first for room', () => {
  const claim = (key: string, token: string, now: number) => ({
    token,
    now,
    until: now + 10_000,
    limit: undefined,
    answerOf: undefined,
    key,
  });

  test('a flood of remembered creations never refuses a claim, nor an answer kept under one', () => {
    const { store, clock } = clocked({ maxBytes: 4_000 });
    const answered = store.claim('status:paid', claim('status:paid', 'a', clock.now));
    assert.equal((answered as { status: string }).status, 'claimed');
    store.settle('status:paid', 'a', { value: '{"paid":true}', final: true });
    // A bot loading a checkout page: far more creations than the bound holds.
    for (let index = 0; index < 200; index++)
      store.settle(`checkout:${index}`, 'created', { value: 'x'.repeat(100), final: true, hint: true });
    assert.ok(store.usage.bytes <= 4_000, `${store.usage.bytes} bytes`);
    assert.equal(store.read!('checkout:199'), 'x'.repeat(100), 'the newest creations are kept');
    assert.equal(store.read!('checkout:0'), undefined, 'the oldest went for room');
    assert.equal(store.read!('status:paid'), '{"paid":true}', 'an answer never goes for room');
    const later = store.claim('status:other', claim('status:other', 'b', clock.now));
    assert.equal((later as { status: string }).status, 'claimed', 'a shopper is not refused');
    // Room is made only as far as needed: the newest memories outlive the claim that made room.
    assert.equal(store.read!('checkout:199'), 'x'.repeat(100), 'a claim that fits drops no memory');
  });

  test('beside what must be kept, creations take turns: the store outgrows its bound by one at most', () => {
    const { store, clock } = clocked({ maxBytes: 1_000 });
    store.claim('status:paid', claim('status:paid', 'a', clock.now));
    store.settle('status:paid', 'a', { value: 'p'.repeat(800), final: true });
    for (let index = 0; index < 5; index++)
      store.settle(`checkout:${index}`, 'created', { value: 'x'.repeat(400), final: true, hint: true });
    assert.equal(store.read!('status:paid'), 'p'.repeat(800));
    assert.equal(store.read!('checkout:4'), 'x'.repeat(400));
    assert.equal(store.usage.records, 2, 'the older creations went');
  });

  test('marks settled as hints go for room once no hint is left, oldest first; a mark settled alone never goes', () => {
    const { store, clock } = clocked({ maxBytes: 4_000 });
    const markLost = (key: string, hint: boolean) => {
      store.claim(key, claim(key, key, clock.now));
      store.settle(key, key, hint ? { unanswered: true, hint } : { unanswered: true });
    };
    markLost('fulfil:alone', false);
    store.settle('checkout:0', 'created', { value: 'x'.repeat(100), final: true, hint: true });
    // Created checkouts whose status answers were lost, far more than the bound holds (a bot during a gateway incident).
    for (let index = 0; index < 200; index++) markLost(`status:${index}`, true);
    assert.ok(store.usage.bytes <= 4_000, `${store.usage.bytes} bytes`);
    assert.equal(store.read!('checkout:0'), undefined, 'the creation memory went first');
    const told = (key: string) => {
      const granted = store.claim(key, claim(key, `${key}-next`, clock.now)) as { status: string; unanswered?: boolean };
      return granted.status === 'claimed' && granted.unanswered === true;
    };
    assert.equal(told('status:199'), true, 'the newest marks are kept');
    assert.equal(told('status:0'), false, 'the oldest went for room');
    assert.equal(told('fulfil:alone'), true, 'a mark settled alone is never dropped');
    const shopper = store.claim('status:paying', claim('status:paying', 'shopper', clock.now)) as { status: string };
    assert.equal(shopper.status, 'claimed', 'a shopper is not refused');
  });

  test("a mark whose status calls are still within their minute stays for room: the gateway's limit holds", () => {
    // Found by the coordination model (seed 2145884622): two reads of a checkout lost their answers, a flood of
    // claims made room by dropping the mark with its two counted calls, and once the flood's records had gone a third
    // read went out within the minute.
    const { store, clock } = clocked({ maxBytes: 1_500, transientMs: 1_000 });
    const limit = { count: 2, windowMs: 60_000 };
    for (const token of ['first', 'second']) {
      store.claim('status:lost', { ...claim('status:lost', token, clock.now), limit });
      store.settle('status:lost', token, { unanswered: true, hint: true });
    }
    // A flood of claims on unknown ids, each released at once (nothing found), some refused once the store is full.
    let refused = 0;
    for (let index = 0; index < 40; index++)
      try {
        store.claim(`status:flood-${index}`, claim(`status:flood-${index}`, 'bot', clock.now));
        store.settle(`status:flood-${index}`, 'bot', {});
      } catch {
        refused++;
      }
    assert.ok(refused > 0, 'the flood filled the store');
    // The flood's records are gone; the two calls are still within their minute.
    clock.now += 2_000;
    const third = store.claim('status:lost', { ...claim('status:lost', 'third', clock.now), limit }) as {
      status: string;
      unanswered?: boolean;
    };
    assert.equal(third.status, 'limited', 'no third status call within the minute');
  });
});
