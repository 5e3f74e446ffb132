/**
 * Model-based test of saved cards (registrations) through the real client
 * against a real sandbox: cards stored (some answers lost on the way back),
 * deleted (some deletes sent concurrently, some answers lost, some of ids that
 * never existed), charged (live and deleted cards, cards that decline, answers
 * lost and reconciled by merchantTransactionId, a delete of the card racing the
 * charge), and read back by order. MADA cards are stored on the MADA entity (the
 * client's `entities` map); deletes and charges name a card by its id or by the
 * saved card, whose brand sends the call to its entity.
 *
 * Invariants, after every command (each counted under its class):
 * - deleted: a deleted card is never charged (no transaction under the charge's order, none in the sandbox's log);
 * - once: one charge call makes at most one transaction at the gateway, and what the client returned (or its error's
 *   payment) is that one;
 * - delete: of deletes of one live card exactly one is approved (none when its answer is lost); every other delete is
 *   GatewayNotFoundError 100.150.202, and one of an id that never existed 100.150.200;
 * - typed: every failure is the documented GatewayError with its documented resultCode (a lost answer a
 *   GatewayNetworkError or, for a charge, the reconciled outcome or UncertainOutcomeError);
 * - unseen: a card whose registration answer was lost is stored all the same (never "nothing there");
 * - secret: no card number, security code or access token in any error (message, JSON, inspect, causes) or answer;
 * - entity: a call naming the saved card reaches the card on its entity; a bare id of a MADA card reaches the
 *   client's own entity, which refuses it (GatewayPermissionError 800.900.301), and nothing is charged or deleted.
 *
 * The seed is printed; GW_MODEL_SEED replays it, GW_MODEL_RUNS sets the runs,
 * GW_MODEL_COUNT=1 counts violations by class over all runs instead of stopping at the first.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { RESULT_CODES } from '../../src/contract/result-codes.js';
import { CARDS, DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  createGatewayClient,
  GatewayDeclinedError,
  GatewayError,
  GatewayNetworkError,
  GatewayNotFoundError,
  GatewayPermissionError,
  isApproved,
  toCents,
  UncertainOutcomeError,
  type GatewayClient,
  type Payment,
  type RequestOptions,
} from '../../src/server/index.js';
import { leakIn } from '../adversarial/canaries.js';

const SEED = process.env.GW_MODEL_SEED ? Number(process.env.GW_MODEL_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.GW_MODEL_RUNS ?? 40);
const COUNT = process.env.GW_MODEL_COUNT === '1';
const TOKEN = Buffer.from('registrations-model-secret-token').toString('base64');
/** Four digits: a three-digit code could stand alone as a line number in a stack. */
const CVV = '9731';
const UNKNOWN = 'e'.repeat(32);
const DECLINE = RESULT_CODES.declinedByAuthorization;

type Kind = 'visa' | 'master' | 'declining' | 'mada';
const CARD: Record<Kind, { brand: 'VISA' | 'MASTER' | 'MADA'; number: string; currency: string }> = {
  visa: { brand: 'VISA', number: CARDS.approved, currency: 'EUR' },
  master: { brand: 'MASTER', number: CARDS.approvedMaster, currency: 'EUR' },
  declining: { brand: 'VISA', number: CARDS.declined, currency: 'EUR' },
  mada: { brand: 'MADA', number: CARDS.mada, currency: 'SAR' },
};
/** A MADA card is stored on the MADA entity; everything else on the client's own. */
const ENTITIES = { MADA: DEFAULT_MADA_ENTITY_ID } as const;
/** How a call names a card: the saved card (its brand picks the entity) or its bare id (the client's entity). */
const reference = (card: Saved, bySaved: boolean) => (bySaved ? { registrationId: card.id, paymentBrand: CARD[card.kind].brand } : card.id);
/** A bare id of a card on another entity than the client's: the gateway refuses the call as not the merchant's. */
const misrouted = (card: Saved | undefined, bySaved: boolean) => card?.kind === 'mada' && !bySaved;
/** Where reads of a card's transactions go: the entity of its brand. */
const readOptions = (kind: Kind): RequestOptions => ({ brands: [CARD[kind].brand] });
const CANARIES = { token: TOKEN, cardNumbers: Object.values(CARD).map((card) => card.number), codes: [CVV] };

export const found = {
  violations: new Map<string, number>(),
  runs: 0,
  commands: 0,
  lost: 0,
  reconciled: 0,
  uncertain: 0,
  refusedDeleted: 0,
  races: 0,
  racesCharged: 0,
  /** Calls naming a MADA card by its bare id (refused), and by the saved card. */
  misrouted: 0,
  madaBySaved: 0,
};

