/**
 * One redis-server per test file with a connected client of each library the
 * Redis store supports (node-redis and ioredis), started before the file's
 * tests and stopped after.
 */
import { after, before } from 'node:test';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { startRedisServer, type RedisServer } from './redis-server.js';

export interface RedisClients {
  server?: RedisServer;
  nodeRedis?: ReturnType<typeof createClient>;
  ioredis?: Redis;
}

/** Registers the file's before/after hooks; the returned object is filled once `before` has run. */
export function useRedisClients(): RedisClients {
  const clients: RedisClients = {};
  before(async () => {
    clients.server = await startRedisServer();
    clients.nodeRedis = createClient({ url: clients.server.url });
    await clients.nodeRedis.connect();
    clients.ioredis = new Redis(clients.server.url);
  });
  after(async () => {
    clients.nodeRedis?.destroy();
    clients.ioredis?.disconnect();
    await clients.server?.stop();
  });
  return clients;
}
