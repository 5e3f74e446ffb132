/**
 * handleShopperReturn under concurrent returns from three merchant processes:
 * the status store in each process's memory (the baseline: nothing shared)
 * against one Redis shared by all three, in the same run, rounds interleaved.
 * Every round: 30 paid checkouts, 24 returns each at once (memory: one process
 * sends all 24 for its own checkouts, since nothing is shared; Redis: each
 * process sends 8), so both sides make one status call per checkout. Then the
 * same returns again (reloads, answered from the store).
 */
import { startSandbox } from 'gw-elements/sandbox';
import { createGatewayClient } from 'gw-elements/server';
import { payInWidget } from '../test/server/fixtures.js';
import type { ReturnOutcome } from '../test/redis/instance.js';
import { startInstance, type Instance } from '../test/redis/instances.js';
import { startRedisServer } from '../test/redis/redis-server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CHECKOUTS = 30;
const RETURNS = 24;
const PROCESSES = 3;

// The request log must hold every request of the run: it is the witness of the status calls.
const sandbox = await startSandbox({ port: 0, quiet: true, limits: { logEntries: 20_000, logBytes: 64 * 1024 * 1024 } });
const redis = await startRedisServer();
const client = createGatewayClient({ baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! });
const start = (store: 'memory' | 'redis') =>
  Promise.all(
    Array.from({ length: PROCESSES }, (_, index) =>
      startInstance(sandbox, store === 'redis' ? { url: redis.url, client: index % 2 ? 'ioredis' : 'redis' } : undefined),
    ),
  );
const fleets: Record<'memory' | 'redis', Instance[]> = { memory: await start('memory'), redis: await start('redis') };

async function paidCheckouts(): Promise<string[]> {
  return Promise.all(
    Array.from({ length: CHECKOUTS }, async () => {
      const { id } = await client.checkouts.create({ amount: '25.00', currency: 'EUR', paymentType: 'DB' });
      await payInWidget(sandbox, id);
      return id;
    }),
  );
}

/** One wave of returns: who sends what depends on whether the processes share a store. */
function wave(store: 'memory' | 'redis', checkouts: readonly string[]): Promise<ReturnOutcome[][]> {
  const instances = fleets[store];
  return Promise.all(
    instances.map((instance, index) =>
      store === 'redis'
        ? instance.returns(checkouts, RETURNS / PROCESSES)
        : instance.returns(
            checkouts.filter((_, checkout) => checkout % PROCESSES === index),
            RETURNS,
          ),
    ),
  );
}

const samples = { memory: { first: [] as number[], reload: [] as number[] }, redis: { first: [] as number[], reload: [] as number[] } };
let failures = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const store of round % 2 ? (['redis', 'memory'] as const) : (['memory', 'redis'] as const)) {
    const checkouts = await paidCheckouts();
    for (const kind of ['first', 'reload'] as const) {
      const outcomes = (await wave(store, checkouts)).flat();
      failures += outcomes.filter(({ outcome }) => !outcome.startsWith('approved:')).length;
      samples[store][kind].push(...outcomes.map(({ ms }) => ms));
    }
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const statusCalls = sandbox
  .requests()
  .filter((entry) => entry.method === 'GET' && /^\/v1\/checkouts\/[^/]+\/payment$/.test(entry.path)).length;
console.log(
  `${PROCESSES} processes, ${ROUNDS} rounds per store, ${CHECKOUTS} paid checkouts × ${RETURNS} concurrent returns per round (+ the same again as reloads)`,
);
for (const kind of ['first', 'reload'] as const) {
  const line = (store: 'memory' | 'redis') =>
    `p50 ${percentile(samples[store][kind], 50).toFixed(2)} ms, p99 ${percentile(samples[store][kind], 99).toFixed(2)} ms`;
  const ratio = (p: number) => (percentile(samples.redis[kind], p) / percentile(samples.memory[kind], p)).toFixed(2);
  console.log(`${kind === 'first' ? 'first returns (1 status call per checkout)' : 'reloads (answered from the store)'}:`);
  console.log(`  memory (per process) ${line('memory')}`);
  console.log(`  Redis (shared)       ${line('redis')}   ratio p50 ${ratio(50)}, p99 ${ratio(99)}`);
}
console.log(`status calls the sandbox saw: ${statusCalls} for ${2 * ROUNDS * CHECKOUTS} checkouts; returns not approved: ${failures}`);

await Promise.all([...fleets.memory, ...fleets.redis].map((instance) => instance.stop()));
await Promise.all([sandbox.close(), redis.stop()]);