function violation(kind: string, detail: string) {
  found.violations.set(kind, (found.violations.get(kind) ?? 0) + 1);
  if (!COUNT) assert.fail(`${kind}: ${detail}`);
}

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, tokens: [TOKEN] });
});
after(async () => {
  console.log('registrations model figures', JSON.stringify({ seed: SEED, ...found, violations: Object.fromEntries(found.violations) }));
  await sandbox.close();
});

/** A saved card as the model knows it; `deletedAt`: the sandbox log's length once its deletion was processed. */
interface Saved {
  readonly id: string;
  readonly kind: Kind;
  deletedAt?: number;
}
/** One charge call: its order, its card, and the transaction the gateway must hold for it (none, or one of that code). */
interface Charge {
  readonly merchantTransactionId: string;
  readonly registrationId: string;
  readonly kind: Kind;
  readonly amount: string;
  readonly code: string | undefined;
  /** Known from the answer, the error's payment or a read-back. */
  id?: string;
}
interface Model {
  saved: Saved[];
  /** Cards stored whose answer was lost: there, unseen. */
  unseen: number;
  charges: Charge[];
}
interface Real {
  client: GatewayClient;
}

/** Every way an error and its causes get written down, and a value as logged. */
function renderings(value: unknown): string[] {
  const texts = [String(value), JSON.stringify(value) ?? '', inspect(value, { depth: Infinity })];
  if (value instanceof Error) {
    texts.push(value.message);
    for (let cause = value.cause; cause !== undefined && cause !== null; cause = (cause as Error).cause) {
      texts.push(String(cause), inspect(cause, { depth: Infinity }), JSON.stringify(cause) ?? '');
      if (!(cause instanceof Error)) break;
    }
  }
  if (value instanceof GatewayError) texts.push(JSON.stringify(value.payment) ?? '', JSON.stringify(value.parameterErrors));
  return texts;
}

function clean(value: unknown, where: string) {
  for (const text of renderings(value)) {
    const leak = leakIn(text, CANARIES);
    if (leak) violation('secret', `${where}: ${leak} in ${text.slice(0, 400)}`);
  }
}

/** A failure is typed, of the class expected, with the code expected (undefined: any or none), and holds no secret. */
function failure(error: unknown, where: string, expected: readonly (abstract new (...args: never[]) => GatewayError)[], code?: string) {
  clean(error, where);
  if (!(error instanceof GatewayError)) return violation('typed', `${where}: untyped ${inspect(error)}`);
  if (!expected.some((type) => error instanceof type))
    return violation(
      'typed',
      `${where}: ${error.name} (${error.resultCode}) where ${expected.map((type) => type.name).join(' or ')}: ${error.message}`,
    );
  if (code !== undefined && error.resultCode !== code)
    violation('typed', `${where}: ${error.name} resultCode ${error.resultCode}, not ${code}`);
}

/** The transactions the gateway holds under an order, through the client's report. */
async function transactionsOf(real: Real, merchantTransactionId: string, kind: Kind): Promise<readonly Payment[]> {
  return (await real.client.reports.findByMerchantTransactionId(merchantTransactionId, readOptions(kind))).payments;
}

/** Gateway-side checks after every command: stored cards counted, lost ones included; no charge logged on a deleted card. */
function checkSandbox(model: Model) {
  const stored = sandbox.stats().registrations;
  const expected = model.saved.length + model.unseen;
  if (stored !== expected)
    violation('unseen', `the sandbox holds ${stored} cards, the model ${model.saved.length} seen and ${model.unseen} unseen`);
  const log = sandbox.requests();
  for (const card of model.saved) {
    if (card.deletedAt === undefined) continue;
    const charged = log
      .slice(card.deletedAt)
      .filter(
        (entry) =>
          entry.path === `/v1/registrations/${card.id}/payments` && (entry.paymentId !== undefined || isApproved(entry.resultCode ?? '')),
      );
    if (charged.length) violation('deleted', `card ${card.id} charged after its deletion: ${JSON.stringify(charged)}`);
  }
}

const pick = <T>(list: readonly T[], index: number) => list[index % list.length]!;

