/**
 * Model-based test of the sandbox's resource bounds (issue 12, class 7, generalised from
 * test/adversarial/sandbox-memory.test.ts): one sandbox with small limits, so that a few
 * commands overflow them, takes random interleavings of payments and checkouts with a
 * free-form field of up to just over `recordBytes` (ASCII and multi-byte, some on the
 * exact edge), floods of small payments under one order, saved cards stored and deleted,
 * junk (unauthenticated, over `bodyBytes`, over `fields`), read-backs of known, dropped
 * and reset ids, the report by order, the request log, notifications (sent, resent, and sent
 * to another listener from then on), clock moves and resets.
 *
 * Invariants, after every command (each counted under its class):
 * - bound: the store within `storeBytes`, the log within `logBytes` and `logEntries`, each kind within its count,
 *   the deliveries within NOTIFICATION_LIMITS; the log's answer under 2 × `logBytes`;
 * - shape: every answer is JSON in the gateway's envelope with a `result.code`, never HTTP 500;
 * - record: a request is refused as too large (400, "a stored record holds at most") exactly when its fields take
 *   more than `recordBytes` (RECORD_OVERHEAD_BYTES + fieldBytes), and neither that nor junk stores anything;
 * - stranger: a read-back answers the record asked for (its id, its own note) or the platform's "not found";
 * - order: records are dropped oldest first, per kind: once one is seen gone, none created before it reads back,
 *   and the newest record is never dropped (the newest of every kind, which share the byte budget, unless a checkout
 *   that has expired); a drop forced by the byte budget leaves the store above
 *   `storeBytes` − `recordBytes`;
 * - reset: nothing made before a reset reads back after it, and the stores are empty;
 * - notification: every delivery a listener gets decrypts with that listener's secret, though later notifications were
 *   sent elsewhere with another secret meanwhile (two listeners, half their answers 500, so retries wait); a
 *   delivery listed can always be resent;
 * - report: the report by order answers at most REPORT_PAGE_SIZE_MAX payments, all of the order, the newest stored
 *   ones without gaps;
 * - heap: after all runs and a full collection (heapAfterGc, a real `gc`) the heap has grown by less than HEAP_GROWTH_MAX.
 *
 * The seed is printed; GW_MODEL_SEED replays it, GW_MODEL_RUNS sets the runs,
 * GW_MODEL_COUNT=1 counts violations by class over all runs instead of stopping at the first.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { REPORT_PAGE_SIZE_MAX } from '../../src/contract/report-filters.js';
import { NO_PAYMENT_SESSION_DESCRIPTION, RESULT_CODES } from '../../src/contract/result-codes.js';
import { CARDS, NOTIFICATION_LIMITS, startSandbox, type Sandbox, type SandboxLimits } from '../../src/sandbox/index.js';
import { cardPayment } from '../../src/sandbox/fixtures.js';
import { decryptNotification } from '../../src/server/index.js';
import { fieldBytes, RECORD_OVERHEAD_BYTES } from '../../src/sandbox/limits.js';
import { assertWellFormed, heapAfterGc, megabytes, rawExchange } from '../adversarial/sandbox-support.js';

const SEED = process.env.GW_MODEL_SEED ? Number(process.env.GW_MODEL_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.GW_MODEL_RUNS ?? 25);
const COUNT = process.env.GW_MODEL_COUNT === '1';
const LIMITS = {
  storeBytes: 128 * 1024,
  recordBytes: 16 * 1024,
  logBytes: 64 * 1024,
  logEntries: 50,
  bodyBytes: 64 * 1024,
  fields: 100,
  checkouts: 24,
  payments: 110,
  registrations: 8,
} as const satisfies Partial<SandboxLimits>;
const ORDER = 'bounds-order';
const OTHER = 'bounds-other';
/** What the whole run may leave on the heap: the store and log budgets are a fraction of it; 200 unbounded records would not fit. */
const HEAP_GROWTH_MAX = 12 * 1024 * 1024;
/** A checkout this many seconds old on the sandbox clock may have expired (30 minutes, less the real time a run takes). */
const MAYBE_EXPIRED_SECONDS = 30 * 60 - 120;
const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;

export const found = {
  violations: new Map<string, number>(),
  runs: 0,
  commands: 0,
  tooLarge: 0,
  stored: 0,
  gone: 0,
  drops: 0,
  fullReports: 0,
  logReads: 0,
  junk: 0,
};

