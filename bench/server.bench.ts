/**
 * The server helper's cost: (1) overhead per request against a bare `fetch`
 * doing the same call to the same sandbox in the same run (target < 5%), runs
 * interleaved so drift hits both sides alike; (2) the minified, gzipped size
 * of the `gw-elements/server` entry (target < 8 KB).
 */
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { DEFAULT_ENTITY_ID, DEFAULT_TOKEN } from '../src/sandbox/index.js';
import { CARDS } from '../src/sandbox/triggers.js';
import { createGatewayClient, type CardPaymentRequest } from '../src/server/index.js';

const OVERHEAD_TARGET = 0.05;
const SIZE_TARGET_BYTES = 8 * 1024;
const ROUNDS = 30;
const PER_ROUND = 40;

// The sandbox runs in its own process, as a gateway would, so its work is not counted against either side.
const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
let banner = '';
while (!/http:\/\/[\d.]+:\d+/.test(banner)) banner += String((await once(child.stdout, 'data'))[0]);
const sandbox = { url: /http:\/\/[\d.]+:\d+/.exec(banner)![0] };
const token = DEFAULT_TOKEN;
const entityId = DEFAULT_ENTITY_ID;
const client = createGatewayClient({ baseUrl: sandbox.url, accessToken: token, entityId });

const payment: CardPaymentRequest = {
  amount: '92.00',
  currency: 'EUR',
  paymentType: 'DB',
  paymentBrand: 'VISA',
  card: { number: CARDS.approved, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: '123' },
  customer: { email: 'jane.jones@example.com', ip: '192.0.2.10' },
};
const created = await client.payments.create(payment);
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
const formHeaders = { ...headers, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };
const flatPayment = {
  entityId,
  amount: '92.00',
  currency: 'EUR',
  paymentType: 'DB',
  paymentBrand: 'VISA',
  'card.number': CARDS.approved,
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
  'customer.email': 'jane.jones@example.com',
  'customer.ip': '192.0.2.10',
};

/**
 * The client's own work per request, without the network: the same calls over
 * a fetch that answers a recorded body at once, against that fetch alone. This
 * holds still on a busy machine, where round trips do not.
 */
async function ownWorkMicroseconds(path: string, call: (offline: ReturnType<typeof createGatewayClient>) => Promise<unknown>): Promise<number> {
  const recorded = await (await fetch(`${sandbox.url}${path}?entityId=${entityId}`, { headers })).text();
  const answer: typeof fetch = async () => new Response(recorded, { status: 200, headers: { 'content-type': 'application/json' } });
  const offline = createGatewayClient({ baseUrl: sandbox.url, accessToken: token, entityId, fetch: answer });
  const times = { client: 0, bare: 0 };
  for (let round = 0; round < 10; round++) {
    let started = performance.now();
    for (let i = 0; i < 1000; i++) await call(offline);
    times.client += performance.now() - started;
    started = performance.now();
    for (let i = 0; i < 1000; i++) await (await answer(sandbox.url, { headers })).json();
    times.bare += performance.now() - started;
  }
  return ((times.client - times.bare) / 10_000) * 1000;
}

/** Each case: the client's call and the bare fetch that does the same on the wire. */
const cases = {
  'GET /v1/payments/{id}': {
    own: () => ownWorkMicroseconds(`/v1/payments/${created.id}`, (offline) => offline.payments.get(created.id)),
    client: () => client.payments.get(created.id),
    bare: async () => (await fetch(`${sandbox.url}/v1/payments/${created.id}?entityId=${entityId}`, { headers })).json(),
  },
  'POST /v1/payments (validated, reconcilable)': {
    own: () => ownWorkMicroseconds(`/v1/payments/${created.id}`, (offline) => offline.payments.create({ ...payment, merchantTransactionId: crypto.randomUUID() })),
    client: () => client.payments.create({ ...payment, merchantTransactionId: crypto.randomUUID() }),
    bare: async () =>
      (await fetch(`${sandbox.url}/v1/payments`, { method: 'POST', headers: formHeaders, body: new URLSearchParams({ ...flatPayment, merchantTransactionId: crypto.randomUUID() }) })).json(),
  },
};

async function timeBatch(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < PER_ROUND; i++) await run();
  return (performance.now() - started) / PER_ROUND;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(`request overhead (${ROUNDS} interleaved rounds of ${PER_ROUND} requests, median per request)`);
for (const [name, { client: viaClient, bare, own }] of Object.entries(cases)) {
  for (let i = 0; i < 20; i++) {
    await viaClient();
    await bare();
  }
  const clientTimes: number[] = [];
  const bareTimes: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which side goes first so neither always meets a warmer server.
    const [first, second] = round % 2 ? [bare, viaClient] : [viaClient, bare];
    const a = await timeBatch(first);
    const b = await timeBatch(second);
    const [c, f] = round % 2 ? [b, a] : [a, b];
    clientTimes.push(c);
    bareTimes.push(f);
    ratios.push(c / f);
  }
  const overhead = median(ratios) - 1;
  console.log(
    `  ${name}: client ${median(clientTimes).toFixed(3)} ms, bare fetch ${median(bareTimes).toFixed(3)} ms, ` +
      `ratio ${(1 + overhead).toFixed(3)} (overhead ${(overhead * 100).toFixed(1)}%, target < ${OVERHEAD_TARGET * 100}%) ${overhead < OVERHEAD_TARGET ? 'OK' : 'OVER'}`,
  );
  const microseconds = await own();
  const share = microseconds / 1000 / median(bareTimes);
  console.log(`    the client's own work: ${microseconds.toFixed(1)} µs per request = ${(share * 100).toFixed(1)}% of the bare round trip ${share < OVERHEAD_TARGET ? 'OK' : 'OVER'}`);
}
child.kill();

const bundle = await build({ entryPoints: ['src/server/index.ts'], bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false });
const minified = bundle.outputFiles[0]!.contents;
const gzipped = gzipSync(minified, { level: 9 }).length;
console.log(
  `server entry size: ${minified.length} B minified, ${gzipped} B gzip; ${(gzipped / SIZE_TARGET_BYTES).toFixed(2)} of the ${SIZE_TARGET_BYTES} B target ${gzipped < SIZE_TARGET_BYTES ? 'OK' : 'OVER'}`,
);
