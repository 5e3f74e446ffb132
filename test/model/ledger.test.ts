/**
 * Model-based test of the sandbox's ledger of one order, refused transactions
 * included: random payments, cards failing the Luhn check, captures, refunds
 * and reversals (of known, refused and unknown payments, some sent
 * concurrently on one preauthorisation), answers lost on the way back, read-backs
 * and the report by order, against a real sandbox.
 *
 * Invariants, after every command:
 * - every transaction the gateway answered with an id, approved or refused, reads back with its type and code;
 * - a refused transaction moves no money and shows none (no amount), and nothing can capture, refund or reverse it;
 * - captures never sum above their preauthorisation, refunds above their payment, and a reversal excludes both;
 * - the report by order lists exactly the order's transactions, the refused ones and those whose answer was lost too
 *   (a lost answer is found, never "nothing there").
 *
 * GW_MODEL_SEED reproduces a run; GW_MODEL_RUNS sets the number of runs; the seed is printed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { RESULT_CODES } from '../../src/contract/result-codes.js';
import { CARDS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cardPayment } from '../../src/sandbox/fixtures.js';

const RUNS = Number(process.env.GW_MODEL_RUNS ?? 20);
const SEED = process.env.GW_MODEL_SEED ? Number(process.env.GW_MODEL_SEED) : Date.now() % 2 ** 31;
const ORDER = 'ledger-order';
const UNKNOWN = 'f'.repeat(32);
const LUHN_FAILING = `${CARDS.approved.slice(0, -1)}${(Number(CARDS.approved.at(-1)) + 1) % 10}`;
const APPROVED = RESULT_CODES.approvedIntegratorTest;

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
after(() => sandbox.close());

/** One transaction of the order as the model sees it; `id` unknown while its answer is lost and no report has named it. */
interface Entry {
  id?: string;
  readonly type: string;
  readonly code: string;
  readonly cents: number;
  captured: number;
  refunded: number;
  reversed: boolean;
  /** The transaction a capture, refund or reversal refers to. */
  readonly of?: Entry | undefined;
}
interface Model {
  entries: Entry[];
}

