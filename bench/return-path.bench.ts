/**
 * The shopper's return against a bare status read: 200 returns at once, each on
 * its own paid checkout, through `client.handleShopperReturn` with the default
 * memory status store, against 200 bare `fetch` reads of the same status path
 * (on other paid checkouts: a successful read consumes the checkout) in the
 * same run, rounds interleaved; and the same 200 returns spread over three
 * merchant processes sharing one Redis (node-redis and ioredis). The gateway
 * (the sandbox) runs in a process of its own, so its work is not counted
 * against either side. Round 1 is cold (fresh process: no connection open,
 * nothing compiled); the rest are warm. Latencies are each request's own.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DEFAULT_ENTITY_ID, DEFAULT_TOKEN } from 'gw-elements/sandbox';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { createGatewayClient } from 'gw-elements/server';
import { startInstance, type Instance } from '../test/redis/instances.js';
import { startRedisServer } from '../test/redis/redis-server.js';

const TARGET = 1.2;
const CONCURRENT = 200;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const PROCESSES = 3;

const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
let banner = '';
while (!/http:\/\/[\d.]+:\d+/.test(banner)) banner += String((await once(child.stdout, 'data'))[0]);
const sandbox = { url: /http:\/\/[\d.]+:\d+/.exec(banner)![0], tokens: [DEFAULT_TOKEN], entities: [DEFAULT_ENTITY_ID] };
const headers = { authorization: `Bearer ${DEFAULT_TOKEN}`, accept: 'application/json' };
const redis = await startRedisServer();
const instances: Instance[] = await Promise.all(
  Array.from({ length: PROCESSES }, (_, index) =>
    startInstance(sandbox as never, { url: redis.url, client: index % 2 ? 'ioredis' : 'redis', prefix: 'bench:' }),
  ),
);
const client = createGatewayClient({ baseUrl: sandbox.url, accessToken: DEFAULT_TOKEN, entityId: DEFAULT_ENTITY_ID });

/** Paid checkouts, made over plain HTTP as the merchant and the shopper's widget would. */
async function paidCheckouts(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let batch = 0; batch < count; batch += 20) {
    ids.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, count - batch) }, async () => {
          const created = (await (
            await fetch(`${sandbox.url}/v1/checkouts`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
              body: new URLSearchParams({
                entityId: DEFAULT_ENTITY_ID,
                amount: '25.00',
                currency: 'EUR',
                paymentType: 'DB',
                integrity: 'true',
              }),
            })
          ).json()) as { id: string };
          const paid = await fetch(`${sandbox.url}/v1/checkouts/${created.id}/widget/payments`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              paymentBrand: 'VISA',
              'card.number': CARDS.approved,
              'card.holder': 'Jane Jones',
              'card.expiryMonth': '05',
              'card.expiryYear': '2034',
              'card.cvv': '123',
            }),
          });
          if (paid.status !== 200) throw new Error(`the widget's payment failed: ${paid.status}`);
          return created.id;
        }),
      )),
    );
  }
  return ids;
}

type Side = 'bare' | 'memory' | 'redis';
const SIDES: readonly Side[] = ['bare', 'memory', 'redis'];

/** Each request's latency in ms; throws unless every read answered the approved payment. */
async function wave(side: Side, checkouts: readonly string[]): Promise<number[]> {
  if (side === 'redis') {
    const outcomes = (
      await Promise.all(
        instances.map((instance, index) =>
          instance.returns(
            checkouts.filter((_, at) => at % PROCESSES === index),
            1,
          ),
        ),
      )
    ).flat();
    const failed = outcomes.filter(({ outcome }) => !outcome.startsWith('approved:'));
    if (failed.length) throw new Error(`${failed.length} Redis returns not approved: ${failed[0]!.outcome}`);
    return outcomes.map(({ ms }) => ms);
  }
  return Promise.all(
    checkouts.map(async (id) => {
      const resourcePath = `/v1/checkouts/${id}/payment`;
      const started = performance.now();
      const answer =
        side === 'bare'
          ? ((await (await fetch(`${sandbox.url}${resourcePath}?entityId=${DEFAULT_ENTITY_ID}`, { headers })).json()) as {
              result: { code: string };
            })
          : await client.handleShopperReturn({ id, resourcePath });
      const ms = performance.now() - started;
      if (!answer.result.code.startsWith('000.')) throw new Error(`${side}: ${answer.result.code}`);
      return ms;
    }),
  );
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

// Whatever happens, the processes this bench started are stopped.
const stopAll = () => Promise.all([...instances.map((instance) => instance.stop()), redis.stop()]).finally(() => child.kill());
process.once('uncaughtException', (error) => {
  console.error(error);
  void stopAll().finally(() => process.exit(1));
});

const samples = { cold: new Map<Side, number[]>(), warm: new Map<Side, number[]>() };
for (let round = 0; round < ROUNDS; round++) {
  const phase = round === 0 ? 'cold' : 'warm';
  // Rotate the order so no side always meets a warmer (or busier) gateway.
  for (let index = 0; index < SIDES.length; index++) {
    const side = SIDES[(round + index) % SIDES.length]!;
    const checkouts = await paidCheckouts(CONCURRENT);
    const latencies = await wave(side, checkouts);
    samples[phase].set(side, [...(samples[phase].get(side) ?? []), ...latencies]);
  }
}

console.log(
  `${CONCURRENT} concurrent shopper returns, each on its own paid checkout, vs ${CONCURRENT} concurrent bare status reads (fetch); round 1 cold, ${ROUNDS - 1} warm; p50 and p99 of each request's latency:`,
);
for (const phase of ['cold', 'warm'] as const) {
  const bare = samples[phase].get('bare')!;
  console.log(`  ${phase}: bare status read p50 ${percentile(bare, 50).toFixed(1)} ms, p99 ${percentile(bare, 99).toFixed(1)} ms`);
  for (const side of ['memory', 'redis'] as const) {
    const values = samples[phase].get(side)!;
    const ratios = [50, 99].map((p) => percentile(values, p) / percentile(bare, p));
    const label = side === 'memory' ? 'handleShopperReturn, memory store' : `handleShopperReturn, Redis shared by ${PROCESSES} processes`;
    const verdict = side === 'memory' ? `  target ≤ ${TARGET} ${ratios.every((ratio) => ratio <= TARGET) ? 'ok' : 'OVER'}` : '';
    console.log(
      `    ${label}: p50 ${percentile(values, 50).toFixed(1)} ms (${ratios[0]!.toFixed(2)}×), p99 ${percentile(values, 99).toFixed(1)} ms (${ratios[1]!.toFixed(2)}×)${verdict}`,
    );
  }
}

await stopAll();