function violation(kind: string, detail: string): void {
  found.violations.set(kind, (found.violations.get(kind) ?? 0) + 1);
  if (found.violations.size === 1 && found.violations.get(kind) === 1) console.log(`first violation, ${kind}: ${detail}`);
  if (!COUNT) assert.fail(`${kind}: ${detail}`);
}

let sandbox: Sandbox;
let sink: Server;
let port: number;
/** Two notification listeners on the sink, each with its own secret; half the answers are 500, so retries wait. */
const LISTENERS = { a: 'a1'.repeat(32), b: 'b2'.repeat(32) } as const;
type ListenerName = keyof typeof LISTENERS;
const received: { listener: ListenerName; body: string; headers: Record<string, string | string[] | undefined> }[] = [];
const listenerUrl = (listener: ListenerName) => `http://127.0.0.1:${(sink.address() as AddressInfo).port}/notify/${listener}`;
let heapBefore = 0;

before(async () => {
  let requests = 0;
  sink = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ listener: request.url!.endsWith('/b') ? 'b' : 'a', body, headers: request.headers });
      response.writeHead(++requests % 2 ? 200 : 500).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sandbox = await startSandbox({
    port: 0,
    quiet: true,
    limits: LIMITS,
    notifications: { url: listenerUrl('a'), secret: LISTENERS.a },
  });
  port = Number(new URL(sandbox.url).port);
});
after(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => sink.close(() => resolve()));
  console.log('sandbox-bounds model figures', JSON.stringify({ seed: SEED, ...found, violations: Object.fromEntries(found.violations) }));
});

type Kind = 'payment' | 'checkout' | 'registration';

/** One record the model saw made: `index` is its place among its kind since the last reset. */
interface Entry {
  readonly kind: Kind;
  readonly id: string;
  readonly index: number;
  /** Its place among all records made since the last reset. */
  readonly seq: number;
  /** The free-form note it was made with (payments and checkouts). */
  readonly note?: string;
  readonly order?: string;
  /** Sandbox clock (seconds past real time) when it was made. */
  readonly madeAt: number;
  deleted: boolean;
  /** Made before a reset: must never read back. */
  forgotten: boolean;
}

interface Model {
  entries: Entry[];
  made: Record<Kind, number>;
  /** Records made since the last reset, of every kind. */
  sequence: number;
  /** Per kind, the highest index seen gone: nothing at or below it may read back. */
  gone: Record<Kind, number>;
  clock: number;
  tags: number;
}

const newModel = (): Model => ({
  entries: [],
  made: { payment: 0, checkout: 0, registration: 0 },
  sequence: 0,
  gone: { payment: -1, checkout: -1, registration: -1 },
  clock: 0,
  tags: 0,
});

const live = (model: Model, kind: Kind) => model.entries.filter((entry) => entry.kind === kind && !entry.forgotten);
const newest = (model: Model, kind: Kind) => live(model, kind).at(-1);
/**
 * The record the store must keep whatever it drops: the newest of every kind, which share the byte budget (a checkout
 * made after a payment may push the payment out, and a payment a saved card).
 */
const kept = (model: Model) => model.entries.filter((entry) => !entry.forgotten).at(-1);
const maybeExpired = (model: Model, entry: Entry) => entry.kind === 'checkout' && model.clock - entry.madeAt >= MAYBE_EXPIRED_SECONDS;

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly body: Record<string, any>;
}

/** One request as a merchant (or, unauthorised, a stranger) sends it; the answer must be well-formed. */
async function call(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  form: Record<string, string> = {},
  { authorised = true, entity = true } = {},
): Promise<Answer> {
  const params = new URLSearchParams({ ...(entity ? { entityId: sandbox.entities[0]! } : {}), ...form });
  const query = method === 'POST' || !params.size ? '' : `?${params}`;
  const response = await fetch(`${sandbox.url}${path}${query}`, {
    method,
    headers: authorised ? { authorization: `Bearer ${sandbox.tokens[0]}` } : {},
    ...(method === 'POST' ? { body: params } : {}),
  });
  const text = await response.text();
  const what = `${method} ${path} → ${response.status}`;
  if (response.status >= 500) violation('shape', `${what}: ${text.slice(0, 200)}`);
  if (!response.headers.get('content-type')?.startsWith('application/json')) violation('shape', `${what}: not JSON`);
  let body: Record<string, any> = {};
  try {
    body = JSON.parse(text) as Record<string, any>;
  } catch {
    violation('shape', `${what}: a body that does not parse: ${text.slice(0, 200)}`);
  }
  const code: unknown = body.result?.code;
  if (typeof code !== 'string' || !RESULT_CODE.test(code)) violation('shape', `${what}: no result.code in ${text.slice(0, 200)}`);
  if (typeof body.ndc !== 'string' || typeof body.buildNumber !== 'string') violation('shape', `${what}: no envelope`);
  return { status: response.status, text, body };
}

