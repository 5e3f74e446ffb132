/**
 * The shopper's return against a bare status read: 200 returns at once, each on
 * its own paid checkout, through `client.handleShopperReturn` with the default
 * memory status store, against 200 bare `fetch` reads of the same status path
 * (on other paid checkouts: a successful read consumes the checkout) in the
 * same run, rounds interleaved; and the same 200 returns spread over three
 * merchant processes sharing one Redis (node-redis and ioredis), against bare
 * reads spread over the same three processes. Three more sides split the
 * return's wait: a bare `fetch` with a timeout signal (the floor of any read
 * that enforces a timeout, as the kit must), the kit's status read alone (its
 * request layer), and a hand-written return (the floor of one that keeps the
 * kit's promises). Each round starts with a fresh client and stores. The
 * gateway (the sandbox) runs in a process of its own, so
 * its work is not counted against either side. Round 1 is cold (fresh process:
 * no connection open, nothing compiled); the rest are warm. Every wave starts
 * after a full garbage collection, so the garbage of making its checkouts
 * lands in no wave. Latencies run from the moment the wave's requests arrive
 * (together) to each one's answer, as a shopper waits; each round's ratio pairs
 * waves a few seconds apart, so the median of those ratios is reported beside
 * the pooled percentiles (it holds still when other jobs load the machine).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DEFAULT_ENTITY_ID, DEFAULT_TOKEN } from 'gw-elements/sandbox';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { createGatewayClient, createMemoryStatusStore } from 'gw-elements/server';
import { startInstance, type Instance } from '../test/redis/instances.js';
import { startRedisServer } from '../test/redis/redis-server.js';
import { median, medianInterval } from './statistics.js';

const TARGET = 1.2;
const CONCURRENT = 200;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
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
/** Made afresh each round (see the rounds below), as is the floor's store. */
const newClient = () => createGatewayClient({ baseUrl: sandbox.url, accessToken: DEFAULT_TOKEN, entityId: DEFAULT_ENTITY_ID });
let client: ReturnType<typeof newClient>;

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

/**
 * `timed`, `read`, `floor` and `bare×3` are baselines too: the floor a timeout costs, the kit's own status read
 * without a store (its request layer's share of a return), the floor of what a return must do besides (the timeout and
 * its three status-store operations, by hand), and bare reads from the Redis side's processes.
 */
type Side = 'bare' | 'timed' | 'read' | 'floor' | 'memory' | 'bare×3' | 'redis';
const SIDES: readonly Side[] = ['bare', 'timed', 'read', 'floor', 'memory', 'bare×3', 'redis'];
const TIMEOUT_MS = 60_000;

/** A bare status read with a timeout, the cheapest way Node offers: one AbortController and one timer. */
async function timedRead(url: string) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    return (await (await fetch(url, { headers, signal: controller.signal })).json()) as { result: { code: string } };
  } finally {
    clearTimeout(timer);
  }
}

let floorStore: ReturnType<typeof createMemoryStatusStore>;

/**
 * The least a shopper return can do and keep its promises, written by hand: a timed read, and the three status-store
 * operations that bind the answer to its checkout and share it (read the checkout's creation record, claim the read,
 * keep the answer). No checks, no typed errors, no lease renewal: what is left of the kit's time above this is overhead.
 */
async function floorRead(id: string, url: string) {
  const key = `status:${DEFAULT_ENTITY_ID}:/v1/checkouts/${id}/payment`;
  await floorStore.read!(`checkout:${id}`);
  const token = crypto.randomUUID();
  const now = Date.now();
  const claimed = await floorStore.claim(key, { token, now, until: now + 10_000, limit: { count: 2, windowMs: 60_000 } });
  if (claimed.status !== 'claimed') throw new Error(`floor: ${claimed.status}`);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const text = await (await fetch(url, { headers, signal: controller.signal })).text();
    await floorStore.settle(key, token, { value: text, final: true });
    return JSON.parse(text) as { result: { code: string } };
  } finally {
    clearTimeout(timer);
  }
}

interface Wave {
  latencies: number[];
  /** This process's CPU per request (µs); undefined for the sides run in the instance processes. */
  cpu?: number;
}

