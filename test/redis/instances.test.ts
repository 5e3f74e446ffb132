/**
 * Several merchant instances, each its own process with its own Redis connection
 * (node-redis and ioredis): they fulfil the same payments at once, then answer
 * concurrent shopper returns on paid and unpaid checkouts while Redis is
 * restarted (killed, back empty). The sandbox's request log is the witness of
 * how many status calls the gateway saw.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { STATUS_CALLS_PER_MINUTE } from '../../src/server/index.js';
import { clientFor, payInWidget } from '../server/fixtures.js';
import type { ReturnOutcome } from './instance.js';
import { startInstance, type Instance } from './instances.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let sandbox: Sandbox;
let redis: RedisServer;
let instances: Instance[] = [];

before(async () => {
  [sandbox, redis] = await Promise.all([startSandbox({ port: 0, quiet: true }), startRedisServer()]);
  instances = await Promise.all(
    (['redis', 'ioredis', 'redis'] as const).map((client) => startInstance(sandbox, { url: redis.url, client })),
  );
});
after(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await Promise.all([sandbox?.close(), redis?.stop()]);
});

const PER_INSTANCE = 8;

async function newCheckouts(count: number, paid: boolean): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const { id } = await clientFor(sandbox).client.checkouts.create({ amount: '25.00', currency: 'EUR', paymentType: 'DB' });
      if (paid) await payInWidget(sandbox, id);
      return id;
    }),
  );
}

const statusCalls = (checkoutId: string) =>
  sandbox.requests().filter((entry) => entry.method === 'GET' && entry.path === `/v1/checkouts/${checkoutId}/payment`).length;

/** Every instance sends PER_INSTANCE returns for each checkout, all at once. */
async function wave(checkouts: readonly string[]): Promise<Map<string, string[]>> {
  const answers = (await Promise.all(instances.map((instance) => instance.returns(checkouts, PER_INSTANCE)))).flat();
  const byCheckout = new Map<string, string[]>();
  for (const { checkoutId, outcome } of answers as ReturnOutcome[])
    byCheckout.set(checkoutId, [...(byCheckout.get(checkoutId) ?? []), outcome]);
  return byCheckout;
}

const count = (outcomes: readonly string[], predicate: (outcome: string) => boolean) => outcomes.filter(predicate).length;
const approved = (outcome: string) => outcome.startsWith('approved:');

test('fulfilment: 3 processes × 10 arrivals at once for each of 5 payments: each handler ran exactly once in total', async () => {
  const paymentIds = Array.from({ length: 5 }, () => randomUUID().replaceAll('-', ''));
  const answers = await Promise.all(instances.map((instance) => instance.fulfil(paymentIds, 10)));
  for (const paymentId of paymentIds)
    assert.equal(
      answers.reduce((sum, { runs }) => sum + (runs[paymentId] ?? 0), 0),
      1,
      paymentId,
    );
  const outcomes = answers.flatMap((answer) => answer.outcomes);
  assert.equal(outcomes.filter((outcome) => outcome === 'fulfilled').length, 5);
  assert.equal(outcomes.filter((outcome) => outcome === 'already-fulfilled').length, 3 * 10 * 5 - 5, outcomes.join());
});

test(
  '3 instances × 8 concurrent returns per checkout, a Redis restart in the middle: each checkout read at most as allowed, every paid shopper told paid or "try again", never "expired"',
  { timeout: 120_000 },
  async () => {
    const paid = await newCheckouts(4, true);
    const unpaid = await newCheckouts(2, false);
    const returns = instances.length * PER_INSTANCE;

    // 1. Redis up: 24 returns per checkout, 1 status call per paid checkout, every return approved with the same payment.
    const first = await wave([...paid, ...unpaid]);
    const paymentOf = new Map<string, string>();
    for (const checkoutId of paid) {
      const outcomes = first.get(checkoutId)!;
      assert.equal(count(outcomes, approved), returns, outcomes.join());
      assert.equal(new Set(outcomes).size, 1, 'one payment for everyone');
      paymentOf.set(checkoutId, outcomes[0]!);
      assert.equal(statusCalls(checkoutId), 1, `status calls of paid checkout ${checkoutId}`);
    }
    for (const checkoutId of unpaid) {
      const outcomes = first.get(checkoutId)!;
      assert.equal(
        count(outcomes, (outcome) => outcome === '000.200.000' || outcome === 'GatewayThrottledError'),
        returns,
        outcomes.join(),
      );
      assert.ok(statusCalls(checkoutId) <= STATUS_CALLS_PER_MINUTE);
    }

    // 2. Redis killed and restarted empty while returns are under way (old paid checkouts, newly paid ones, unpaid ones).
    const paidDuringRestart = await newCheckouts(2, true);
    const during = wave([...paid, ...paidDuringRestart, ...unpaid]);
    const restarted = new Promise((resolve) => setTimeout(resolve, 5)).then(() => redis.restart());
    const [second] = await Promise.all([during, restarted]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the clients reconnect
    const paidAfterRestart = await newCheckouts(1, true);
    const third = await wave([...paid, ...paidDuringRestart, ...paidAfterRestart, ...unpaid]);

    const allowed = new Set(['GatewayThrottledError', 'StatusStoreUnavailableError', 'StatusUnknownError']);
    for (const results of [second, third]) {
      for (const [checkoutId, outcomes] of results) {
        for (const outcome of outcomes) {
          const expectedApproval = paymentOf.get(checkoutId);
          const fine =
            allowed.has(outcome) ||
            (approved(outcome) && (!expectedApproval || outcome === expectedApproval)) ||
            (unpaid.includes(checkoutId) && outcome === '000.200.000');
          assert.ok(fine, `${checkoutId}: ${outcome}`);
        }
      }
    }
    // Every instance kept the payments it had answered: the restart costs them nothing.
    for (const checkoutId of paid) assert.equal(count(third.get(checkoutId)!, approved), returns, third.get(checkoutId)!.join());
    for (const checkoutId of paid) assert.ok(statusCalls(checkoutId) <= 1, `${checkoutId}: ${statusCalls(checkoutId)} status calls`);
    // A checkout read while Redis lost its data: the loss took the counted calls with it, so the limit holds on each side of it.
    for (const checkoutId of paidDuringRestart)
      assert.ok(statusCalls(checkoutId) <= 2 * STATUS_CALLS_PER_MINUTE, `${checkoutId}: ${statusCalls(checkoutId)} status calls`);
    // Redis came back without its data: a checkout nobody read before is read once and answered; one read before the loss is
    // never "expired" (its "no payment session found" is unknown: the store did not see it created).
    assert.equal(statusCalls(paidAfterRestart[0]!), 1);
    assert.ok(third.get(paidAfterRestart[0]!)!.every(approved), third.get(paidAfterRestart[0]!)!.join());
    // The loss took the limit's counters with it: at most the limit before it and the limit after it.
    for (const checkoutId of unpaid)
      assert.ok(statusCalls(checkoutId) <= 2 * STATUS_CALLS_PER_MINUTE, `${checkoutId}: ${statusCalls(checkoutId)} status calls`);
  },
);
