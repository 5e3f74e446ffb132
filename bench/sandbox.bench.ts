/**
 * Sandbox throughput and memory, through the public API only. Requests per
 * second for get-payment and create-checkout over loopback against the
 * sandbox (`startSandbox`) and against a bare node:http server (reads the
 * body, answers a fixed JSON of similar size), measured alternately in the
 * same run, best of ROUNDS each. The load comes from bench/load-generator.ts
 * in its own process: a generator in the servers' own process takes event-loop
 * time from both and flatters the slower one (docs/development.md, Benchmarks,
 * has the figures either way). Beside the rates, the CPU time each process
 * spends per request, which a busy machine distorts far less than wall-clock
 * rates. Then the sandbox process's heap
 * after CHECKOUTS checkouts created over HTTP, against its heap when empty.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LIMITS, startSandbox } from 'gw-elements/sandbox';
import type { Load, LoadResult } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
/** Subject and baseline alternate this many times; the best of each counts, so a busy moment on the machine hurts neither alone. */
const ROUNDS = 3;
const IN_FLIGHT = 32;
/** Checkouts created over HTTP before the heap is read: above the 50,000 kept, so the store's limit is what the figure shows. */
const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 60_000);

type Call = Pick<Load, 'method' | 'path' | 'body'>;

const generator: ChildProcess = fork(fileURLToPath(new URL('./load-generator.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });

async function load(base: string, token: string, call: Call, limits: Pick<Load, 'seconds' | 'requests'>): Promise<LoadResult> {
  generator.send({ base, token, ...call, inFlight: IN_FLIGHT, ...limits } satisfies Load);
  const [result] = (await once(generator, 'message')) as [LoadResult];
  if (result.failure) throw new Error(result.failure);
  return result;
}

interface Measure {
  /** Requests per second. */
  readonly rate: number;
  /** CPU time (user and system) the servers' process spent per request, in µs: the machine's load stretches wall time, much less this. */
  readonly cpu: number;
  /** The same in the load generator's process. */
  readonly generatorCpu: number;
}

async function throughput(base: string, token: string, call: Call): Promise<Measure> {
  const before = process.cpuUsage();
  const { requests, seconds, cpu: generatorCpu } = await load(base, token, call, { seconds: SECONDS });
  const { user, system } = process.cpuUsage(before);
  return { rate: requests / seconds, cpu: (user + system) / requests, generatorCpu };
}

/** The better of two measures on each count: most requests per second, least CPU per request. */
const best = (a: Measure, b: Measure): Measure => ({
  rate: Math.max(a.rate, b.rate),
  cpu: Math.min(a.cpu, b.cpu),
  generatorCpu: Math.min(a.generatorCpu, b.generatorCpu),
});

/** Answers a GET with `read` and anything else with `created`, fixed bytes of the sizes the sandbox answers. */
async function bareServer(read: string, created: string): Promise<{ url: string; close(): void }> {
  const server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () => {
      const body = incoming.method === 'GET' ? read : created;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const format = (value: number) => Math.round(value).toLocaleString('en-US');
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

const sandbox = await startSandbox({ port: 0, quiet: true });
const token = sandbox.tokens[0]!;
const entityId = sandbox.entities[0]!;
const emptyHeap = heapAfterGc();

const createCheckout: Call = {
  method: 'POST',
  path: '/v1/checkouts',
  body: `${new URLSearchParams({ entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' })}&merchantTransactionId=order-{n}`,
};
const paymentAnswer = await fetch(`${sandbox.url}/v1/payments`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}` },
  body: new URLSearchParams({
    entityId,
    amount: '92.00',
    currency: 'EUR',
    paymentType: 'DB',
    paymentBrand: 'VISA',
    'card.number': '4200000000000000',
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': '2034',
    'card.cvv': '123',
    'customer.email': 'jane@example.com',
    'customer.ip': '192.168.0.1',
  }),
}).then((response) => response.text());
const paymentId = (JSON.parse(paymentAnswer) as { id: string }).id;
const getPayment: Call = { method: 'GET', path: `/v1/payments/${paymentId}?entityId=${entityId}` };
const checkoutAnswer = await fetch(`${sandbox.url}/v1/checkouts`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: createCheckout.body!.replace('{n}', 'sizing'),
}).then((response) => response.text());
// The bare server answers as many bytes as the sandbox does, so both sides write alike.
const padded = (answer: string) => JSON.stringify({ id: paymentId, padding: 'x'.repeat(Math.max(0, answer.length - 60)) });
const bare = await bareServer(padded(paymentAnswer), padded(checkoutAnswer));

console.log(
  `load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')} on this machine; ${IN_FLIGHT} requests in flight from a separate process, best of ${ROUNDS} × ${SECONDS} s`,
);
for (const [name, call] of [
  ['get payment (GET /v1/payments/{id})', getPayment],
  ['create checkout (POST /v1/checkouts)', createCheckout],
] as const) {
  await throughput(sandbox.url, token, call); // warm-up
  let baseline: Measure = { rate: 0, cpu: Infinity, generatorCpu: Infinity };
  let subject: Measure = { rate: 0, cpu: Infinity, generatorCpu: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    baseline = best(baseline, await throughput(bare.url, token, call));
    subject = best(subject, await throughput(sandbox.url, token, call));
  }
  console.log(
    `${name}: sandbox ${format(subject.rate)} req/s, bare node:http ${format(baseline.rate)} req/s, ratio ${(subject.rate / baseline.rate).toFixed(2)}; ` +
      `server CPU per request ${format(subject.cpu)} µs vs ${format(baseline.cpu)} µs (bare/sandbox ${(baseline.cpu / subject.cpu).toFixed(2)}); ` +
      `generator CPU per request ${format(subject.generatorCpu)} µs vs ${format(baseline.generatorCpu)} µs`,
  );
}
bare.close();

// Memory: CHECKOUTS more checkouts over HTTP (beyond those of the rounds above), more than the store keeps.
await load(sandbox.url, token, createCheckout, { seconds: 600, requests: CHECKOUTS });
const stats = sandbox.stats();
const heap = heapAfterGc();
console.log(
  `memory after the rounds and ${format(CHECKOUTS)} more checkouts created over HTTP: heap ${megabytes(heap)} vs ${megabytes(emptyHeap)} for the empty sandbox ` +
    `(+${megabytes(heap - emptyHeap)}; ${format(stats.checkouts)} checkouts kept, the limit being ${format(DEFAULT_LIMITS.checkouts)}; store ${megabytes(stats.storeBytes)}, request log ${megabytes(stats.logBytes)})`,
);
if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc, as npm run bench does, for exact heap figures)');

generator.disconnect();
await sandbox.close();
