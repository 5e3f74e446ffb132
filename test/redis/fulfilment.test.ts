/** createFulfilment on Redis: the shared suite with both clients (three merchant processes at once: instances.test.ts). */
import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createRedisStatusStore } from '../../src/server/index.js';
import { fulfilmentSuite } from '../server/fulfilment-contract.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
const clients: { nodeRedis?: ReturnType<typeof createClient>; ioredis?: Redis } = {};
before(async () => {
  server = await startRedisServer();
  clients.nodeRedis = createClient({ url: server.url });
  await clients.nodeRedis.connect();
  clients.ioredis = new Redis(server.url);
});
after(async () => {
  clients.nodeRedis?.destroy();
  clients.ioredis?.disconnect();
  await server.stop();
});

for (const name of ['nodeRedis', 'ioredis'] as const) {
  fulfilmentSuite(`Redis (${name})`, (timing) => createRedisStatusStore({ client: clients[name]!, prefix: `fulfil:${randomUUID()}:`, ...timing }));
}
