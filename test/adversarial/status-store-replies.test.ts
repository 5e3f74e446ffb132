/**
 * The status stores against hostile replies: the Redis store against a Redis (a proxy, a wrong server, a corrupted
 * script cache) replying anything of any shape, type and size to its scripts, and a merchant's own store (written
 * for another version, or with a bug) answering a claim with anything. Whatever comes back, a claim taken through
 * `acquire` (as the shopper's return and fulfilment take it) ends, promptly, in a well-formed answer or a
 * `StatusStoreUnavailableError`: never an untyped error, a value that is not a string, or a time that is not a
 * number, which the callers would compute a wait or a retry hint from, and never a loop that does not yield.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createRedisStatusStore, StatusStoreUnavailableError, type StatusStore } from '../../src/server/index.js';
import { acquire } from '../../src/server/coordination/status-store.js';
import { propertyRuns } from '../support/property-runs.js';

/** What a hostile Redis may answer to a script: its own shapes with junk in any place, and anything else. */
const junk = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('NaN', '-1', '1e400', '', ' 12', '0x10', '1.5', 'Infinity'),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes)),
  fc.constant({
    toString() {
      throw new Error('a reply that cannot be read');
    },
  }),
  fc.anything({ maxDepth: 2 }),
);
const shaped = fc.tuple(
  fc.constantFrom('final', 'answer', 'busy', 'limited', 'claimed', 'FINAL', 'other', ''),
  junk,
  fc.oneof(junk, fc.constantFrom('0', '1')),
  junk,
);
const reply = fc.oneof(
  shaped,
  fc.array(junk, { maxLength: 6 }),
  junk,
  // A final value of megabytes: kept by Redis, held locally only within the store's bound.
  fc.integer({ min: 1, max: 3 }).map((megabytes) => ['final', '1', 'v'.repeat(megabytes << 20)]),
  fc.constant(new Error('ERR a failing server')),
);

function hostileClient(replies: unknown[]) {
  let next = 0;
  return {
    async call(): Promise<unknown> {
      const value = replies[next++ % replies.length];
      if (value instanceof Error) throw value;
      return value;
    },
  };
}

const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/** What a merchant's own store may answer a claim with: the contract's shapes with junk in any field, and anything else. */
const claimAnswer = fc.oneof(
  fc.record(
    {
      status: fc.oneof(fc.constantFrom('final', 'answer', 'busy', 'limited', 'claimed', 'granted', 'Final', ''), junk),
      value: junk,
      holder: junk,
      until: junk,
      retryAt: junk,
      since: junk,
      unanswered: junk,
    },
    { requiredKeys: ['status'] },
  ),
  junk,
  fc.constant(undefined),
);

/** `acquire` on `store`: a well-formed answer or `StatusStoreUnavailableError` (the lease, if any, released). */
async function checkAcquire(store: StatusStore, what: unknown): Promise<void> {
  const outcome = await acquire(store, 'status:k', { now: () => 1_000, limit: { count: 2, windowMs: 60_000 } }).then(
    (acquired) => ({ acquired }),
    (error: unknown) => ({ error }),
  );
  if ('error' in outcome) {
    assert.ok(outcome.error instanceof StatusStoreUnavailableError, `${String(outcome.error)} for ${String(JSON.stringify(what))}`);
    return;
  }
  const { acquired } = outcome;
  switch (acquired.kind) {
    case 'value':
      assert.equal(typeof acquired.value, 'string');
      break;
    case 'lease':
      assert.ok(acquired.since === undefined || isTime(acquired.since), `since ${String(acquired.since)}`);
      await acquired.lease.release().catch((error: unknown) => assert.ok(error instanceof StatusStoreUnavailableError));
      break;
    case 'limited':
      assert.ok(isTime(acquired.retryAt), `retryAt ${String(acquired.retryAt)}`);
      break;
    case 'busy':
      assert.ok(isTime(acquired.until), `until ${String(acquired.until)}`);
      break;
  }
}

describe('the Redis store against replies of any shape', () => {
  test('acquire: a well-formed answer or StatusStoreUnavailableError, whatever Redis replies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reply, { minLength: 1, maxLength: 4 }), async (replies) => {
        // A short wait: a reply that says "busy" for ever gives up within it.
        await checkAcquire(createRedisStatusStore({ client: hostileClient(replies), timeoutMs: 200, waitMs: 30 }), replies);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe("a merchant's own store against claim answers of any shape", () => {
  // A status nobody handles was polled again at once, for ever, in microtasks: this test would never end.
  test('acquire: a well-formed answer or StatusStoreUnavailableError, whatever the claim answers', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(claimAnswer, { minLength: 1, maxLength: 4 }), async (answers) => {
        let next = 0;
        const store: StatusStore = {
          timing: { waitMs: 30 },
          claim: () => answers[next++ % answers.length] as never,
          settle: async () => undefined,
          renew: async () => true,
        };
        await checkAcquire(store, answers);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