/** The bounds that hold whatever happened. */
function checkBounds(where: string): void {
  const stats = sandbox.stats();
  const over = (what: string, value: number, limit: number) => {
    if (value > limit) violation('bound', `after ${where}: ${what} ${value} > ${limit}`);
  };
  over('storeBytes', stats.storeBytes, LIMITS.storeBytes);
  over('logBytes', stats.logBytes, LIMITS.logBytes);
  over('log entries', stats.requests, LIMITS.logEntries);
  over('payments', stats.payments, LIMITS.payments);
  over('checkouts', stats.checkouts, LIMITS.checkouts);
  over('registrations', stats.registrations, LIMITS.registrations);
  over('notifications', sandbox.notifications.list().length, NOTIFICATION_LIMITS.deliveries);
}

/** A read answered the record: it must be a record the model may still see. */
function present(model: Model, entry: Entry, where: string): void {
  if (entry.forgotten) violation('reset', `${where}: ${entry.kind} ${entry.id} made before a reset reads back`);
  else if (entry.index <= model.gone[entry.kind])
    violation('order', `${where}: ${entry.kind} #${entry.index} reads back after #${model.gone[entry.kind]} was seen dropped`);
}

/** A read answered "not found": allowed for a dropped record, never for the newest of its kind. */
function gone(model: Model, entry: Entry, where: string): void {
  if (entry.forgotten) return;
  found.gone++;
  if (entry === kept(model) && !maybeExpired(model, entry))
    violation('order', `${where}: the newest record, ${entry.kind} #${entry.index}, is gone`);
  model.gone[entry.kind] = Math.max(model.gone[entry.kind], entry.index);
}

function remember(model: Model, kind: Kind, id: string, extra: { note?: string; order?: string } = {}): Entry {
  const entry: Entry = {
    kind,
    id,
    index: model.made[kind]++,
    seq: model.sequence++,
    madeAt: model.clock,
    deleted: false,
    forgotten: false,
    ...extra,
  };
  model.entries.push(entry);
  found.stored++;
  return entry;
}

/**
 * After an accepted creation: a drop the byte budget forced (the kinds' counts did not grow, neither at its limit)
 * leaves the store above `storeBytes` − `recordBytes`, as dropping more than needed would not; and right after a
 * drop, the oldest payment not yet seen gone and the newest are read back (the newest must be there).
 */
async function checkDrop(model: Model, before: ReturnType<Sandbox['stats']>, where: string): Promise<void> {
  const now = sandbox.stats();
  const dropped = now.payments + now.checkouts <= before.payments + before.checkouts;
  if (!dropped) return;
  found.drops++;
  const byCount = now.payments === LIMITS.payments || now.checkouts === LIMITS.checkouts;
  if (!byCount && now.storeBytes <= LIMITS.storeBytes - LIMITS.recordBytes)
    violation('order', `${where}: the store dropped to ${now.storeBytes} bytes (from ${before.storeBytes})`);
  const oldest = frontier(model, 'payment');
  if (oldest) await readBack(model, oldest, `${where}, after a drop`);
  const latest = newest(model, 'payment');
  if (latest && latest !== oldest) await readBack(model, latest, `${where}, after a drop`);
}

/**
 * A tag no record shares, in letters: the sandbox scrubs the request's own card data (the security code 123, say)
 * from every value it keeps, so a tag in digits would not come back as sent.
 */
