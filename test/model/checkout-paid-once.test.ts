/**
 * Model-based test: a checkout of the sandbox is paid once, whichever of its records the store drops for room. One
 * sandbox with tiny limits takes random interleavings of checkouts, shoppers paying them in the widget (approving,
 * declining and challenge cards), challenges completed late, floods of server-to-server payments and of checkouts
 * (which push the oldest records out, the paying payment or the checkout first), and clock moves.
 *
 * Invariants, after every command:
 * - paid once: no checkout has two approved attempts, by the answers and by the read-back of every attempt the model
 *   saw approved (an attempt refused as a duplicate is never approved later);
 * - shape: every answer is the gateway's JSON with a result code, never HTTP 500.
 *
 * The seed is printed; GW_MODEL_SEED replays it, GW_MODEL_RUNS sets the runs.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { isApproved, RESULT_CODES } from '../../src/contract/result-codes.js';
import { CARDS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cardPayment, threeDsFields } from '../../src/sandbox/fixtures.js';
import { browserCall, call, formFields, postForm, widgetCard, type Answer } from '../sandbox/support.js';

const SEED = process.env.GW_MODEL_SEED ? Number(process.env.GW_MODEL_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.GW_MODEL_RUNS ?? 80);

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, limits: { checkouts: 4, payments: 6 } });
});
after(() => sandbox.close());

interface Attempt {
  readonly id: string;
  readonly redirect?: { url: string; parameters: { name: string; value: string }[] };
}

interface Model {
  /** The checkouts made, each with its attempts and the one the model saw approved. */
  readonly checkouts: { readonly id: string; readonly attempts: Attempt[]; approved?: string }[];
}

type Command = fc.AsyncCommand<Model, object>;

