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
import { createRedisStatusStore, StatusStoreUnavailableError, type RedisClientLike } from '../../src/server/index.js';
import { statusStoreContract } from '../server/status-store-contract.js';
import { useRedisClients } from './clients.js';

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
    assert.throws(() => createRedisStatusStore({ client: {} as RedisClientLike }), TypeError);
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

  test('wiped (restart without persistence): keys without a final value are refused with retryAfterSeconds, final values still answer', async () => {
    const prefix = `wiped:${randomUUID()}:`;
    const store = createRedisStatusStore({ client: clients.nodeRedis!, prefix });
    const other = createRedisStatusStore({ client: clients.ioredis!, prefix });
    const paid = claim();
    await store.claim('paid', paid);
    await other.claim('unrelated', claim());
    await clients.nodeRedis!.sendCommand(['FLUSHALL']);
    // The instance that read 'paid' answers it locally; a late answer written after the loss is shared again.
    assert.equal(await store.settle('paid', paid.token, { value: 'approved', final: true }), 'approved');
    const refused = await Promise.resolve(other.claim('unpaid', claim(T0 + 1000))).catch((caught: unknown) => caught);
    assert.ok(refused instanceof StatusStoreUnavailableError, String(refused));
    assert.ok(refused.retryAfterSeconds! > 30 * 60 - 5 && refused.retryAfterSeconds! <= 31 * 60);
    assert.deepEqual(await other.claim('paid', claim(T0 + 1000)), { status: 'final', value: 'approved' });
    const fresh = createRedisStatusStore({ client: clients.ioredis!, prefix });
    assert.ok((await Promise.resolve(fresh.claim('new', claim(T0 + 2000))).catch((caught: unknown) => caught)) instanceof StatusStoreUnavailableError, 'an instance started after the loss learns of it from Redis');
    const optedOut = createRedisStatusStore({ client: clients.ioredis!, prefix, holdAfterLossMs: 0 });
    assert.equal((await optedOut.claim('unpaid', claim(T0 + 3000))).status, 'claimed', 'holdAfterLossMs: 0 reads at once');
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