const tagOf = (model: Model, prefix: string) => `${prefix}${String(model.tags++).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;

/** A note of exactly `bytes` UTF-8 bytes (at least its tag), of `char` then ASCII to fill. */
function noteOf(tag: string, bytes: number, char: string): string {
  const head = `${tag}|`;
  const room = Math.max(0, bytes - Buffer.byteLength(head));
  const width = Buffer.byteLength(char);
  const wide = char.repeat(Math.floor(room / width));
  return head + wide + 'a'.repeat(room - Buffer.byteLength(wide));
}

/** How big a note is: any size up to just over what a record holds, or within a few bytes of the limit exactly. */
type Size = { readonly bytes: number } | { readonly edge: number };
const sizeArb: fc.Arbitrary<Size> = fc.oneof(
  fc.integer({ min: 0, max: LIMITS.recordBytes + 1024 }).map((bytes) => ({ bytes })),
  fc.integer({ min: LIMITS.recordBytes / 2, max: LIMITS.recordBytes }).map((bytes) => ({ bytes })),
  fc.integer({ min: 0, max: 2048 }).map((bytes) => ({ bytes })),
  fc.integer({ min: -3, max: 3 }).map((edge) => ({ edge })),
);
const charArb = fc.constantFrom('n', 'é', '€', '😀');
const showSize = (size: Size) => ('edge' in size ? `limit${size.edge >= 0 ? '+' : ''}${size.edge}` : `${size.bytes}B`);

/** The form's fields with a note of the size asked for, and the bytes they count against `recordBytes`. */
function sized(form: Record<string, string>, tag: string, size: Size, char: string) {
  const bytesOf = (note: string) => RECORD_OVERHEAD_BYTES + fieldBytes({ entityId: sandbox.entities[0]!, ...form, 'customer.note': note });
  const base = bytesOf('');
  const noteBytes = 'edge' in size ? LIMITS.recordBytes + size.edge - base : size.bytes;
  const note = noteOf(tag, noteBytes, char);
  return { fields: { ...form, 'customer.note': note }, note, bytes: bytesOf(note) };
}

type Command = fc.AsyncCommand<Model, object>;

/** A request made to store a record of `bytes`: refused as too large exactly when it is over `recordBytes`, and then nothing is stored. */
function judgeStoring(answer: Answer, bytes: number, before: ReturnType<Sandbox['stats']>, where: string): boolean {
  const tooLarge = bytes > LIMITS.recordBytes;
  const refusedAsTooLarge = answer.status === 400 && /a stored record holds at most/.test(String(answer.body.result?.description ?? ''));
  if (tooLarge !== refusedAsTooLarge)
    violation(
      'record',
      `${where}: ${bytes} bytes of fields (limit ${LIMITS.recordBytes}) answered ${answer.status} ${answer.text.slice(0, 160)}`,
    );
  if (refusedAsTooLarge) {
    found.tooLarge++;
    const now = sandbox.stats();
    if (answer.body.id !== undefined) violation('record', `${where}: a refusal with an id`);
    if (now.payments !== before.payments || now.checkouts !== before.checkouts || now.storeBytes !== before.storeBytes)
      violation('record', `${where}: a refused record changed the store`);
  }
  return !tooLarge && !refusedAsTooLarge;
}

class Pay implements Command {
  constructor(
    readonly size: Size,
    readonly char: string,
    readonly ofOrder: boolean,
  ) {}
  check = () => true;
  async run(model: Model) {
    found.commands++;
    const order = this.ofOrder ? ORDER : OTHER;
    const { fields, note, bytes } = sized(cardPayment({ merchantTransactionId: order }), tagOf(model, 'p'), this.size, this.char);
    const before = sandbox.stats();
    const answer = await call('POST', '/v1/payments', fields);
    if (judgeStoring(answer, bytes, before, String(this))) {
      if (answer.status !== 200 || !/^[0-9a-f]{32}$/.test(answer.body.id))
        violation('record', `${this}: ${bytes} bytes answered ${answer.status} ${answer.text.slice(0, 160)}`);
      else {
        if (answer.body.customer?.note !== note)
          violation(
            'stranger',
            `${this}: the answer is not of its own request: ${JSON.stringify(answer.body.customer?.note)?.slice(0, 80)} for ${note.slice(0, 80)}`,
          );
        remember(model, 'payment', answer.body.id, { note, order });
        await checkDrop(model, before, String(this));
      }
    }
    checkBounds(String(this));
  }
  toString = () => `pay ${showSize(this.size)} of ${JSON.stringify(this.char)} under ${this.ofOrder ? ORDER : OTHER}`;
}

class Flood implements Command {
  constructor(readonly count: number) {}
  check = () => true;
  async run(model: Model) {
    found.commands++;
    for (let i = 0; i < this.count; i++) {
      const note = tagOf(model, 'f');
      const before = sandbox.stats();
      const answer = await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: ORDER, 'customer.note': note }));
      if (answer.status !== 200) violation('record', `${this}: a small payment answered ${answer.status} ${answer.text.slice(0, 160)}`);
      else {
        remember(model, 'payment', answer.body.id, { note, order: ORDER });
        await checkDrop(model, before, String(this));
      }
      checkBounds(String(this));
    }
  }
  toString = () => `flood of ${this.count} small payments under ${ORDER}`;
}

class Checkout implements Command {
  constructor(
    readonly size: Size,
    readonly char: string,
    readonly count: number,
  ) {}
  check = () => true;
  async run(model: Model) {
    found.commands++;
    for (let i = 0; i < this.count; i++) {
      const form = { amount: '92.00', currency: 'EUR', paymentType: 'DB' };
      const { fields, note, bytes } = sized(form, tagOf(model, 'c'), this.size, this.char);
      const before = sandbox.stats();
      const answer = await call('POST', '/v1/checkouts', fields);
      if (judgeStoring(answer, bytes, before, String(this))) {
        if (answer.status !== 200 || answer.body.result.code !== RESULT_CODES.checkoutCreated || typeof answer.body.id !== 'string')
          violation('record', `${this}: ${bytes} bytes answered ${answer.status} ${answer.text.slice(0, 160)}`);
        else {
          remember(model, 'checkout', answer.body.id, { note });
          await checkDrop(model, before, String(this));
        }
      }
      checkBounds(String(this));
    }
  }
  toString = () => `${this.count} checkout(s) ${showSize(this.size)} of ${JSON.stringify(this.char)}`;
}

/** The card fields of the fixtures' payment: what a saved card is stored with. */
const storedCard = Object.fromEntries(
  Object.entries(cardPayment()).filter(([name]) => name === 'paymentBrand' || name.startsWith('card.')),
);

class Register implements Command {
  constructor(readonly count: number) {}
  check = () => true;
  async run(model: Model) {
    found.commands++;
    for (let i = 0; i < this.count; i++) {
      const answer = await call('POST', '/v1/registrations', storedCard);
      if (answer.status !== 200 || !/^[0-9a-f]{32}$/.test(answer.body.id))
        violation('record', `${this}: answered ${answer.status} ${answer.text.slice(0, 160)}`);
      else remember(model, 'registration', answer.body.id);
      checkBounds(String(this));
    }
  }
  toString = () => `store ${this.count} card(s)`;
}

class Deregister implements Command {
  constructor(readonly pick: number) {}
  check = (model: Model) => model.entries.some((entry) => entry.kind === 'registration');
  async run(model: Model) {
    found.commands++;
    const cards = model.entries.filter((entry) => entry.kind === 'registration');
    const entry = cards[this.pick % cards.length]!;
    const where = `${this} (#${entry.index}${entry.forgotten ? ', before a reset' : ''}${entry.deleted ? ', deleted' : ''})`;
    const answer = await call('DELETE', `/v1/registrations/${entry.id}`);
    const code = answer.body.result?.code;
    if (answer.status === 200 && answer.body.id === entry.id && !entry.deleted) {
      present(model, entry, where);
      entry.deleted = true;
    } else if (answer.status === 400 && code === RESULT_CODES.registrationDeregistered && entry.deleted) present(model, entry, where);
    else if (answer.status === 400 && code === RESULT_CODES.registrationNotFound) gone(model, entry, where);
    else violation('stranger', `${where}: answered ${answer.status} ${answer.text.slice(0, 160)}`);
    checkBounds(String(this));
  }
  toString = () => `delete card ${this.pick}`;
}

