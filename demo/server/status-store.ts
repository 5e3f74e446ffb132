/**
 * The demo merchant's status store: on Redis when REDIS_URL is set, so several
 * demo merchants can answer for the same checkouts (README "Running several
 * instances"), in this process's memory otherwise.
 */
import { createClient } from 'redis';
import { createRedisStatusStore, type StatusStore } from 'gw-elements/server';

export async function demoStatusStore(
  inMemory: StatusStore,
  redisUrl = process.env.REDIS_URL,
): Promise<{ store: StatusStore; close(): Promise<void> }> {
  if (!redisUrl) return { store: inMemory, close: async () => undefined };
  const client = createClient({ url: redisUrl });
  client.on('error', (error: Error) => console.error('demo merchant: redis:', error.message)); // it reconnects by itself
  await client.connect();
  return { store: createRedisStatusStore({ client }), close: () => client.close() };
}