function wellFormed(answer: Answer, what: string): void {
  assert.ok(answer.status < 500, `${what}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  assert.match(String(answer.body?.result?.code), /^\d{3}\.\d{3}\.\d{3}$/, `${what}: ${JSON.stringify(answer.body).slice(0, 200)}`);
}

/** An attempt the gateway approved: the checkout's first, or a violation. */
function approvedAttempt(checkout: Model['checkouts'][number], id: string, what: string): void {
  assert.ok(
    checkout.approved === undefined || checkout.approved === id,
    `${what}: ${checkout.id} paid twice (${checkout.approved}, ${id})`,
  );
  checkout.approved = id;
}

const newCheckout = async () => {
  const answer = await call(sandbox, 'POST', '/v1/checkouts', {
    amount: '5.00',
    currency: 'EUR',
    paymentType: 'DB',
    integrity: 'true',
    ...threeDsFields(),
  });
  wellFormed(answer, 'checkout');
  return answer.body.id as string;
};

class MakeCheckout implements Command {
  check = () => true;
  async run(model: Model) {
    model.checkouts.push({ id: await newCheckout(), attempts: [] });
  }
  toString = () => 'checkout';
}

class ShopperPays implements Command {
  constructor(
    readonly pick: number,
    readonly card: 'approved' | 'declined' | 'challengeNoMethod',
  ) {}
  check = (model: Model) => model.checkouts.length > 0;
  async run(model: Model) {
    const checkout = model.checkouts[this.pick % model.checkouts.length]!;
    const answer = await browserCall(sandbox, 'POST', `/v1/checkouts/${checkout.id}/widget/payments`, widgetCard(CARDS[this.card]));
    wellFormed(answer, String(this));
    if (typeof answer.body.id !== 'string') return;
    checkout.attempts.push({ id: answer.body.id, ...(answer.body.redirect ? { redirect: answer.body.redirect } : {}) });
    if (isApproved(answer.body.result.code)) approvedAttempt(checkout, answer.body.id, String(this));
  }
  toString = () => `pay checkout ${this.pick} with ${this.card}`;
}

class CompleteChallenge implements Command {
  constructor(readonly pick: number) {}
  check = (model: Model) => model.checkouts.some((checkout) => checkout.attempts.some((attempt) => attempt.redirect));
  async run(model: Model) {
    const open = model.checkouts.flatMap((checkout) =>
      checkout.attempts.filter((attempt) => attempt.redirect).map((attempt) => ({ checkout, attempt })),
    );
    const { checkout, attempt } = open[this.pick % open.length]!;
    const acs = await postForm(attempt.redirect!.url, attempt.redirect!.parameters);
    const fields = Object.entries(formFields(await acs.text())).map(([name, value]) => ({ name, value }));
    if (fields.length) await postForm(`${sandbox.url}/v1/threeDSecure/challenge`, [...fields, { name: 'outcome', value: 'complete' }]);
    const read = await call(sandbox, 'GET', `/v1/payments/${attempt.id}`);
    wellFormed(read, String(this));
    if (read.status === 200 && isApproved(read.body.result.code)) approvedAttempt(checkout, attempt.id, String(this));
  }
  toString = () => `complete challenge ${this.pick}`;
}

/** Other merchants' payments or checkouts, enough to push the oldest records of that kind out. */
class Flood implements Command {
  constructor(
    readonly kind: 'payments' | 'checkouts',
    readonly count: number,
  ) {}
  check = () => true;
  async run() {
    for (let i = 0; i < this.count; i++)
      if (this.kind === 'checkouts') await newCheckout();
      else wellFormed(await call(sandbox, 'POST', '/v1/payments', cardPayment()), String(this));
  }
  toString = () => `${this.count} other ${this.kind}`;
}

class Clock implements Command {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run() {
    sandbox.clock.advance(this.seconds);
  }
  toString = () => `clock +${this.seconds} s`;
}

/** Every attempt the model saw approved reads back approved or gone, never refused; and no other attempt is approved. */
async function checkPaidOnce(model: Model): Promise<void> {
  for (const checkout of model.checkouts)
    for (const attempt of checkout.attempts) {
      const read = await call(sandbox, 'GET', `/v1/payments/${attempt.id}`);
      wellFormed(read, `read back ${attempt.id}`);
      if (read.status !== 200) {
        assert.equal(read.body.result.code, RESULT_CODES.transactionNotFound, `read back ${attempt.id}`);
        continue;
      }
      if (isApproved(read.body.result.code)) approvedAttempt(checkout, attempt.id, `read back ${attempt.id}`);
    }
}

const commands = fc.commands(
  [
    fc.constant(new MakeCheckout()),
    ...[1, 2].map(() =>
      fc
        .tuple(fc.nat(), fc.constantFrom('approved' as const, 'declined' as const, 'challengeNoMethod' as const))
        .map(([pick, card]) => new ShopperPays(pick, card)),
    ),
    fc.nat().map((pick) => new CompleteChallenge(pick)),
    fc
      .tuple(fc.constantFrom('payments' as const, 'checkouts' as const), fc.integer({ min: 1, max: 7 }))
      .map(([kind, count]) => new Flood(kind, count)),
    fc.constantFrom(60, 29 * 60).map((seconds) => new Clock(seconds)),
  ],
  { maxCommands: 30, size: 'max' },
);

test('a checkout is paid once, whichever of its records the sandbox drops for room', { timeout: 180_000 }, async () => {
  console.log(`checkout-paid-once model: seed ${SEED} (GW_MODEL_SEED=${SEED} replays it), ${RUNS} runs`);
  await fc.assert(
    fc.asyncProperty(commands, async (sequence) => {
      sandbox.reset();
      const model: Model = { checkouts: [] };
      await fc.asyncModelRun(() => ({ model, real: {} }), sequence);
      await checkPaidOnce(model);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

test('a checkout dropped for room while two of its attempts wait for their challenges is still paid once', async () => {
  // The shrunk counterexample of a fresh-clone run (seed 461937363): the checkout's record went for room, so the first
  // challenge completed could not mark the other attempt, and both paid it. The attempts are found by their own records now.
  sandbox.reset();
  const model: Model = { checkouts: [] };
  await fc.asyncModelRun(
    () => ({ model, real: {} }),
    [
      new MakeCheckout(),
      new ShopperPays(0, 'challengeNoMethod'),
      new ShopperPays(0, 'challengeNoMethod'),
      new Flood('checkouts', 4),
      new CompleteChallenge(1),
      new CompleteChallenge(0),
    ],
  );
  await checkPaidOnce(model);
});