/** Reads one record back and judges the answer: the record itself, or the platform's "not found". */
async function readBack(model: Model, entry: Entry, context: string): Promise<void> {
  const where = `${context}: ${entry.kind} #${entry.index}${entry.forgotten ? ' (before a reset)' : ''}`;
  if (entry.kind === 'payment') {
    const answer = await call('GET', `/v1/payments/${entry.id}`);
    if (answer.status === 200) {
      if (answer.body.id !== entry.id || answer.body.customer?.note !== entry.note)
        violation('stranger', `${where}: answered another record: ${answer.text.slice(0, 160)}`);
      present(model, entry, where);
    } else if (answer.status === 400 && answer.body.result?.code === RESULT_CODES.transactionNotFound) gone(model, entry, where);
    else violation('stranger', `${where}: answered ${answer.status} ${answer.text.slice(0, 160)}`);
    return;
  }
  const answer = await call('GET', `/v1/checkouts/${entry.id}/payment`);
  const code = answer.body.result?.code;
  if (answer.status === 200) {
    // No attempt was made on it: the result alone, about this checkout.
    if (code !== RESULT_CODES.pending || answer.body.ndc !== entry.id || answer.body.id !== undefined)
      violation('stranger', `${where}: answered ${answer.text.slice(0, 160)}`);
    present(model, entry, where);
  } else if (answer.status === 429) {
    // Read more than twice a minute: the platform's limit, which says nothing of the store.
    if (code !== RESULT_CODES.throttled || answer.body.ndc !== entry.id) violation('stranger', `${where}: ${answer.text.slice(0, 160)}`);
  } else if (answer.status === 400 && answer.body.result?.description === NO_PAYMENT_SESSION_DESCRIPTION) gone(model, entry, where);
  else violation('stranger', `${where}: answered ${answer.status} ${answer.text.slice(0, 160)}`);
}

