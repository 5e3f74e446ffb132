/**
 * The README's "Running several instances" example (docs/examples/server/several-instances.ts)
 * against the sandbox and a real Redis: two instances, each with its own Redis
 * connection, answer a burst of shopper returns with one status call.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { instanceApp } from '../../docs/examples/server/several-instances.js';
import type { Order } from '../../docs/examples/server/shop.js';
import { createClient } from 'redis';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { payInWidget } from '../server/fixtures.js';
import { startRedisServer, type RedisServer } from '../redis/redis-server.js';

let sandbox: Sandbox;
let redis: RedisServer;
before(async () => {
  [sandbox, redis] = await Promise.all([startSandbox({ port: 0, quiet: true }), startRedisServer()]);
});
after(async () => {
  await Promise.all([sandbox?.close(), redis?.stop()]);
});

test('two Express instances on one Redis: 12 returns at once, split between them, all paid from 1 status call; Redis too slow: 429 retry and no status call', async () => {
  const orders = new Map<string, Order>([['order-1', { amount: '49.99', currency: 'EUR' }]]);
  const checkoutOrders = new Map<string, Order>();
  const gateway = { baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! };
  const instances = await Promise.all(
    [1, 2].map(async () => {
      const { app, close } = await instanceApp(gateway, redis.url, orders, checkoutOrders, {
        baseUrl: sandbox.url,
        shopperResultUrl: '/order/result',
        elementScript: '/assets/checkout.js',
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      return {
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: async () => Promise.all([close(), new Promise((resolve) => server.close(resolve))]),
      };
    }),
  );
  try {
    const created = await fetch(`${instances[0]!.base}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'order-1' }),
    });
    const { checkoutId } = (await created.json()) as { checkoutId: string };
    await payInWidget(sandbox, checkoutId);
    const query = new URLSearchParams({ id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` });
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const response = await fetch(`${instances[index % 2]!.base}/payment-result?${query}`);
        return { status: response.status, body: (await response.json()) as { status: string } };
      }),
    );
    assert.deepEqual(new Set(answers.map((answer) => `${answer.status} ${answer.body.status}`)), new Set(['200 paid']));
    assert.equal(sandbox.requests().filter((entry) => entry.path === `/v1/checkouts/${checkoutId}/payment`).length, 1);

    // Redis too slow (paused longer than the store's 2 s timeout): the shopper is asked to retry (429, Retry-After), nothing is sent to the gateway.
    const again = await fetch(`${instances[1]!.base}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'order-1' }),
    });
    const next = ((await again.json()) as { checkoutId: string }).checkoutId;
    await payInWidget(sandbox, next);
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.sendCommand(['CLIENT', 'PAUSE', '3000', 'ALL']);
    const retry = await fetch(
      `${instances[0]!.base}/payment-result?${new URLSearchParams({ id: next, resourcePath: `/v1/checkouts/${next}/payment` })}`,
    );
    assert.equal(retry.status, 429);
    assert.ok(Number(retry.headers.get('retry-after')) > 0);
    assert.equal(sandbox.requests().filter((entry) => entry.path === `/v1/checkouts/${next}/payment`).length, 0);
    admin.destroy();
  } finally {
    await Promise.all(instances.map((instance) => instance.close()));
  }
});
