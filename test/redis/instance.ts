/**
 * One merchant back-end instance for test/redis/instances.test.ts and the
 * benchmark, run as its own process: its own Redis connection (node-redis or
 * ioredis, by REDIS_CLIENT), several gateway clients sharing one status store
 * (the workers of one instance). Asked over IPC to handle shopper returns at
 * once, it answers each one's outcome and how long it took.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import {
  createFulfilment,
  createGatewayClient,
  createMemoryStatusStore,
  createRedisStatusStore,
  GatewayError,
  isApproved,
  type RedisClientLike,
  type StatusStore,
} from 'gw-elements/server';

export interface ReturnsRequest {
  readonly id: number;
  /** Each checkout id (or `/v1/payments/{id}` resource path) and how many returns it gets from this instance at once. */
  readonly checkouts: readonly string[];
  readonly perCheckout: number;
  /** A bare `fetch` of each checkout's status instead of `handleShopperReturn`: the benchmark's baseline in the same processes. */
  readonly bare?: boolean;
}

/** Fulfil each payment id (approved) `perPayment` times at once; answers how often this instance's handler ran for each. */
export interface FulfilRequest {
  readonly id: number;
  readonly fulfil: readonly string[];
  readonly perPayment: number;
}

export interface ReturnOutcome {
  readonly checkoutId: string;
  /** `approved:<payment id>`, a pending code, or the error's class name. */
  readonly outcome: string;
  /** From the moment the batch of returns arrived at the instance (all at once) to this one's outcome. */
  readonly ms: number;
}

const env = (name: string) => process.env[name] ?? '';

async function connect(): Promise<RedisClientLike | undefined> {
  if (!env('REDIS_URL')) return undefined;
  if (env('REDIS_CLIENT') === 'ioredis') {
    const client = new Redis(env('REDIS_URL'), { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    client.on('error', () => undefined); // reconnects by itself; the store reports unavailability per operation
    return client;
  }
  const client = createClient({ url: env('REDIS_URL'), socket: { reconnectStrategy: 50 } });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

const redis = await connect();
const statusStore: StatusStore = redis
  ? createRedisStatusStore({ client: redis, prefix: env('REDIS_PREFIX'), timeoutMs: 3000, claimMs: 3000 })
  : createMemoryStatusStore();
const workers = Array.from({ length: 4 }, () =>
  createGatewayClient({
    baseUrl: env('SANDBOX_URL'),
    accessToken: env('SANDBOX_TOKEN'),
    entityId: env('SANDBOX_ENTITY'),
    statusStore,
    timeoutMs: 5000,
  }),
);

const bareHeaders = { authorization: `Bearer ${env('SANDBOX_TOKEN')}`, accept: 'application/json' };

/** The bare status read the benchmark compares with: what a hand-written return handler without any store would send. */
async function bareRead(checkoutId: string, started: number): Promise<ReturnOutcome> {
  const url = `${env('SANDBOX_URL')}/v1/checkouts/${checkoutId}/payment?entityId=${env('SANDBOX_ENTITY')}`;
  const answer = (await (await fetch(url, { headers: bareHeaders })).json()) as { id?: string; result: { code: string } };
  return {
    checkoutId,
    outcome: isApproved(answer.result.code) ? `approved:${answer.id}` : answer.result.code,
    ms: performance.now() - started,
  };
}

async function handle(checkoutId: string, worker: number, started: number): Promise<ReturnOutcome> {
  const query = checkoutId.startsWith('/')
    ? { resourcePath: checkoutId }
    : { id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` };
  try {
    const payment = await workers[worker % workers.length]!.handleShopperReturn(query);
    return {
      checkoutId,
      outcome: isApproved(payment.result.code) ? `approved:${payment.id}` : payment.result.code,
      ms: performance.now() - started,
    };
  } catch (error) {
    const name = error instanceof GatewayError ? error.name : `untyped ${String(error)}`;
    return { checkoutId, outcome: name, ms: performance.now() - started };
  }
}

const fulfilment = createFulfilment({ store: statusStore });

async function fulfil({ id, fulfil: paymentIds, perPayment }: FulfilRequest) {
  const runs: Record<string, number> = {};
  const ship = async (payment: { id: string }) => {
    runs[payment.id] = (runs[payment.id] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const outcomes = await Promise.all(
    paymentIds.flatMap((paymentId) =>
      Array.from({ length: perPayment }, () =>
        fulfilment.fulfilOnce({ id: paymentId, result: { code: '000.100.110', description: '' } }, ship).then(
          (outcome) => outcome.status,
          (error: unknown) => (error instanceof GatewayError ? error.name : `untyped ${String(error)}`),
        ),
      ),
    ),
  );
  process.send!({ id, runs, outcomes });
}

process.on('message', async (request: ReturnsRequest | FulfilRequest | 'exit') => {
  if (request === 'exit') process.exit(0);
  if ('fulfil' in request) return fulfil(request);
  // Every return of the batch arrives now: each one's time runs from here, not from when its turn came to start
  // (a start stamp taken per call would leave out the work done for the calls started before it).
  const arrived = performance.now();
  const outcomes = await Promise.all(
    request.checkouts.flatMap((checkoutId) =>
      Array.from({ length: request.perCheckout }, (_, index) =>
        request.bare ? bareRead(checkoutId, arrived) : handle(checkoutId, index, arrived),
      ),
    ),
  );
  process.send!({ id: request.id, outcomes });
});
// Warm up as a running server would be (connection open, scripts loaded, code compiled) before the measured returns.
await statusStore.settle(`warm-up:${process.pid}`, 'warm-up', {});
await workers[0]!.handleShopperReturn({ resourcePath: '/v1/payments/00000000000000000000000000000000' }).catch(() => undefined);
process.send!('ready');