/** The oldest record of a kind not yet seen gone: where the next drop must happen. */
const frontier = (model: Model, kind: Kind) => live(model, kind).find((entry) => entry.index > model.gone[kind]);

/** Which record a read-back asks for: any the model knows (reset ones too), or the oldest of a kind not yet seen gone. */
type Pick = { readonly any: number } | { readonly frontier: 'payment' | 'checkout' };

class ReadBack implements Command {
  constructor(readonly pick: Pick) {}
  check = (model: Model) => model.entries.some((entry) => entry.kind !== 'registration');
  async run(model: Model) {
    found.commands++;
    const readable = model.entries.filter((entry) => entry.kind !== 'registration');
    const { pick } = this;
    const entry =
      'any' in pick
        ? readable[pick.any % readable.length]!
        : (frontier(model, pick.frontier) ?? frontier(model, pick.frontier === 'payment' ? 'checkout' : 'payment') ?? readable.at(-1)!);
    await readBack(model, entry, String(this));
    checkBounds(String(this));
  }
  toString = () => ('any' in this.pick ? `read back ${this.pick.any}` : `read back the oldest ${this.pick.frontier} not seen gone`);
}

class Report implements Command {
  check = () => true;
  async run(model: Model) {
    found.commands++;
    const answer = await call('GET', '/v3/query', { merchantTransactionId: ORDER });
    const ofOrder = live(model, 'payment').filter((entry) => entry.order === ORDER);
    const newestRecord = kept(model);
    if (answer.status === 400 && answer.body.result?.code === RESULT_CODES.transactionNotFound) {
      if (newestRecord?.order === ORDER) violation('report', `the newest record is a payment of ${ORDER}, the report finds nothing`);
      if (ofOrder.length) model.gone.payment = Math.max(model.gone.payment, ofOrder.at(-1)!.index);
      checkBounds(String(this));
      return;
    }
    if (answer.status !== 200 || !Array.isArray(answer.body.payments)) {
      violation('report', `answered ${answer.status} ${answer.text.slice(0, 160)}`);
      return;
    }
    const listed = answer.body.payments as { id: string; merchantTransactionId?: string }[];
    if (listed.length > REPORT_PAGE_SIZE_MAX) violation('report', `${listed.length} payments > ${REPORT_PAGE_SIZE_MAX}`);
    if (listed.length === REPORT_PAGE_SIZE_MAX) found.fullReports++;
    const byId = new Map(ofOrder.map((entry) => [entry.id, entry]));
    const indices: number[] = [];
    for (const payment of listed) {
      const entry = byId.get(payment.id);
      if (!entry || payment.merchantTransactionId !== ORDER) {
        violation('report', `${payment.id} (${payment.merchantTransactionId}) is not a payment of ${ORDER} made since the reset`);
        continue;
      }
      present(model, entry, 'report');
      indices.push(entry.index);
    }
    if (!indices.length) return;
    // The newest stored payments of the order, none left out between them, the newest of all first to be kept.
    const listedIds = new Set(listed.map((payment) => payment.id));
    const oldest = Math.min(...indices);
    const missing = ofOrder.filter((entry) => entry.index > oldest && !listedIds.has(entry.id));
    if (missing.length) violation('report', `payments #${missing.map((entry) => entry.index).join(', #')} left out of the page`);
    if (listed.length < REPORT_PAGE_SIZE_MAX) {
      // A page not full holds every stored payment of the order: those before it are gone.
      const before = ofOrder.filter((entry) => entry.index < oldest).at(-1);
      if (before) model.gone.payment = Math.max(model.gone.payment, before.index);
    }
    checkBounds(String(this));
  }
  toString = () => `report by ${ORDER}`;
}