class Register implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly lost: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    found.commands++;
    const { brand, number } = CARD[this.kind];
    if (this.lost) sandbox.fault('/v1/registrations', 'drop');
    const outcome = await real.client.registrations
      .create({ paymentBrand: brand, card: { number, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: CVV } })
      .then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
    if (this.lost) {
      found.lost++;
      if ('value' in outcome) violation('typed', `${this}: answered ${JSON.stringify(outcome.value)} though its answer was lost`);
      else failure(outcome.error, `${this}`, [GatewayNetworkError]);
      // Stored all the same: the card is there, unseen (the log shows the request decided, its answer dropped).
      const entry = sandbox.requests().findLast((logged) => logged.method === 'POST' && logged.path === '/v1/registrations');
      if (entry?.fault !== 'drop' || entry.resultCode !== RESULT_CODES.approvedIntegratorTest)
        violation('unseen', `${this}: the sandbox logged ${JSON.stringify(entry)}`);
      model.unseen++;
    } else if ('error' in outcome) {
      failure(outcome.error, `${this}`, []);
    } else {
      const { value } = outcome;
      clean(value, `${this}: the answer`);
      if (!/^[0-9a-f]{32}$/.test(value.id ?? '') || value.result.code !== RESULT_CODES.approvedIntegratorTest)
        violation('typed', `${this}: answered ${JSON.stringify(value)}`);
      else model.saved.push({ id: value.id, kind: this.kind });
    }
    checkSandbox(model);
  }
  toString = () => `register(${this.kind}${this.lost ? ', answer lost' : ''})`;
}

class Delete implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number | undefined,
    readonly concurrency: number,
    readonly lost: boolean,
    readonly bySaved: boolean,
  ) {}
  check = (model: Model) => this.pick === undefined || model.saved.length > 0;
  async run(model: Model, real: Real) {
    found.commands++;
    const card = this.pick === undefined ? undefined : pick(model.saved, this.pick);
    const id = card?.id ?? UNKNOWN;
    if (this.lost) sandbox.fault(`/v1/registrations/${id}`, 'drop');
    const named = card ? reference(card, this.bySaved) : id;
    const refused403 = misrouted(card, this.bySaved);
    if (refused403) found.misrouted++;
    else if (card?.kind === 'mada') found.madaBySaved++;
    const outcomes = await Promise.allSettled(Array.from({ length: this.concurrency }, () => real.client.registrations.delete(named)));
    const approved = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => outcome.reason as unknown);
    const lostOnes = refused.filter((error) => error instanceof GatewayNetworkError);
    if (this.lost) found.lost++;
    if (lostOnes.length !== (this.lost ? 1 : 0)) violation('delete', `${this}: ${lostOnes.length} lost answers`);
    const live = card !== undefined && card.deletedAt === undefined && !refused403;
    // Of one live card exactly one delete is decided approved: answered, or the one whose answer was lost.
    const allowed = live ? (this.lost ? [0, 1] : [1]) : [0];
    if (!allowed.includes(approved.length))
      violation('delete', `${this} (${live ? 'live' : 'deleted or unknown'}): ${approved.length} approved`);
    for (const outcome of approved) {
      clean(outcome.value, `${this}: the answer`);
      if (outcome.value.id !== id || !isApproved(outcome.value.result.code))
        violation('delete', `${this}: answered ${JSON.stringify(outcome.value)}`);
    }
    const code = card ? RESULT_CODES.registrationDeregistered : RESULT_CODES.registrationNotFound;
    for (const error of refused)
      if (error instanceof GatewayNetworkError) failure(error, `${this}: the lost one`, [GatewayNetworkError]);
      else if (refused403) failure(error, `${this} (a MADA card by its bare id)`, [GatewayPermissionError], RESULT_CODES.forbidden);
      else failure(error, `${this}`, [GatewayNotFoundError], code);
    if (card && live) card.deletedAt = sandbox.requests().length;
    checkSandbox(model);
  }
  toString = () =>
    `delete(${this.pick === undefined ? 'a never-created id' : `#${this.pick}${this.bySaved ? ' by saved card' : ''}`} ×${this.concurrency}${this.lost ? ', an answer lost' : ''})`;
}

