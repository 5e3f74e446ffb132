/**
 * Model-based test of the demo's orders (issue 19, class 4): a shopper pays an
 * order in the widget, with and without a 3-D Secure challenge, lets checkouts
 * expire, presses "Start again" while a challenge on the old checkout is still
 * open and finishes it late, returns to the shop (or closes the tab), on either
 * of two instances or both at once, which restart; notifications arrive; the
 * gateway's report fails now and then. Invariants, on the
 * gateway's own records: an order is paid at most once net (any second
 * approved charge is refunded, exactly once), it is paid once whenever any
 * charge was approved, every shopper return is answered 200, and a shopper
 * whose charge was refunded is told so. "Start again" is also sent twice under
 * one Idempotency-Key to both instances at once: it makes at most one checkout.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { toCents } from '../../src/contract/amount.js';
import { CARDS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { approved, paymentsOf, Shop, type Answer } from './support.js';

const NOTIFICATION_SECRET = 'a'.repeat(64);
const RESULT_URL = 'https://shop.example/result.html';

let sandbox: Sandbox;

before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});

after(async () => {
  await sandbox?.close();
});

interface Challenge {
  readonly paymentId: string;
  readonly session: string;
  done: boolean;
}

interface Real {
  readonly shop: Shop;
  readonly orderId: string;
  readonly amount: string;
  checkoutId: string;
  readonly challenges: Challenge[];
}

interface Model {
  readonly problems: string[];
}

async function widgetPayment(checkoutId: string, cardNumber: string): Promise<Answer> {
  const form = new URLSearchParams({
    paymentBrand: 'VISA',
    'card.number': cardNumber,
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '12',
    'card.expiryYear': String(new Date().getUTCFullYear() + 2),
    'card.cvv': '123',
    shopperResultUrl: `${RESULT_URL}?order=x`,
  });
  const response = await fetch(`${sandbox.url}/v1/checkouts/${checkoutId}/widget/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

function postForm(url: string, fields: Iterable<[string, string]>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([...fields]),
  });
}

/** The approved refunds and reversals the gateway made of `paymentId`, and how many such requests it refused. */
function undoneOf(paymentId: string): { approved: number; refused: number } {
  const undos = sandbox
    .requests()
    .filter(
      (request) =>
        request.method === 'POST' &&
        request.path === `/v1/payments/${paymentId}` &&
        ['RF', 'RV'].includes(request.params.paymentType ?? ''),
    );
  const done = undos.filter((request) => approved({ result: { code: request.resultCode ?? '' } })).length;
  return { approved: done, refused: undos.length - done };
}

/** The shopper back at the shop from `checkoutId` (the widget's redirect), on `instance`. */
async function shopperReturn(model: Model, real: Real, instance: number, checkoutId: string, paymentId?: string): Promise<void> {
  const query = new URLSearchParams({ id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` });
  const answer = await real.shop.call(instance, 'GET', `/api/orders/${real.orderId}/payment?${query}`);
  // The gateway failing the shop (its report answered HTTP 500) is a 502 that says so; nothing else may fail a return.
  const reportFailed = (answer.body.calls as { path: string; status: number }[] | undefined)?.some(
    (call) => call.path.startsWith('/v3/query') && call.status === 500,
  );
  if (answer.status === 502 && reportFailed) return;
  if (answer.status !== 200) {
    model.problems.push(`return from ${checkoutId}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
    return;
  }
  // A shopper whose own charge was refunded (the order was paid by another) is told so.
  if (paymentId && undoneOf(paymentId).approved > 0 && answer.body.outcome !== 'refunded') {
    model.problems.push(
      `return from ${checkoutId}: the shopper's charge was refunded, but the answer is ${answer.body.outcome}: ${answer.body.message}`,
    );
  }
}

class PayNow implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly cardNumber: string,
    readonly instance: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const paid = await widgetPayment(real.checkoutId, this.cardNumber);
    // The widget refuses an expired or already paid checkout: the shopper sees that in the widget and never returns.
    if (paid.status !== 200) return;
    await shopperReturn(model, real, this.instance, real.checkoutId, paid.body.id);
  }
  toString = () => `payNow(${this.cardNumber === CARDS.approved ? 'approved' : 'declined'}, ${this.instance})`;
}