class ReadLog implements Command {
  check = () => true;
  async run() {
    found.commands++;
    found.logReads++;
    const answer = await call('GET', '/__sandbox/requests', {}, { entity: false });
    const bytes = Buffer.byteLength(answer.text);
    if (answer.status !== 200 || !Array.isArray(answer.body.requests)) violation('shape', `the log answered ${answer.status}`);
    else if (answer.body.requests.length > LIMITS.logEntries) violation('bound', `the log lists ${answer.body.requests.length} requests`);
    if (bytes > 2 * LIMITS.logBytes) violation('bound', `the log's answer is ${bytes} bytes`);
    if (answer.text.includes(CARDS.approved)) violation('bound', 'a card number in the log');
    checkBounds(String(this));
  }
  toString = () => 'read the request log';
}

type JunkKind = 'unauthorised' | 'body' | 'fields';
class Junk implements Command {
  constructor(
    readonly kind: JunkKind,
    readonly extra: number,
  ) {}
  check = () => true;
  async run() {
    found.commands++;
    found.junk++;
    const before = sandbox.stats();
    let status: number;
    if (this.kind === 'body') {
      const length = LIMITS.bodyBytes + 1 + this.extra * 64;
      const { responses, failure } = await rawExchange(
        port,
        Buffer.concat([
          Buffer.from(
            `POST /v1/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sandbox.tokens[0]}\r\n` +
              `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`,
          ),
          Buffer.alloc(length, 'j'),
        ]),
        { timeoutMs: 10_000 },
      );
      const response = responses[0];
      if (!response) {
        violation('shape', `${this}: no answer (${failure ?? 'closed'})`);
        return;
      }
      assertWellFormed(response, 'POST', String(this));
      status = response.status;
      if (status !== 413) violation('record', `${this}: answered ${status}`);
    } else if (this.kind === 'fields') {
      const many = Object.fromEntries(Array.from({ length: LIMITS.fields + 1 + this.extra }, (_, i) => [`customParameters[f${i}]`, 'v']));
      const answer = await call('POST', '/v1/payments', cardPayment(many));
      status = answer.status;
      if (status !== 400) violation('record', `${this}: answered ${status}`);
    } else {
      const answer = await call('POST', '/v1/payments', cardPayment({ 'customer.note': 'u'.repeat(this.extra * 64) }), {
        authorised: false,
      });
      status = answer.status;
      if (status !== 401 || answer.body.result?.code !== RESULT_CODES.unauthorized) violation('record', `${this}: answered ${status}`);
    }
    const now = sandbox.stats();
    if (now.payments !== before.payments || now.storeBytes !== before.storeBytes) violation('record', `${this}: junk changed the store`);
    checkBounds(String(this));
  }
  toString = () => `junk: ${this.kind} +${this.extra}`;
}

class Notify implements Command {
  check = () => true;
  async run() {
    found.commands++;
    await sandbox.notifications.idle();
    for (const delivery of sandbox.notifications.list())
      if (!['pending', 'delivered', 'failed'].includes(delivery.state)) violation('bound', `a delivery in state ${delivery.state}`);
    // Every delivery a listener got is readable with that listener's secret, whatever was configured since it was made.
    for (const { listener, body, headers } of received.splice(0)) {
      await decryptNotification({ body, headers }, LISTENERS[listener]).catch((error: unknown) =>
        violation('notification', `${this}: a delivery to listener ${listener} does not decrypt with its secret: ${String(error)}`),
      );
    }
    checkBounds(String(this));
  }
  toString = () => 'deliver notifications';
}

/** Later notifications go to the other listener, with its secret; those already made keep theirs. */
class Reconfigure implements Command {
  constructor(readonly listener: ListenerName) {}
  check = () => true;
  async run() {
    found.commands++;
    sandbox.notifications.configure({ url: listenerUrl(this.listener), secret: LISTENERS[this.listener] });
    checkBounds(String(this));
  }
  toString = () => `notify listener ${this.listener}`;
}