class ChargeSaved implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly amount: string,
    readonly lost: boolean,
    /** A delete of the card sent at the same time: the gateway decides one first. */
    readonly racingDelete: boolean,
    readonly bySaved: boolean,
  ) {}
  check = (model: Model) => model.saved.length > 0;
  async run(model: Model, real: Real) {
    found.commands++;
    const card = pick(model.saved, this.pick);
    const merchantTransactionId = randomUUID();
    const path = `/v1/registrations/${card.id}/payments`;
    if (this.lost) {
      found.lost++;
      sandbox.fault(path, 'drop');
    }
    const racing = this.racingDelete && card.deletedAt === undefined;
    const named = reference(card, this.bySaved);
    const refused403 = misrouted(card, this.bySaved);
    if (refused403) found.misrouted++;
    else if (card?.kind === 'mada') found.madaBySaved++;
    const logged = sandbox.requests().length;
    const [outcome, deleted] = await Promise.all([
      real.client.registrations
        .createPayment(named, { paymentType: 'DB', amount: this.amount, currency: CARD[card.kind].currency, merchantTransactionId })
        .then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
      racing
        ? real.client.registrations.delete(named).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          )
        : undefined,
    ]);
    let live = card.deletedAt === undefined && !refused403;
    if (racing && refused403) {
      // Both calls reach the client's own entity: each is refused, the card stays as it was.
      if (deleted && 'value' in deleted) violation('entity', `${this}: a MADA card deleted by its bare id`);
      else if (deleted) failure(deleted.error, `${this}: the racing delete`, [GatewayPermissionError], RESULT_CODES.forbidden);
    } else if (racing) {
      found.races++;
      const log = sandbox.requests();
      const deletion = log.findIndex(
        (entry, index) => index >= logged && entry.method === 'DELETE' && entry.path === `/v1/registrations/${card.id}`,
      );
      const charged = log.findIndex((entry, index) => index >= logged && entry.method === 'POST' && entry.path === path);
      // The only delete of a live card: approved, whichever the gateway took first.
      if (deleted && 'error' in deleted) failure(deleted.error, `${this}: the racing delete`, []);
      if (deletion < 0) violation('delete', `${this}: the racing delete is not in the sandbox's log`);
      else card.deletedAt = deletion + 1;
      // The charge was decided on a live card only when the gateway took it before the delete.
      live = charged >= 0 && (deletion < 0 || charged < deletion);
      if (live) found.racesCharged++;
    }
    await this.judge(model, real, card, live, refused403, merchantTransactionId, outcome);
    checkSandbox(model);
  }
  /** Judges one charge call of `card`, decided by the gateway on a live card or not: the client's outcome and what the gateway holds. */
  async judge(
    model: Model,
    real: Real,
    card: Saved,
    live: boolean,
    refused403: boolean,
    merchantTransactionId: string,
    outcome: { value: Payment } | { error: unknown },
  ) {
    const where = `${this} (card ${card.kind}, ${refused403 ? 'by its bare id on another entity' : live ? 'live' : 'deleted'})`;
    const code = !live ? undefined : card.kind === 'declining' ? DECLINE : RESULT_CODES.approvedIntegratorTest;
    const charge: Charge = { merchantTransactionId, registrationId: card.id, kind: card.kind, amount: this.amount, code };
    model.charges.push(charge);
    // What the client says happened.
    let returned: Payment | undefined;
    if ('value' in outcome) {
      returned = outcome.value;
      clean(returned, `${where}: the answer`);
      if (this.lost) found.reconciled++;
      if (code !== RESULT_CODES.approvedIntegratorTest)
        violation(refused403 ? 'entity' : live ? 'typed' : 'deleted', `${where}: answered ${JSON.stringify(returned)}`);
    } else {
      const { error } = outcome;
      if (error instanceof UncertainOutcomeError && live) found.uncertain++;
      if (!live && !refused403) found.refusedDeleted++;
      if (this.lost && refused403) {
        // Refused on the client's entity, its answer lost: the look-up there finds nothing, which proves nothing.
        failure(error, where, [UncertainOutcomeError]);
      } else if (refused403) failure(error, where, [GatewayPermissionError], RESULT_CODES.forbidden);
      else if (this.lost) {
        // The answer is lost: the outcome is looked up (declined is what the gateway decided), or left uncertain.
        failure(error, where, code === DECLINE ? [GatewayDeclinedError, UncertainOutcomeError] : [UncertainOutcomeError]);
        if (code === RESULT_CODES.approvedIntegratorTest && !(error instanceof UncertainOutcomeError))
          violation('typed', `${where}: ${String(error)}`);
      } else if (!live) failure(error, where, [GatewayNotFoundError], RESULT_CODES.registrationNotFound);
      else if (code === DECLINE) failure(error, where, [GatewayDeclinedError], DECLINE);
      else failure(error, where, []);
      if (error instanceof GatewayError && error.payment) returned = error.payment;
      if (error instanceof UncertainOutcomeError && error.merchantTransactionId !== merchantTransactionId)
        violation('typed', `${where}: uncertain about ${error.merchantTransactionId}`);
    }
    // What the gateway holds for this one call: nothing on a deleted card, exactly one transaction on a live one.
    const made = await transactionsOf(real, merchantTransactionId, card.kind);
    if (!live && made.length)
      violation(refused403 ? 'entity' : 'deleted', `${where}: ${made.length} transaction(s) ${JSON.stringify(made)}`);
    if (made.length > 1) violation('once', `${where}: ${made.length} transactions for one call: ${made.map((tx) => tx.id).join(', ')}`);
    if (live && made.length !== 1) violation('once', `${where}: ${made.length} transactions, the gateway decided one`);
    const [tx] = made;
    if (returned && returned.id !== tx?.id) violation('once', `${where}: the client returned ${returned.id}, the gateway holds ${tx?.id}`);
    if (tx) {
      // The sandbox's answer to a saved card's payment does not name the card (docs/sandbox.md); its order does.
      if ((tx.registrationId !== undefined && tx.registrationId !== card.id) || tx.paymentType !== 'DB' || tx.result.code !== code)
        violation('once', `${where}: the gateway holds ${JSON.stringify(tx)}`);
      if (isApproved(tx.result.code) && toCents(tx.amount ?? '0.00') !== toCents(this.amount))
        violation('once', `${where}: charged ${tx.amount}, not ${this.amount}`);
      charge.id = tx.id;
    }
  }
  toString = () =>
    `charge(#${this.pick}${this.bySaved ? ' by saved card' : ''}, ${this.amount}${this.lost ? ', answer lost' : ''}${this.racingDelete ? ', a delete racing' : ''})`;
}

