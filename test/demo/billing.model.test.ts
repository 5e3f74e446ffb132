/**
 * Model-based test of the demo's subscription billing (issue 19, class 4):
 * "Next month" runs in any interleaving (one at a time, a double click, two
 * instances at once), answers lost after the gateway charged, instances
 * restarted in between. Invariants, checked on the gateway's own records
 * after every step: each month due is charged at most once, and once the
 * faults stop, every month due is charged exactly once (a charge whose answer
 * was lost is found again by its reference, never made a second time).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createClient } from 'redis';
import { CARDS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createMemoryStatusStore, createRedisStatusStore, type StatusStore } from '../../src/server/index.js';
import { startRedisServer, type RedisServer } from '../redis/redis-server.js';
import { approved, monthsLater, Shop, type Answer } from './support.js';

let sandbox: Sandbox;
let redis: RedisServer;
let redisClient: ReturnType<typeof createClient>;

before(async () => {
  [sandbox, redis] = await Promise.all([startSandbox({ port: 0, quiet: true }), startRedisServer()]);
  redisClient = createClient({ url: redis.url });
  await redisClient.connect();
});

after(async () => {
  redisClient?.destroy();
  await Promise.all([sandbox?.close(), redis?.stop()]);
});

interface Model {
  /** Requests the shop answered with something other than 200. */
  failures: string[];
}

interface Real {
  readonly shop: Shop;
  readonly registrationId: string;
  readonly signedUpAt: number;
}

/** Months due on the gateway's clock since the sign-up (the first month is the sign-up payment). */
function monthsDue(real: Real): number {
  const now = sandbox.clock.now().getTime();
  let months = 0;
  while (monthsLater(real.signedUpAt, months + 1) <= now) months++;
  return months;
}

/** The approved merchant-initiated charges the gateway made on the saved card, whatever the shop thinks. */
function charges(real: Real): number {
  return sandbox
    .requests()
    .filter(
      (request) =>
        request.method === 'POST' &&
        request.path === `/v1/registrations/${real.registrationId}/payments` &&
        approved({ result: { code: request.resultCode ?? '' } }),
    ).length;
}

function checkAtMostOnce(real: Real, step: string): void {
  assert.ok(charges(real) <= monthsDue(real), `${step}: ${charges(real)} charges for ${monthsDue(real)} months due`);
}

/** "Next month" on `instance`: a month on the gateway's clock, then that instance's billing run. */
const nextMonth = (real: Real, instance: number) => real.shop.call(instance, 'POST', '/api/subscriptions/next-month');

function note(model: Model, answers: readonly Answer[]): void {
  for (const answer of answers)
    if (answer.status !== 200) model.failures.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
}

class NextMonth implements fc.AsyncCommand<Model, Real> {
  constructor(readonly instance: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    note(model, [await nextMonth(real, this.instance)]);
    checkAtMostOnce(real, this.toString());
  }
  toString = () => `nextMonth(${this.instance})`;
}

/** The same button pressed twice before the first answer: two runs on one instance at once. */
class DoubleClick implements fc.AsyncCommand<Model, Real> {
  constructor(readonly instance: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    note(model, await Promise.all([nextMonth(real, this.instance), nextMonth(real, this.instance)]));
    checkAtMostOnce(real, this.toString());
  }
  toString = () => `doubleClick(${this.instance})`;
}

/** Two instances run the billing job at the same time. */
class TwoInstances implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    note(model, await Promise.all([nextMonth(real, 0), nextMonth(real, 1)]));
    checkAtMostOnce(real, this.toString());
  }
  toString = () => 'twoInstances';
}

/**
 * The gateway charges the card but its answer is lost (the connection drops);
 * with `lookupsFail` the client's look-ups by reference fail too, so the run
 * cannot know and must leave the month for a later run to find.
 */
class LostAnswer implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly instance: number,
    readonly lookupsFail: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    sandbox.fault(`/v1/registrations/${real.registrationId}/payments`, 'drop', 1);
    if (this.lookupsFail) sandbox.fault('/v3/query', 'error', 100);
    try {
      const answer = await nextMonth(real, this.instance);
      // Not knowing is an answer (200 "uncertain") or the gateway failing the shop (502): never a 500.
      assert.ok([200, 502].includes(answer.status), `${this}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    } finally {
      sandbox.fault(`/v1/registrations/${real.registrationId}/payments`, 'drop', 0);
      sandbox.fault('/v3/query', 'error', 0);
    }
    checkAtMostOnce(real, this.toString());
  }
  toString = () => `lostAnswer(${this.instance}, lookupsFail=${this.lookupsFail})`;
}

class Restart implements fc.AsyncCommand<Model, Real> {
  constructor(readonly instance: number) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    await real.shop.restart(this.instance);
  }
  toString = () => `restart(${this.instance})`;
}

const instance = fc.constantFrom(0, 1);
const commands = fc.commands(
  [
    instance.map((index) => new NextMonth(index)),
    instance.map((index) => new DoubleClick(index)),
    fc.constant(new TwoInstances()),
    fc.tuple(instance, fc.boolean()).map(([index, lookupsFail]) => new LostAnswer(index, lookupsFail)),
    instance.map((index) => new Restart(index)),
  ],
  { maxCommands: 6 },
);

/** Each run on a fresh store: the memory store every instance of one process shares, or Redis as separate processes would. */
const STORES: readonly { name: string; fresh: () => Promise<StatusStore>; runs: number }[] = [
  { name: 'memory', fresh: async () => createMemoryStatusStore(), runs: 25 },
  {
    name: 'Redis',
    fresh: async () => createRedisStatusStore({ client: redisClient, prefix: `billing-${globalThis.crypto.randomUUID()}:` }),
    runs: 10,
  },
];

for (const { name, fresh, runs } of STORES) {
  test(`${name} store: each month due is charged at most once, whatever the interleaving of runs, lost answers and restarts; then exactly once`, async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (steps) => {
        sandbox.reset();
        const shop = await new Shop(sandbox, { store: await fresh() }).open(2);
        try {
          const signedUpAt = sandbox.clock.now().getTime();
          const signUp = await shop.call(0, 'POST', '/api/subscriptions', { cardNumber: CARDS.approved, holder: 'Jane Jones' });
          assert.equal(signUp.body.outcome, 'approved', JSON.stringify(signUp.body).slice(0, 300));
          const real: Real = { shop, registrationId: signUp.body.subscription.registrationId, signedUpAt };
          const model: Model = { failures: [] };
          await fc.asyncModelRun(() => ({ model, real }), steps);
          // The faults are over: one more run charges every month still open, once (the lost ones are found, not charged again).
          note(model, [await nextMonth(real, 0)]);
          assert.deepEqual(model.failures, [], 'every billing run is answered 200');
          assert.equal(charges(real), monthsDue(real), `after the faults: ${charges(real)} charges for ${monthsDue(real)} months due`);
          const { body } = await shop.call(1, 'GET', '/api/subscriptions');
          assert.equal(
            body.subscriptions[0].monthsFulfilled,
            monthsDue(real) + 1,
            'one month of coffee per approved payment (the sign-up included)',
          );
        } finally {
          await shop.close();
        }
      }),
      { numRuns: runs },
    );
  });
}
