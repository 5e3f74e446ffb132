/**
 * Sandbox throughput and memory. Requests per second for create-checkout and
 * get-payment over loopback, each against a bare node:http server (reads the
 * body, answers a fixed JSON) measured in the same run; then heap after a
 * million checkouts created through the sandbox's request core, against the
 * heap of an empty sandbox.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../src/sandbox/index.js';
import { route } from '../src/sandbox/http/routes.js';
import { createSandboxState } from '../src/sandbox/state.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
/** Subject and baseline alternate this many times; the best of each counts, so a busy moment on the machine hurts neither alone. */
const ROUNDS = 3;
const IN_FLIGHT = 32;
const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 1_000_000);

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

function send(base: string, token: string, call: Call): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${base}${call.path}`,
      {
        method: call.method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(call.body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(call.body) } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(call.body);
  });
}

/** Requests per second with IN_FLIGHT requests always outstanding; every answer must be HTTP 200. */
async function throughput(base: string, token: string, call: Call): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const status = await send(base, token, call);
      if (status !== 200) throw new Error(`${call.method} ${call.path} answered ${status}`);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return done / ((performance.now() - started) / 1000);
}

async function bareServer(): Promise<{ url: string; close(): void }> {
  const body = JSON.stringify({ result: { code: '000.200.100', description: 'successfully created checkout' }, id: '0'.repeat(32) });
  const server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const format = (value: number) => Math.round(value).toLocaleString('en-US');
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function measureThroughput(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  const bare = await bareServer();
  const token = sandbox.tokens[0]!;
  const entityId = sandbox.entities[0]!;
  const createCheckout: Call = { method: 'POST', path: '/v1/checkouts', body: new URLSearchParams({ entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }).toString() };
  const payment = await fetch(`${sandbox.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: new URLSearchParams({
      entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones',
      'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123', 'customer.email': 'jane@example.com', 'customer.ip': '192.168.0.1',
    }),
  }).then((response) => response.json() as Promise<{ id: string }>);
  const getPayment: Call = { method: 'GET', path: `/v1/payments/${payment.id}?entityId=${entityId}` };

  for (const [name, call] of [['create checkout (POST /v1/checkouts)', createCheckout], ['get payment (GET /v1/payments/{id})', getPayment]] as const) {
    await throughput(sandbox.url, token, call); // warm-up
    let baseline = 0;
    let subject = 0;
    for (let round = 0; round < ROUNDS; round++) {
      baseline = Math.max(baseline, await throughput(bare.url, token, call));
      subject = Math.max(subject, await throughput(sandbox.url, token, call));
    }
    console.log(`${name}: sandbox ${format(subject)} req/s, bare node:http ${format(baseline)} req/s, ratio ${(subject / baseline).toFixed(2)}`);
  }
  agent.destroy();
  bare.close();
  await sandbox.close();
}

function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

function measureMemory(): void {
  const token = 'bench-token';
  const entityId = '8ac7a4c79394bdc801939736f17e063d';
  const state = createSandboxState({ tokens: [token], entities: [entityId] });
  const baseline = heapAfterGc();
  const started = performance.now();
  for (let i = 0; i < CHECKOUTS; i++) {
    const params = { entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', integrity: 'true', merchantTransactionId: `order-${i}` };
    const { reply } = route(state, { method: 'POST', path: '/v1/checkouts', params, authorization: `Bearer ${token}` });
    if (reply.kind !== 'json' || reply.status !== 200) throw new Error('checkout creation failed');
  }
  const seconds = (performance.now() - started) / 1000;
  const after = heapAfterGc();
  console.log(
    `memory after ${format(CHECKOUTS)} created checkouts: heap ${megabytes(after)} vs ${megabytes(baseline)} for an empty sandbox ` +
      `(+${megabytes(after - baseline)}, ${format(state.store.checkouts.size)} checkouts kept by the limit); ` +
      `${format(CHECKOUTS / seconds)} checkouts/s in-process`,
  );
  if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc, as npm run bench does, for exact heap figures)');
}

await measureThroughput();
measureMemory();