/** Reads every charge back by its order (and by id): what the model says the gateway holds, lost answers included. */
class ReadBack implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    found.commands++;
    for (const charge of model.charges) {
      const made = await transactionsOf(real, charge.merchantTransactionId, charge.kind);
      const where = `read back of ${charge.merchantTransactionId} on ${charge.registrationId}`;
      if (made.length !== (charge.code === undefined ? 0 : 1))
        violation(
          charge.code === undefined ? 'deleted' : 'once',
          `${where}: ${made.length} transaction(s), expected ${charge.code ?? 'none'}`,
        );
      if (made[0] && (made[0].id !== charge.id || made[0].result.code !== charge.code))
        violation('once', `${where}: now ${made[0].id} ${made[0].result.code}, was ${charge.id} ${charge.code}`);
      if (charge.id) {
        const read = await real.client.reports.get(charge.id, readOptions(charge.kind));
        if ((read.registrationId !== undefined && read.registrationId !== charge.registrationId) || read.result.code !== charge.code)
          violation('once', `${where}: reads ${JSON.stringify(read)}`);
      }
    }
    checkSandbox(model);
  }
  toString = () => 'read back';
}

test(
  'saved cards: a deleted card is never charged, one charge is one transaction, deletes are safe to repeat',
  { timeout: 120_000 },
  async () => {
    console.log(`registrations model: seed ${SEED} (GW_MODEL_SEED=${SEED} replays it), ${RUNS} runs`);
    const commands = fc.commands(
      [
        fc
          .tuple(fc.constantFrom<Kind>('visa', 'master', 'declining', 'mada'), fc.boolean())
          .map(([kind, lost]) => new Register(kind, lost)),
        fc
          .tuple(fc.option(fc.nat(), { freq: 5 }), fc.integer({ min: 1, max: 3 }), fc.boolean(), fc.boolean())
          .map(([index, concurrency, lost, bySaved]) => new Delete(index ?? undefined, concurrency, lost, bySaved)),
        fc
          .tuple(fc.nat(), fc.constantFrom('1.00', '2.50'), fc.boolean(), fc.boolean(), fc.boolean())
          .map(([index, amount, lost, race, bySaved]) => new ChargeSaved(index, amount, lost, race, bySaved)),
        fc.constant(new ReadBack()),
      ],
      { maxCommands: 15, size: 'max' },
    );
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        sandbox.reset();
        found.runs++;
        const client = createGatewayClient({
          baseUrl: sandbox.url,
          accessToken: TOKEN,
          entityId: DEFAULT_ENTITY_ID,
          entities: ENTITIES,
          timeoutMs: 5000,
          reconcileDelaysMs: [0, 25],
        });
        await fc.asyncModelRun(() => ({ model: { saved: [], unseen: 0, charges: [] }, real: { client } }), [...sequence, new ReadBack()]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: COUNT, interruptAfterTimeLimit: 60_000, includeErrorInReport: true },
    );
    assert.ok(found.runs >= RUNS, `${found.runs} of ${RUNS} runs within the time limit`);
  },
);
