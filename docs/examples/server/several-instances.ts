/**
 * One of several instances behind a load balancer: the same Express routes,
 * with the client's shared state (who is reading a checkout's status, the
 * 2-a-minute limit, the first approved payment) on Redis. node-redis here;
 * an ioredis client is passed the same way.
 */
import { createClient } from 'redis';
import { createGatewayClient, createRedisStatusStore, type GatewayClientOptions } from 'gw-elements/server';
import { expressApp } from './express.js';
import type { Order, PaymentPage } from './shop.js';

export async function instanceApp(
  gateway: Pick<GatewayClientOptions, 'baseUrl' | 'accessToken' | 'entityId'>,
  redisUrl: string,
  orders: ReadonlyMap<string, Order>,
  checkoutOrders: Map<string, Order>, // your order database, shared by every instance
  page: PaymentPage,
) {
  const redis = createClient({ url: redisUrl });
  redis.on('error', (error) => console.error('redis:', error.message)); // it reconnects by itself
  await redis.connect();
  const client = createGatewayClient({ ...gateway, statusStore: createRedisStatusStore({ client: redis }) });
  return { app: expressApp(client, orders, page, checkoutOrders), close: () => redis.close() };
}