async function merchant(method: 'GET' | 'POST', path: string, form: Record<string, string> = {}) {
  const params = new URLSearchParams({ entityId: sandbox.entities[0]!, ...form });
  const response = await fetch(method === 'GET' ? `${sandbox.url}${path}?${params}` : `${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
    ...(method === 'POST' ? { body: params } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const approved = (entry: Entry) => entry.code === APPROVED;

/** The code the gateway must answer a capture, refund or reversal of `target` (undefined: unknown) for `amount` cents. */
function expectedReference(target: Entry | undefined, type: 'CP' | 'RF' | 'RV', amount: number): string {
  if (!target)
    return {
      CP: RESULT_CODES.captureWithoutPreauthorization,
      RF: RESULT_CODES.invalidPaymentData,
      RV: RESULT_CODES.reversalWithoutPayment,
    }[type];
  if (type === 'CP') {
    if (target.type !== 'PA' || !approved(target)) return RESULT_CODES.captureWithoutPreauthorization;
    return target.reversed || target.captured + amount > target.cents ? RESULT_CODES.cannotCapture : APPROVED;
  }
  if (type === 'RF')
    return ['DB', 'CP'].includes(target.type) && approved(target) && !target.reversed && target.refunded + amount <= target.cents
      ? APPROVED
      : RESULT_CODES.cannotRefund;
  // A reversal takes back a preauthorisation, a debit or a capture (the platform's own refusal text names CP).
  return ['PA', 'DB', 'CP'].includes(target.type) && approved(target) && !target.reversed && target.captured === 0 && target.refunded === 0
    ? APPROVED
    : RESULT_CODES.cannotReverse;
}

/** Books a reference's outcome in the model, as the gateway must have. */
function book(model: Model, target: Entry | undefined, type: 'CP' | 'RF' | 'RV', amount: number, code: string, id: string): void {
  if (target && code === APPROVED) {
    if (type === 'CP') target.captured += amount;
    if (type === 'RF') target.refunded += amount;
    if (type === 'RV') {
      target.reversed = true;
      // A reversed capture gives its amount back to its preauthorisation, which may be captured again.
      if (target.type === 'CP' && target.of) target.of.captured -= target.cents;
    }
  }
  model.entries.push({ id, type, code, cents: code === APPROVED ? amount : 0, captured: 0, refunded: 0, reversed: false, of: target });
}

class Pay implements fc.AsyncCommand<Model, object> {
  constructor(
    readonly type: 'PA' | 'DB',
    readonly amount: '10.00' | '25.00',
    readonly luhnFailing: boolean,
    readonly lost: boolean,
  ) {}
  check = () => true;
  async run(model: Model) {
    if (this.lost) sandbox.fault('/v1/payments', 'drop');
    const form = cardPayment({
      paymentType: this.type,
      amount: this.amount,
      merchantTransactionId: ORDER,
      ...(this.luhnFailing ? { 'card.number': LUHN_FAILING } : {}),
    });
    const answer = await merchant('POST', '/v1/payments', form).catch(() => undefined);
    const code = this.luhnFailing ? RESULT_CODES.invalidCard : APPROVED;
    const entry: Entry = {
      type: this.type,
      code,
      cents: this.luhnFailing ? 0 : cents(this.amount),
      captured: 0,
      refunded: 0,
      reversed: false,
    };
    if (this.lost) assert.equal(answer, undefined, 'the answer was dropped');
    else {
      assert.equal(answer!.status, this.luhnFailing ? 400 : 200);
      assert.equal(answer!.body.result.code, code);
      entry.id = answer!.body.id;
    }
    model.entries.push(entry);
  }
  toString = () => `${this.type} ${this.amount}${this.luhnFailing ? ' luhn-failing' : ''}${this.lost ? ' (answer lost)' : ''}`;
}

class Reference implements fc.AsyncCommand<Model, object> {
  constructor(
    readonly pick: number | undefined,
    readonly type: 'CP' | 'RF' | 'RV',
    readonly amount: '5.00' | '10.00',
    readonly concurrent: number,
  ) {}
  check = (model: Model) => this.pick === undefined || model.entries.some((entry) => entry.id !== undefined);
  async run(model: Model) {
    const known = model.entries.filter((entry) => entry.id !== undefined);
    const target = this.pick === undefined ? undefined : known[this.pick % known.length];
    const amount = this.type === 'RV' ? (target?.cents ?? 0) : cents(this.amount);
    const form: Record<string, string> = {
      paymentType: this.type,
      merchantTransactionId: ORDER,
      ...(this.type === 'RV' ? {} : { amount: this.amount, currency: 'EUR' }),
    };
    // Sent at once: the gateway decides them one after the other, each against what the others booked.
    const answers = await Promise.all(
      Array.from({ length: this.concurrent }, () => merchant('POST', `/v1/payments/${target?.id ?? UNKNOWN}`, form)),
    );
    // Decided one after the other, each against what the others booked: approvals come first, then one refusal code.
    const ordered = [...answers].sort((a, b) => Number(b.body.result.code === APPROVED) - Number(a.body.result.code === APPROVED));
    for (const [index, answer] of ordered.entries()) {
      const code = answer.body.result.code;
      assert.equal(code, expectedReference(target, this.type, amount), `${this}: decision ${index + 1} of ${this.concurrent}`);
      assert.equal(answer.status, code === APPROVED ? 200 : 400);
      assert.match(answer.body.id, /^[0-9a-f]{32}$/, 'a refused reference is a transaction with its own id');
      book(model, target, this.type, amount, code, answer.body.id);
    }
  }
  toString = () =>
    `${this.type} ${this.type === 'RV' ? '' : this.amount} of ${this.pick === undefined ? 'an unknown id' : `#${this.pick}`} ×${this.concurrent}`;
}

class ReadBack implements fc.AsyncCommand<Model, object> {
  constructor(readonly pick: number) {}
  check = (model: Model) => model.entries.some((entry) => entry.id !== undefined);
  async run(model: Model) {
    const known = model.entries.filter((entry) => entry.id !== undefined);
    const entry = known[this.pick % known.length]!;
    const read = await merchant('GET', `/v1/payments/${entry.id}`);
    assert.equal(read.status, 200, `read of ${entry.type} ${entry.code}`);
    assert.equal(read.body.paymentType, entry.type);
    assert.equal(read.body.result.code, entry.code);
    if (entry.code === APPROVED) assert.equal(cents(read.body.amount), entry.cents);
    else assert.equal(read.body.amount, undefined, 'a refused transaction shows no money');
  }
  toString = () => `read #${this.pick}`;
}

class Report implements fc.AsyncCommand<Model, object> {
  check = () => true;
  async run(model: Model) {
    const report = await merchant('GET', '/v3/query', { merchantTransactionId: ORDER });
    if (!model.entries.length) {
      assert.equal(report.body.result.code, RESULT_CODES.transactionNotFound);
      return;
    }
    const listed: { id: string; paymentType: string; result: { code: string } }[] = report.body.payments;
    assert.equal(listed.length, model.entries.length, 'every transaction of the order, refused and lost ones included');
    const byId = new Map(listed.map((payment) => [payment.id, payment]));
    const unnamed = listed.filter((payment) => !model.entries.some((entry) => entry.id === payment.id));
    for (const entry of model.entries) {
      // A lost answer's transaction is found by the report: the model learns its id from the one listed of its kind.
      entry.id ??= unnamed.splice(
        unnamed.findIndex((payment) => payment.paymentType === entry.type && payment.result.code === entry.code),
        1,
      )[0]?.id;
      const payment = byId.get(entry.id ?? '');
      assert.ok(payment, `${entry.type} ${entry.code} listed`);
      assert.equal(payment.result.code, entry.code);
      assert.equal(payment.paymentType, entry.type);
    }
  }
  toString = () => 'report by order';
}

test('the ledger of an order: refused transactions are transactions, read back and reported, and move no money', async () => {
  console.log(`# ledger model: seed ${SEED} (replay: GW_MODEL_SEED=${SEED})`);
  const commands = fc.commands(
    [
      fc
        .tuple(fc.constantFrom<'PA' | 'DB'>('PA', 'DB'), fc.constantFrom<'10.00' | '25.00'>('10.00', '25.00'), fc.boolean(), fc.boolean())
        .map(([type, amount, luhn, lost]) => new Pay(type, amount, luhn, lost)),
      fc
        .tuple(
          fc.option(fc.nat(), { freq: 4 }),
          fc.constantFrom<'CP' | 'RF' | 'RV'>('CP', 'RF', 'RV'),
          fc.constantFrom<'5.00' | '10.00'>('5.00', '10.00'),
          fc.integer({ min: 1, max: 4 }),
        )
        .map(([pick, type, amount, concurrent]) => new Reference(pick ?? undefined, type, amount, concurrent)),
      fc.nat().map((pick) => new ReadBack(pick)),
      fc.constant(new Report()),
    ],
    { maxCommands: 16 },
  );
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(commands, async (cmds) => {
      sandbox.reset();
      runs++;
      await fc.asyncModelRun(() => ({ model: { entries: [] }, real: {} }), [...cmds, new Report()]);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  assert.equal(runs >= RUNS, true);
});