/** The shopper pays with a challenge card and leaves the issuer's challenge open. */
class BeginChallenge implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    const pending = await widgetPayment(real.checkoutId, CARDS.challengeNoMethod);
    if (pending.status !== 200) return;
    const acs = await postForm(
      pending.body.redirect.url,
      pending.body.redirect.parameters.map(({ name, value }: { name: string; value: string }) => [name, value]),
    );
    const session = /name="threeDSSessionData" value="([^"]*)"/.exec(await acs.text())?.[1];
    assert.ok(session, 'the ACS page carries the 3-D Secure session');
    real.challenges.push({ paymentId: pending.body.id, session, done: false });
  }
  toString = () => 'beginChallenge';
}

/** The shopper finishes an open challenge (late, perhaps), and comes back to the shop unless the tab was closed. */
class CompleteChallenge implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly which: number,
    readonly returns: 'never' | 'once' | 'both tabs',
    readonly instance: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const open = real.challenges.filter((challenge) => !challenge.done);
    const challenge = open[this.which % Math.max(1, open.length)];
    if (!challenge) return;
    challenge.done = true;
    const answer = await postForm(`${sandbox.url}/v1/threeDSecure/challenge`, [
      ['threeDSSessionData', challenge.session],
      ['outcome', 'complete'],
    ]);
    assert.equal(answer.status, 303, 'the issuer sends the shopper back to the shop');
    const back = new URL(answer.headers.get('location')!);
    const checkoutId = back.searchParams.get('id')!;
    if (this.returns === 'both tabs') {
      // The shopper's return arrives on both instances at once (a reload in a second tab) while the reconciliation job runs.
      await Promise.all([
        shopperReturn(model, real, 0, checkoutId, challenge.paymentId),
        shopperReturn(model, real, 1, checkoutId, challenge.paymentId),
        real.shop.call(this.instance, 'POST', `/api/orders/${real.orderId}/reconcile`),
      ]);
    } else if (this.returns === 'once') {
      await shopperReturn(model, real, this.instance, checkoutId, challenge.paymentId);
    }
  }
  toString = () => `completeChallenge(${this.which}, returns=${this.returns}, ${this.instance})`;
}

/** The gateway's clock moves on: checkouts expire after 30 minutes, 3-D Secure attempts 30 minutes after they began. */
class Wait implements fc.AsyncCommand<Model, Real> {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run() {
    sandbox.clock.advance(this.minutes * 60);
  }
  toString = () => `wait(${this.minutes} min)`;
}

