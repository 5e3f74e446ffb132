/** The demo merchant keeps its status store on Redis when REDIS_URL is set (README "Running several instances"). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient } from 'redis';
import { PRODUCTS } from '../../demo/server/catalogue.js';
import { startMerchant } from '../../demo/server/merchant.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { payInWidget } from '../server/fixtures.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let sandbox: Sandbox;
let redis: RedisServer;
before(async () => {
  [sandbox, redis] = await Promise.all([startSandbox({ port: 0, quiet: true }), startRedisServer()]);
});
after(async () => {
  await Promise.all([sandbox?.close(), redis?.stop()]);
});

test("with REDIS_URL the demo merchant's paid checkout is remembered in Redis", async () => {
  process.env.REDIS_URL = redis.url;
  const merchant = await startMerchant({
    port: 0,
    gateway: { baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! },
  }).finally(() => {
    delete process.env.REDIS_URL;
  });
  const inspector = createClient({ url: redis.url });
  await inspector.connect();
  try {
    const created = await fetch(`${merchant.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lines: [{ sku: PRODUCTS[0]!.sku, quantity: 1 }] }),
    });
    const { order } = (await created.json()) as { order: { id: string; checkoutId: string } };
    await payInWidget(sandbox, order.checkoutId);
    const resourcePath = `/v1/checkouts/${order.checkoutId}/payment`;
    const paid = await fetch(
      `${merchant.url}/api/orders/${order.id}/payment?${new URLSearchParams({ id: order.checkoutId, resourcePath })}`,
    );
    assert.equal(paid.status, 200, await paid.clone().text());
    // Remembered under the entity it was read on.
    const final = await inspector.hGet(`gw-elements:status:${sandbox.entities[0]!}:${resourcePath}`, 'final');
    assert.equal((JSON.parse(final ?? '{}') as { ndc?: string }).ndc, order.checkoutId);
  } finally {
    await Promise.all([merchant.close(), inspector.close()]);
  }
});
