/** createFulfilment on Redis: the shared suite with both clients (three merchant processes at once: instances.test.ts). */
import { randomUUID } from 'node:crypto';
import { createRedisStatusStore } from '../../../src/server/index.js';
import { fulfilmentSuite } from './fulfilment.contract.js';
import { useRedisClients } from '../../redis/clients.js';

const clients = useRedisClients();

for (const name of ['nodeRedis', 'ioredis'] as const) {
  fulfilmentSuite(`Redis (${name})`, (timing) =>
    createRedisStatusStore({ client: clients[name]!, prefix: `fulfil:${randomUUID()}:`, ...timing }),
  );
}