/** "Start again": a new checkout for the order. Refused only for an order that is paid. */
class StartAgain implements fc.AsyncCommand<Model, Real> {
  constructor(readonly instance: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const answer = await real.shop.call(this.instance, 'POST', `/api/orders/${real.orderId}/checkout`);
    if (answer.status === 200) real.checkoutId = answer.body.order.checkoutId;
    else if (!(answer.status === 400 && /paid/.test(answer.body.error)))
      model.problems.push(`start again: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
  }
  toString = () => `startAgain(${this.instance})`;
}

/**
 * "Start again" sent twice under one Idempotency-Key, to both instances at once (the page's retry after a lost answer,
 * a proxy replaying it): at most one new checkout at the gateway, every answer that has one names the same, and the
 * other is 409 (the first still running) or the first answer again.
 */
class StartAgainSentTwice implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    const created = () => sandbox.requests().filter((request) => request.method === 'POST' && request.path === '/v1/checkouts').length;
    const before = created();
    const key = `start-again-${real.orderId}-${before}`;
    const answers = await Promise.all(
      [0, 1].map((index) => real.shop.call(index, 'POST', `/api/orders/${real.orderId}/checkout`, undefined, key)),
    );
    if (created() - before > 1) model.problems.push(`start again sent twice under one key: ${created() - before} checkouts created`);
    const named = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.order.checkoutId as string));
    if (named.size > 1) model.problems.push(`start again sent twice under one key: answered with ${named.size} checkouts`);
    for (const answer of answers)
      if (answer.status !== 200 && answer.status !== 409 && !(answer.status === 400 && /paid/.test(answer.body.error)))
        model.problems.push(`start again sent twice: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`);
    const [checkoutId] = named;
    if (checkoutId) real.checkoutId = checkoutId;
  }
  toString = () => 'startAgainSentTwice';
}

/** The gateway's report fails its next `count` look-ups (HTTP 500): whoever needed it must say so, or leave the charge for later. */
class ReportDown implements fc.AsyncCommand<Model, Real> {
  constructor(readonly count: number) {}
  check = () => true;
  async run() {
    sandbox.fault('/v3/query', 'error', this.count);
  }
  toString = () => `reportDown(${this.count})`;
}

class DeliverNotifications implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run() {
    await sandbox.notifications.idle();
  }
  toString = () => 'deliverNotifications';
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
const payNow = fc
  .tuple(fc.constantFrom(CARDS.approved, CARDS.approved, CARDS.declined), instance)
  .map(([card, index]) => new PayNow(card, index));
const completeChallenge = fc
  .tuple(fc.nat(3), fc.constantFrom('never', 'once', 'both tabs'), instance)
  .map(([which, returns, index]) => new CompleteChallenge(which, returns, index));
const startAgain = instance.map((index) => new StartAgain(index));
const commands = fc.commands(
  [
    // The steps of the race come twice: a late challenge, "start again" and a second payment must meet often.
    payNow,
    payNow,
    fc.constant(new BeginChallenge()),
    fc.constant(new BeginChallenge()),
    completeChallenge,
    completeChallenge,
    startAgain,
    startAgain,
    fc.constant(new StartAgainSentTwice()),
    fc.constantFrom(10, 25, 31).map((minutes) => new Wait(minutes)),
    fc.constant(new DeliverNotifications()),
    fc.integer({ min: 1, max: 3 }).map((count) => new ReportDown(count)),
    instance.map((index) => new Restart(index)),
  ],
  { maxCommands: 16, size: 'medium' },
);

test('an order is paid at most once net: a second approved charge is found and refunded once, and its shopper is told so', async () => {
  await fc.assert(
    fc.asyncProperty(commands, async (steps) => {
      sandbox.reset();
      const shop = await new Shop(sandbox, { notificationSecret: NOTIFICATION_SECRET }).open(2);
      try {
        const created = await shop.call(0, 'POST', '/api/orders', { lines: [{ sku: 'espresso-beans', quantity: 1 }] });
        assert.equal(created.status, 200);
        const { id: orderId, amount, checkoutId } = created.body.order;
        const real: Real = { shop, orderId, amount, checkoutId, challenges: [] };
        const model: Model = { problems: [] };
        await fc.asyncModelRun(() => ({ model, real }), steps);
        // The faults are over. The shop's reconciliation job (or any later report of a charge) finds what no shopper came back for.
        sandbox.fault('/v3/query', 'error', 0);
        await sandbox.notifications.idle();
        const reconciled = await shop.call(1, 'POST', `/api/orders/${orderId}/reconcile`);
        assert.equal(reconciled.status, 200, JSON.stringify(reconciled.body).slice(0, 300));
        assert.deepEqual(model.problems, [], 'every shopper return and "start again" is answered as it should be');

        const charges = (await paymentsOf(sandbox, orderId)).filter((payment) => payment.paymentType === 'DB' && approved(payment));
        let net = 0;
        for (const charge of charges) {
          const undone = undoneOf(charge.id);
          assert.ok(undone.approved <= 1, `charge ${charge.id} refunded ${undone.approved} times`);
          assert.equal(undone.refused, 0, `a refund of ${charge.id} was sent again and refused`);
          net += undone.approved ? 0 : toCents(charge.amount);
        }
        assert.equal(
          net,
          charges.length ? toCents(amount) : 0,
          `${charges.length} approved charges leave ${net} cents paid for an order of ${amount}`,
        );
        const { body } = await shop.call(0, 'GET', `/api/orders/${orderId}`);
        assert.equal(
          body.order.status === 'paid',
          charges.length > 0,
          `the order reads ${body.order.status} with ${charges.length} approved charges`,
        );
      } finally {
        await shop.close();
      }
    }),
    { numRuns: 80 },
  );
});
