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
import { DEFAULT_ENTITY_ID, DEFAULT_TOKEN } from 'gw-elements/sandbox';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { createGatewayClient, type CardPaymentRequest } from 'gw-elements/server';
import { cardPayment } from 'gw-elements/sandbox/test-cards';
import { median } from './statistics.js';

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
const recorded = await (await fetch(`${sandbox.url}/v1/payments/${created.id}?entityId=${entityId}`, { headers })).text();
const recordedAnswer = JSON.parse(recorded) as { merchantTransactionId?: string; customParameters?: { GW_REFERENCE?: string } };
const recordedReference = recordedAnswer.customParameters?.GW_REFERENCE;
const recordedOrder = recordedAnswer.merchantTransactionId;
const formHeaders = { ...headers, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };
const flatPayment = { entityId, ...cardPayment() };

/**
 * The client's own work per request, without the network: the same calls over
 * a fetch that answers a recorded body at once, against that fetch alone. This
 * holds still on a busy machine, where round trips do not.
 */
async function ownWorkMicroseconds(call: (offline: ReturnType<typeof createGatewayClient>) => Promise<unknown>): Promise<number> {
  // The gateway echoes a payment POST's own reference (`customParameters[GW_REFERENCE]`) and merchantTransactionId, and
  // the client refuses an answer carrying another's: a POST is answered with the recorded payment under the ones it sent.
  const answer: typeof fetch = async (_url, init) => {
    const form = init?.body instanceof URLSearchParams ? init.body : undefined;
    const sent = form?.get('customParameters[GW_REFERENCE]');
    const order = form?.get('merchantTransactionId');
    let text = sent && recordedReference ? recorded.replace(recordedReference, sent) : recorded;
    if (order && recordedOrder) text = text.replace(`"merchantTransactionId":"${recordedOrder}"`, `"merchantTransactionId":"${order}"`);
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  };
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

/** A fetch with a timeout signal, as any production call needs; undici's abort wiring is most of what the client adds on loopback. */
async function fetchWithTimeout(url: string, init: RequestInit) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
  try {
    return await (await fetch(url, { ...init, signal: controller.signal })).json();
  } finally {
    clearTimeout(timer);
  }
}

const paymentUrl = `${sandbox.url}/v1/payments/${created.id}?entityId=${entityId}`;
const paymentBody = () => new URLSearchParams({ ...flatPayment, merchantTransactionId: crypto.randomUUID() });

/** Each case: the client's call, and bare fetches doing the same on the wire without and with a timeout signal. */
const cases = {
  'GET /v1/payments/{id}': {
    own: () => ownWorkMicroseconds((offline) => offline.payments.get(created.id)),
    client: () => client.payments.get(created.id),
    bare: async () => (await fetch(paymentUrl, { headers })).json(),
    timed: () => fetchWithTimeout(paymentUrl, { headers }),
  },
  // The client generates the merchantTransactionId (a UUID nothing else carries), so no report read precedes the POST;
  // a caller's own merchantTransactionId costs one report read first (README: "Retries and reconciliation").
  'POST /v1/payments (validated, reconcilable)': {
    own: () => ownWorkMicroseconds((offline) => offline.payments.create(payment)),
    client: () => client.payments.create(payment),
    bare: async () => (await fetch(`${sandbox.url}/v1/payments`, { method: 'POST', headers: formHeaders, body: paymentBody() })).json(),
    timed: () => fetchWithTimeout(`${sandbox.url}/v1/payments`, { method: 'POST', headers: formHeaders, body: paymentBody() }),
  },
};

async function timeBatch(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < PER_ROUND; i++) await run();
  return (performance.now() - started) / PER_ROUND;
}

const verdict = (ratio: number) => `${((ratio - 1) * 100).toFixed(1)}% ${ratio - 1 < OVERHEAD_TARGET ? 'OK' : 'OVER'}`;

const roundTrips = new Map<string, number>();
console.log(
  `request overhead (${ROUNDS} interleaved rounds of ${PER_ROUND} requests per side; best batch of each side, since load from other processes only adds time)`,
);
for (const [name, sides] of Object.entries(cases)) {
  const runners = { client: sides.client, bare: sides.bare, timed: sides.timed };
  for (let i = 0; i < 20; i++) for (const run of Object.values(runners)) await run();
  const times: Record<keyof typeof runners, number[]> = { client: [], bare: [], timed: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate which side goes first so none always meets a warmer server.
    const order = (Object.keys(runners) as (keyof typeof runners)[]).map((_, i, keys) => keys[(i + round) % keys.length]!);
    for (const side of order) times[side].push(await timeBatch(runners[side]));
  }
  const best = Object.fromEntries(Object.entries(times).map(([side, values]) => [side, Math.min(...values)])) as Record<
    keyof typeof runners,
    number
  >;
  console.log(
    `  ${name}: client ${best.client.toFixed(3)} ms, bare fetch ${best.bare.toFixed(3)} ms, bare fetch with a timeout signal ${best.timed.toFixed(3)} ms`,
  );
  console.log(
    `    overhead against bare fetch ${verdict(best.client / best.bare)} (target < ${OVERHEAD_TARGET * 100}%); against fetch with a timeout ${verdict(best.client / best.timed)}`,
  );
  roundTrips.set(name, median(times.bare));
}

// Last, because these loops never yield to I/O: sockets the sandbox closes meanwhile would fail the next real request.
console.log("the client's own work per request (no network: a recorded answer)");
for (const [name, { own }] of Object.entries(cases)) {
  const microseconds = await own();
  const share = microseconds / 1000 / roundTrips.get(name)!;
  console.log(
    `  ${name}: ${microseconds.toFixed(1)} µs = ${(share * 100).toFixed(1)}% of the bare loopback round trip ${share < OVERHEAD_TARGET ? 'OK' : 'OVER'}`,
  );
}
child.kill();

const bundle = await build({
  entryPoints: ['src/server/index.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
});
const minified = bundle.outputFiles[0]!.contents;
const gzipped = gzipSync(minified, { level: 9 }).length;
console.log(
  `server entry size: ${minified.length} B minified, ${gzipped} B gzip; ${(gzipped / SIZE_TARGET_BYTES).toFixed(2)} of the ${SIZE_TARGET_BYTES} B target ${gzipped < SIZE_TARGET_BYTES ? 'OK' : 'OVER'}`,
);
