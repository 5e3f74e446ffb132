/**
 * The Redis store against a real redis-server: the shared contract with both
 * clients (node-redis and ioredis), then what happens when Redis is slow, wiped
 * or unreachable: a typed StatusStoreUnavailableError, never a granted claim the
 * store is unsure of.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import {
  createRedisStatusStore,
  GatewayValidationError,
  StatusStoreUnavailableError,
  type RedisClientLike,
} from '../../../src/server/index.js';
import { statusStoreContract } from './status-store.contract.js';
import { useRedisClients } from '../../redis/clients.js';

const clients = useRedisClients();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const T0 = 1_800_000_000_000;
const claim = (now = T0) => ({ token: randomUUID(), now, until: now + 10_000 });

for (const name of ['nodeRedis', 'ioredis'] as const) {
  statusStoreContract(`Redis (${name})`, {
    store: (options) => createRedisStatusStore({ client: clients[name]!, prefix: `contract:${randomUUID()}:`, ...options }),
    advance: sleep,
  });
}

describe('the Redis store when Redis fails', () => {
  test('a client of neither shape is refused at once', () => {
    assert.throws(() => createRedisStatusStore({ client: {} as RedisClientLike }), GatewayValidationError);
  });

  test('slow: an operation longer than timeoutMs is StatusStoreUnavailableError; after the pause the store answers again', async () => {
    const store = createRedisStatusStore({ client: clients.ioredis!, prefix: `slow:${randomUUID()}:`, timeoutMs: 500 });
    const admin = new Redis(clients.server!.url);
    try {
      await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
      const error = await Promise.resolve(store.claim('k', claim())).catch((caught: unknown) => caught);
      assert.ok(error instanceof StatusStoreUnavailableError, String(error));
      await sleep(1600);
      assert.equal((await store.claim('other', claim())).status, 'claimed');
    } finally {
      admin.disconnect();
    }
  });

  test('wiped (restart without persistence): every instance, also one that never touched Redis, sees when its data begins', async () => {
    const prefix = `wiped:${randomUUID()}:`;
    const store = createRedisStatusStore({ client: clients.nodeRedis!, prefix });
    const first = await store.claim('a', claim());
    assert.equal(first.status, 'claimed');
    const born = first.status === 'claimed' ? first.since : undefined;
    await clients.nodeRedis!.sendCommand(['FLUSHALL']);
    const fresh = createRedisStatusStore({ client: clients.ioredis!, prefix });
    const after = await fresh.claim('b', claim(T0 + 5000));
    assert.equal(after.status, 'claimed');
    assert.ok(after.status === 'claimed' && after.since === T0 + 5000 && after.since !== born, 'the marker was re-made at the loss');
  });

  test('a claim that lapsed, or ended unanswered, leaves every later claim told `unanswered`, until a value is settled', async () => {
    const store = createRedisStatusStore({ client: clients.ioredis!, prefix: `unanswered:${randomUUID()}:` });
    const lapsed = claim(T0);
    await store.claim('k', lapsed);
    const next = claim(T0 + 20_000);
    assert.deepEqual({ ...(await store.claim('k', next)), since: 0 }, { status: 'claimed', unanswered: true, since: 0 });
    await store.settle('k', next.token, { value: 'pending', final: false });
    const known = await store.claim('k', claim(T0 + 30_000));
    assert.equal(known.status === 'claimed' && known.unanswered, undefined);
  });

  test('read: the final value another instance settled, nothing for a key without one, and nothing written', async () => {
    const prefix = `read:${randomUUID()}:`;
    const writer = createRedisStatusStore({ client: clients.ioredis!, prefix });
    const reader = createRedisStatusStore({ client: clients.nodeRedis!, prefix });
    const holder = claim();
    await writer.claim('paid', holder);
    await writer.settle('paid', holder.token, { value: 'approved', final: true });
    assert.equal(await reader.read!('paid'), 'approved');
    assert.equal(await reader.read!('open'), undefined);
    assert.equal(await clients.ioredis!.exists(`${prefix}open`), 0, 'a read writes nothing');
    const pending = claim();
    await writer.claim('pending', pending);
    await writer.settle('pending', pending.token, { value: 'not yet', final: false });
    assert.equal(await reader.read!('pending'), undefined, 'only a final value is read');
  });

  test('expiries as the contract sets them: a claim until its lapse plus ttlMs (a lapse is read as unanswered that long), a renewal claimMs plus ttlMs, an ended claim transientMs, finals and unanswered marks ttlMs', async () => {
    const prefix = `expiry:${randomUUID()}:`;
    const ttlMs = 1_000_000;
    const transientMs = 50_000;
    const store = createRedisStatusStore({ client: clients.ioredis!, prefix, ttlMs, transientMs, claimMs: 7_000 });
    const pttl = async (key: string) => Number(await clients.ioredis!.pttl(`${prefix}${key}`));
    // Read right after the write: at most a few ms have passed, far less than the 1 s margin.
    const about = async (key: string, expected: number, why: string) => {
      const left = await pttl(key);
      assert.ok(left <= expected && left > expected - 1_000, `${why}: ${left} ms left, expected about ${expected}`);
    };
    const now = Date.now();
    const holder = { token: randomUUID(), now, until: now + 10_000 };
    await store.claim('k', holder);
    await about('k', 10_000 + ttlMs, 'a claim');
    await store.renew('k', holder.token, now + 7_000);
    await about('k', 7_000 + ttlMs, 'a renewal');
    await store.settle('k', holder.token, { value: 'pending', final: false });
    await about('k', transientMs, 'a non-final answer');

    const released = { token: randomUUID(), now, until: now + 10_000 };
    await store.claim('r', released);
    await store.settle('r', released.token, {});
    await about('r', transientMs, 'a release');

    await store.claim('late', { token: randomUUID(), now, until: now + 10_000 });
    await store.settle('late', randomUUID(), { value: 'approved', final: true });
    await about('late', ttlMs, "another claim's final answer");

    await store.claim('u', { token: randomUUID(), now, until: now + 10 });
    const next = { token: randomUUID(), now: now + 10, until: now + 10_010 };
    assert.equal((await store.claim('u', next)).status, 'claimed');
    await about('u', ttlMs, 'a claim told unanswered');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await store.renew('u', next.token, now + 20_000);
    await about('u', ttlMs, 'a renewal of it, a second later');
  });

  test("the store's data begins at its first claim: every later claim, of any key, reports the same since", async () => {
    const store = createRedisStatusStore({ client: clients.ioredis!, prefix: `since:${randomUUID()}:` });
    const first = await store.claim('a', claim(T0));
    const later = await store.claim('b', claim(T0 + 5_000));
    assert.deepEqual([first.status === 'claimed' && first.since, later.status === 'claimed' && later.since], [T0, T0]);
  });

  test('after SCRIPT FLUSH (a restarted Redis), the next operation sends its script again and answers', async () => {
    const store = createRedisStatusStore({ client: clients.ioredis!, prefix: `flush:${randomUUID()}:` });
    assert.equal((await store.claim('a', claim())).status, 'claimed');
    await clients.ioredis!.call('SCRIPT', 'FLUSH');
    assert.equal((await store.claim('b', claim())).status, 'claimed');
  });

  test('a corrupted record is StatusStoreUnavailableError, never a SyntaxError or a Lua error', async () => {
    const prefix = `corrupt:${randomUUID()}:`;
    const store = createRedisStatusStore({ client: clients.ioredis!, prefix });
    await clients.ioredis!.hset(`${prefix}k`, 'holder', 'x', 'until', 'not a number');
    const error = await Promise.resolve(store.claim('k', claim())).catch((caught: unknown) => caught);
    assert.ok(error instanceof StatusStoreUnavailableError, String(error));
  });

  test('unreachable at start (both clients): StatusStoreUnavailableError within timeoutMs, nothing granted', async () => {
    const nobody = `redis://127.0.0.1:${clients.server!.port === 1 ? 2 : 1}`;
    const ioredis = new Redis(nobody, { lazyConnect: false, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    ioredis.on('error', () => undefined);
    const nodeRedis = createClient({ url: nobody, socket: { reconnectStrategy: 50 } });
    nodeRedis.on('error', () => undefined);
    nodeRedis.connect().catch(() => undefined);
    try {
      for (const client of [ioredis, nodeRedis] as RedisClientLike[]) {
        const store = createRedisStatusStore({ client, timeoutMs: 200 });
        const error = await Promise.resolve(store.claim('k', claim())).catch((caught: unknown) => caught);
        assert.ok(error instanceof StatusStoreUnavailableError, String(error));
      }
    } finally {
      ioredis.disconnect();
      nodeRedis.destroy();
    }
  });
});