/** A delivery sent again, whatever its state (one being sent goes again after its attempt). */
class Resend implements Command {
  constructor(readonly pick: number) {}
  check = () => true;
  async run() {
    found.commands++;
    const deliveries = sandbox.notifications.list();
    const delivery = deliveries[this.pick % Math.max(1, deliveries.length)];
    if (delivery && !sandbox.notifications.resend(delivery.id)) violation('notification', `${this}: a delivery listed was not resent`);
    checkBounds(String(this));
  }
  toString = () => `resend delivery ${this.pick}`;
}

class Clock implements Command {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(model: Model) {
    found.commands++;
    const answer = await call('POST', '/__sandbox/clock', { advance: String(this.seconds) }, { entity: false });
    if (answer.status !== 200) violation('shape', `${this}: answered ${answer.status}`);
    model.clock += this.seconds;
    checkBounds(String(this));
  }
  toString = () => `clock +${this.seconds} s`;
}

class Reset implements Command {
  check = () => true;
  async run(model: Model) {
    found.commands++;
    const answer = await call('POST', '/__sandbox/reset', {}, { entity: false });
    if (answer.status !== 200) violation('shape', `reset answered ${answer.status}`);
    for (const entry of model.entries) entry.forgotten = true;
    Object.assign(model, { ...newModel(), entries: model.entries, tags: model.tags });
    const stats = sandbox.stats();
    if (stats.payments || stats.checkouts || stats.registrations || stats.storeBytes)
      violation('reset', `stores not empty after a reset: ${JSON.stringify(stats)}`);
    checkBounds(String(this));
  }
  toString = () => 'reset';
}

const commands = fc.commands(
  [
    ...[1, 2, 3].map(() => fc.tuple(sizeArb, charArb, fc.boolean()).map(([size, char, ofOrder]) => new Pay(size, char, ofOrder))),
    fc.integer({ min: 10, max: 40 }).map((count) => new Flood(count)),
    fc.tuple(sizeArb, charArb, fc.integer({ min: 1, max: 4 })).map(([size, char, count]) => new Checkout(size, char, count)),
    fc.integer({ min: 1, max: 3 }).map((count) => new Register(count)),
    fc.nat().map((pick) => new Deregister(pick)),
    fc.nat().map((any) => new ReadBack({ any })),
    ...[1, 2].map(() => fc.constantFrom('payment' as const, 'checkout' as const).map((frontier) => new ReadBack({ frontier }))),
    fc.constant(new Report()),
    fc.constant(new ReadLog()),
    fc
      .tuple(fc.constantFrom<JunkKind>('unauthorised', 'body', 'fields'), fc.integer({ min: 0, max: 300 }))
      .map(([kind, extra]) => new Junk(kind, extra)),
    fc.oneof(
      { arbitrary: fc.constant(new Notify()), weight: 2 },
      { arbitrary: fc.constantFrom<ListenerName>('a', 'b').map((listener) => new Reconfigure(listener)), weight: 2 },
      { arbitrary: fc.nat().map((pick) => new Resend(pick)), weight: 1 },
      { arbitrary: fc.constantFrom(61, 31 * 60).map((seconds) => new Clock(seconds)), weight: 2 },
      { arbitrary: fc.constant(new Reset()), weight: 1 },
    ),
  ],
  { maxCommands: 30, size: 'max' },
);

test('the sandbox stays within its limits, drops oldest first, and answers what it holds', { timeout: 120_000 }, async () => {
  console.log(`sandbox-bounds model: seed ${SEED} (GW_MODEL_SEED=${SEED} replays it), ${RUNS} runs`);
  // Warmed up first, so the baseline holds what fetch and the sandbox keep however little they did.
  for (let i = 0; i < 20; i++) await new ReadLog().run();
  heapBefore = heapAfterGc();
  await fc.assert(
    fc.asyncProperty(commands, async (sequence) => {
      sandbox.reset();
      found.runs++;
      await fc.asyncModelRun(() => ({ model: newModel(), real: {} }), [...sequence, new Report(), new ReadLog()]);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: COUNT, interruptAfterTimeLimit: 60_000 },
  );
  assert.ok(found.runs >= RUNS, `${found.runs} of ${RUNS} runs completed before the time limit`);
  await sandbox.notifications.idle();
  const grown = heapAfterGc() - heapBefore;
  console.log(`sandbox-bounds model: heap +${megabytes(grown)} after GC, stats ${JSON.stringify(sandbox.stats())}`);
  if (grown >= HEAP_GROWTH_MAX) violation('heap', `the heap grew by ${megabytes(grown)}`);
  if (COUNT) console.log('violations', JSON.stringify(Object.fromEntries(found.violations)));
});