/** Each request's latency in ms; throws unless every read answered the approved payment. */
async function wave(side: Side, checkouts: readonly string[]): Promise<Wave> {
  if (side === 'redis' || side === 'bare×3') {
    const outcomes = (
      await Promise.all(
        instances.map((instance, index) =>
          instance.returns(
            checkouts.filter((_, at) => at % PROCESSES === index),
            1,
            side === 'bare×3',
          ),
        ),
      )
    ).flat();
    const failed = outcomes.filter(({ outcome }) => !outcome.startsWith('approved:'));
    if (failed.length) throw new Error(`${failed.length} ${side} reads not approved: ${failed[0]!.outcome}`);
    return { latencies: outcomes.map(({ ms }) => ms) };
  }
  const cpu = process.cpuUsage();
  // The 200 requests arrive together: each one's wait runs from here. A stamp taken as each call starts would leave
  // out the work done for the calls started before it, which favours whichever side does more before its first await
  // (a bare fetch builds its whole request there; a return awaits the status store first).
  const started = performance.now();
  const latencies = await Promise.all(
    checkouts.map(async (id) => {
      const resourcePath = `/v1/checkouts/${id}/payment`;
      const url = `${sandbox.url}${resourcePath}?entityId=${DEFAULT_ENTITY_ID}`;
      const answer =
        side === 'bare'
          ? ((await (await fetch(url, { headers })).json()) as { result: { code: string } })
          : side === 'timed'
            ? await timedRead(url)
            : side === 'read'
              ? await client.checkouts.getPayment(id)
              : side === 'floor'
                ? await floorRead(id, url)
                : await client.handleShopperReturn({ id, resourcePath });
      const ms = performance.now() - started;
      if (!answer.result.code.startsWith('000.')) throw new Error(`${side}: ${answer.result.code}`);
      return ms;
    }),
  );
  const used = process.cpuUsage(cpu);
  return { latencies, cpu: (used.user + used.system) / checkouts.length };
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

const rounds: Map<Side, Wave>[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const waves = new Map<Side, Wave>();
  // Fresh stores each round: a round's returns never wait on what earlier rounds kept, and any BENCH_ROUNDS stays
  // within the memory store's byte bound (a few dozen rounds of 200 kept answers would reach it and be refused).
  client = newClient();
  floorStore = createMemoryStatusStore();
  // Rotate the order so no side always meets a warmer (or busier) gateway.
  for (let index = 0; index < SIDES.length; index++) {
    const side = SIDES[(round + index) % SIDES.length]!;
    const checkouts = await paidCheckouts(CONCURRENT);
    (globalThis as { gc?: () => void }).gc?.();
    waves.set(side, await wave(side, checkouts));
  }
  rounds.push(waves);
}

const LABELS: Record<Side, string> = {
  bare: 'bare fetch (baseline)',
  timed: 'bare fetch with a timeout signal (the floor of a read that enforces a timeout)',
  read: "the kit's status read alone, no store (checkouts.getPayment)",
  floor: 'bare fetch with a timeout signal and the three status-store operations, by hand (the floor of a shopper return)',
  memory: 'handleShopperReturn, memory store',
  'bare×3': `bare fetch from ${PROCESSES} processes (baseline of the Redis side)`,
  redis: `handleShopperReturn, Redis shared by ${PROCESSES} processes`,
};
const BASELINE: Record<Side, Side | undefined> = {
  bare: undefined,
  timed: 'bare',
  read: 'bare',
  floor: 'bare',
  memory: 'bare',
  'bare×3': undefined,
  redis: 'bare×3',
};

console.log(
  `${CONCURRENT} concurrent shopper returns, each on its own paid checkout, vs ${CONCURRENT} concurrent bare status reads (fetch); round 1 cold, ${ROUNDS - 1} warm; p50 and p99 of each request's wait from the wave's arrival, ratio to the baseline pooled over the rounds [median of each round's ratio]:`,
);
for (const phase of ['cold', 'warm'] as const) {
  const chosen = phase === 'cold' ? rounds.slice(0, 1) : rounds.slice(1);
  const pooled = (side: Side) => chosen.flatMap((waves) => waves.get(side)!.latencies);
  /** Each round's percentile `p` of `side` over the same round's of `base`: paired waves a few seconds apart. */
  const roundRatios = (side: Side, base: Side, p: number) =>
    chosen.map((waves) => percentile(waves.get(side)!.latencies, p) / percentile(waves.get(base)!.latencies, p));
  console.log(`  ${phase} (${chosen.length} round${chosen.length > 1 ? 's' : ''} of ${CONCURRENT}):`);
  for (const side of SIDES) {
    const values = pooled(side);
    const base = BASELINE[side];
    const parts = [50, 99].map((p) => {
      const ms = `p${p} ${percentile(values, p).toFixed(1)} ms`;
      if (!base) return ms;
      const ratio = percentile(values, p) / percentile(pooled(base), p);
      const perRound = median(roundRatios(side, base, p));
      return `${ms} (${ratio.toFixed(2)}× [${perRound.toFixed(2)}×])`;
    });
    const cpus = chosen.map((waves) => waves.get(side)!.cpu).filter((cpu): cpu is number => cpu !== undefined);
    const cpu = cpus.length ? `, this process's CPU ${median(cpus).toFixed(0)} µs per read` : '';
    const verdict =
      side === 'memory'
        ? `  target ≤ ${TARGET} ${[50, 99].every((p) => percentile(values, p) / percentile(pooled('bare'), p) <= TARGET) ? 'ok' : 'OVER'}`
        : '';
    console.log(`    ${LABELS[side]}: ${parts.join(', ')}${cpu}${verdict}`);
  }
  const redis = pooled('redis');
  const bare = pooled('bare');
  console.log(
    `    (Redis side against the one-process baseline: p50 ${(percentile(redis, 50) / percentile(bare, 50)).toFixed(2)}×, p99 ${(percentile(redis, 99) / percentile(bare, 99)).toFixed(2)}×)`,
  );
  // What the kit costs above the floor: the part that is overhead, not work a return must do.
  const aboveFloor = [50, 99].map((p) => {
    const perRound = median(roundRatios('memory', 'floor', p));
    return `p${p} ${(percentile(pooled('memory'), p) / percentile(pooled('floor'), p)).toFixed(2)}× [${perRound.toFixed(2)}×]`;
  });
  console.log(`    (memory store against the floor of a shopper return: ${aboveFloor.join(', ')})`);
  if (chosen.length > 1) {
    // Where a return's wait goes, step by step: the rounds' paired p50 ratios, their median and its 95% interval.
    const step = (side: Side, base: Side) => {
      const ratios = roundRatios(side, base, 50);
      const { low, high } = medianInterval(ratios);
      return `${side} / ${base} ${median(ratios).toFixed(2)}× (${low.toFixed(2)}–${high.toFixed(2)})`;
    };
    const steps = [step('timed', 'bare'), step('read', 'timed'), step('memory', 'read'), step('floor', 'timed'), step('memory', 'floor')];
    console.log(`    (p50 step by step, median of the rounds' ratios with its 95% interval: ${steps.join(', ')})`);
  }
}

await stopAll();
