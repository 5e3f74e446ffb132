/**
 * The hostile-peer stage (issue 29): every method of the client, and every
 * export that takes options or a clock, against a peer that is not sane.
 * fast-check generates the gateway's answers (huge, endless, slow, truncated,
 * malformed, looping report pages, echoing the request's secrets in any
 * spelling and encoding), hostile options and clocks, and hostile control
 * inputs for the sandbox. Invariants, for every generated case:
 *
 * - memory bounded: the client never pulls more of an answer than its bound
 *   (`ANSWER_MAX_BYTES`, a report page's `reportPageMaxBytes`), counted on
 *   the stream the stand-in serves, which stops at 16 MB whatever the client does;
 * - time bounded: every call and every walk ends (a report search over
 *   looping pages included), within the call's own timeout;
 * - only the kit's typed errors (`GatewayError` and its subclasses);
 * - no declared secret in any output channel: the value returned, the error
 *   (message, JSON, inspect, causes), the hooks' events, the console;
 * - no stranger's answer: a call never returns a transaction whose id, checkout,
 *   reference, type, amount or currency is another request's (a peer that answers
 *   with someone else's transaction, fields missing, null, empty or in another case);
 * - a notification's sender is a peer too: whatever it encrypts (secrets under their
 *   names or labelled, at any depth; nesting, floods) is read typed and masked;
 * - nothing accepted that a sane peer would refuse: an insecure base URL, a
 *   clock that does not tell the time, a header value that would split a
 *   response, a fault for a path no request can have.
 *
 * The sandbox's side of the same stage (its request log, controls and limits)
 * is in sandbox-hostile.test.ts; the declared secrets through every channel in
 * declared-secrets.test.ts.
 */
import assert from 'node:assert/strict';
import { validateHeaderValue } from 'node:http';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import * as server from '../../src/server/index.js';
import { ANSWER_MAX_BYTES, ANSWER_MAX_DEPTH } from '../../src/contract/limits.js';
import { reportPageMaxBytes } from '../../src/contract/report-filters.js';
import { encryptNotification } from '../../src/sandbox/protocol/notifier.js';
import { webRandomBytes } from '../../src/sandbox/core/runtime.js';
import { capturingConsole, leakIn, type Canaries } from './canaries.js';
import {
  answer,
  ENTITY,
  PAYMENT_ID,
  standInClient,
  streamedBody,
  TOKEN,
  tricklingBody,
  type GatewayRequest,
} from '../support/gateway-stand-in.js';
import { propertyRuns } from '../support/property-runs.js';

// Canaries no scripted answer, id or clock reading can hold by chance (see canaries.ts).
const PAN = '4539148803436467';
const CVV = '7391';
const CANARIES: Canaries = { token: TOKEN, cardNumbers: [PAN], codes: [CVV] };
const CHECKOUT_ID = 'ABCE449B5FC84ED5A1C7174840C7A3F8.uat01-vm-tx03';
const REGISTRATION_ID = '8ac7a4a17000000000000000000000bb';
/** A saved card as `savedCardOf` returns it: its brand picks the entity of the calls naming it. */
const SAVED_CARD = { registrationId: REGISTRATION_ID, paymentBrand: 'VISA' } as const;

/** The stand-in stops an endless or huge answer here whatever the client does, so an unbounded read fails the property, not the process. */
const STREAM_STOP_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** What the client may read of the answer to `call`: a report page what its page size holds, any other answer `ANSWER_MAX_BYTES`. */
const boundOf = (call: GatewayRequest) =>
  call.url.pathname === '/v3/query' ? reportPageMaxBytes(Object.fromEntries(call.url.searchParams)) : ANSWER_MAX_BYTES;

/** The most bytes the client pulled of one answer, beyond that answer's bound; 0 while every read kept to its bound. */
interface Pulled {
  over: number;
}

const card = { number: PAN, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: CVV };
const cardPayment = {
  amount: '92.00',
  currency: 'EUR',
  paymentType: 'DB',
  paymentBrand: 'VISA',
  merchantTransactionId: 'order-hostile-1',
  card,
  customer: { email: 'jane@example.com', ip: '192.0.2.10' },
  customParameters: { note: `card ${PAN} code ${CVV}` },
} as const;
/** The approved payment a sane gateway answers, in its envelope. */
const payment = answer('000.100.110', {
  ...cardPayment,
  id: PAYMENT_ID,
  customParameters: {},
  card: { bin: '453914', last4Digits: '6467', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' },
});

type Call = (client: server.GatewayClient) => Promise<unknown>;
const drain = async (walk: AsyncIterable<unknown>) => {
  const seen: unknown[] = [];
  for await (const item of walk) seen.push(item);
  return seen;
};

/**
 * One call per client method, with a valid argument carrying the canaries
 * where a secret belongs. The stage fails for a method missing here, so a
 * new method meets the hostile peer the day it is added.
 */
const CALLS: Record<string, Call> = {
  'client.checkouts.create': (client) => client.checkouts.create({ amount: '92.00', currency: 'EUR', paymentType: 'DB' }),
  'client.checkouts.getPayment': (client) => client.checkouts.getPayment(CHECKOUT_ID),
  'client.checkouts.getRegistration': (client) => client.checkouts.getRegistration(CHECKOUT_ID),
  'client.payments.create': (client) => client.payments.create(cardPayment),
  'client.payments.get': (client) => client.payments.get(PAYMENT_ID),
  'client.payments.capture': (client) => client.payments.capture(PAYMENT_ID, { amount: '92.00', currency: 'EUR' }),
  'client.payments.refund': (client) => client.payments.refund(PAYMENT_ID, { amount: '92.00', currency: 'EUR' }),
  'client.payments.reverse': (client) => client.payments.reverse(PAYMENT_ID),
  'client.reports.get': (client) => client.reports.get(PAYMENT_ID),
  'client.reports.findByMerchantTransactionId': (client) => client.reports.findByMerchantTransactionId('order-hostile-1'),
  'client.reports.search': (client) =>
    drain(client.reports.search({ from: '2026-11-01 00:00:00', to: '2026-11-02 00:00:00', pageSize: 2 })),
  'client.payouts.create': (client) =>
    client.payouts.create({ programme: 'basicCredit', paymentType: 'CD', amount: '5.00', currency: 'EUR', paymentBrand: 'VISA', card }),
  'client.registrations.create': (client) => client.registrations.create({ paymentBrand: 'VISA', card }),
  'client.registrations.delete': (client) => client.registrations.delete(REGISTRATION_ID),
  'client.registrations.createPayment': (client) =>
    client.registrations.createPayment(REGISTRATION_ID, { amount: '5.00', currency: 'EUR', paymentType: 'DB' }),
  'client.handleShopperReturn': (client) =>
    client.handleShopperReturn({ id: CHECKOUT_ID, resourcePath: `/v1/checkouts/${CHECKOUT_ID}/payment` }),
  'client.verifyPayment': async (client) =>
    client.verifyPayment(payment as unknown as server.Payment, {
      id: PAYMENT_ID,
      amount: '92.00',
      currency: 'EUR',
      paymentBrand: 'VISA',
      paymentType: 'DB',
    }),
};

/** Calls of a method with options that take another path through it, met by the hostile peer as the methods are. */
const VARIANTS: Record<string, Call> = {
  "client.handleShopperReturn({ expect: 'registration' })": (client) =>
    client.handleShopperReturn({ id: CHECKOUT_ID, resourcePath: `/v1/checkouts/${CHECKOUT_ID}/registration` }, { expect: 'registration' }),
  'client.registrations.delete(savedCard)': (client) => client.registrations.delete(SAVED_CARD),
  'client.registrations.createPayment(savedCard)': (client) =>
    client.registrations.createPayment(SAVED_CARD, { amount: '5.00', currency: 'EUR', paymentType: 'DB' }),
};
const HOSTILE_CALLS: Record<string, Call> = { ...CALLS, ...VARIANTS };

/**
 * The secrets of the request as a hostile gateway may echo them: as sent, grouped by any separator (a no-break
 * space, a slash, an underscore, a comma and a space, a JSON-escaped tab, a URL-encoded slash or bar), URL- and form-encoded, JSON-escaped,
 * every byte percent-escaped, and a token without its base64 padding or decoded.
 */
function spellings(secret: string): string[] {
  const groups = secret.match(/.{1,4}/g)!;
  const escaped = [...secret].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return [
    secret,
    groups.join(' '),
    groups.join('-'),
    groups.join('.'),
    groups.join('%20'),
    groups.join('+'),
    encodeURIComponent(secret),
    escaped,
    secret.replaceAll('/', '\\/'),
    [...secret].map((character) => `%${character.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
    groups.join('\u00a0'),
    groups.join('/'),
    groups.join('_'),
    groups.join(', '),
    groups.join('\\t'),
    groups.join('%2F'),
    groups.join('%7c'),
    secret.replace(/=+$/, ''),
    secret.endsWith('=') ? atob(secret) : `${groups.join(' - ')}`,
  ];
}

const SPELLINGS = spellings(TOKEN).length;

/** A sane answer for the call (an approved payment, a list for a report), as JSON text. */
function saneAnswer(call: GatewayRequest, fields: Record<string, unknown> = {}): string {
  const body: Record<string, unknown> = { ...payment, ...fields };
  if (call.url.pathname === '/v3/query') body.payments = [];
  if (call.url.pathname.startsWith('/v1/checkouts') && call.method === 'POST') body.id = CHECKOUT_ID;
  return JSON.stringify(body);
}

/** What the hostile gateway does with one call. */
type Behaviour =
  | { kind: 'huge'; megabytes: number; declared: boolean }
  | { kind: 'endless'; declared: boolean }
  | { kind: 'slow' }
  | { kind: 'truncated'; at: number }
  | { kind: 'malformed'; text: string }
  | { kind: 'echo'; secret: 'token' | 'card' | 'cvv'; spelling: number; where: 'description' | 'field' | 'name' | 'error' }
  | { kind: 'stranger'; fields: Partial<Record<StrangerField, Spelling>>; code: string }
  | { kind: 'deep'; levels: number; list: boolean; code: string }
  | { kind: 'named secret'; secret: 'card' | 'cvv'; name: number }
  | { kind: 'repetitive'; piece: string; kilobytes: number; where: 'value' | 'key'; code: string }
  | { kind: 'foreign'; transport: ForeignTransport };

/**
 * A custom fetch that is not the platform's `fetch` (node-fetch, a test double, an edge runtime's): one that ignores
 * the signal, a body that is a Node stream and never ends, a body-less response whose `text()` never settles or is huge.
 */
type ForeignTransport = 'ignores the signal' | 'endless Node stream' | 'text never settles' | 'huge text';

/**
 * Fields whose names say they hold a secret, as an answer may carry them (a card number or code the request did not
 * send: a read's answer, another system's fields), in the spellings merchants and plugins use.
 */
const SECRET_NAMED: readonly ((secret: string) => Record<string, unknown>)[] = [
  (secret) => ({ card: { bin: '453914', number: secret } }),
  (secret) => ({ card: { cvv: secret } }),
  (secret) => ({ customParameters: { CID: secret } }),
  (secret) => ({ customParameters: { card_number: secret } }),
  (secret) => ({ customParameters: { pan: secret, otp: secret } }),
  (secret) => ({ customParameters: { 'Security-Code': secret } }),
  (secret) => ({ card: { securityCode: { value: secret } } }),
  (secret) => ({ wallet: { paymentToken: [secret] } }),
];

/** The fields a request determines of its answer, and how a stranger's answer may write each. */
type StrangerField = 'id' | 'ndc' | 'reference' | 'paymentType' | 'amount' | 'currency' | 'merchantTransactionId' | 'card';
type Spelling = 'other' | 'same' | 'same, other case' | 'absent' | 'null' | 'empty';
/** Another request's value of each field: what no answer returned for this call may hold. */
const STRANGER: Record<StrangerField, string> = {
  id: '8ac7a4a17000000000000000000000ee',
  ndc: '0123456789ABCDEF0123456789ABCDEF.uat01-vm-tx03',
  reference: 'another-request-reference',
  // A rebill: a type none of the calls here sends.
  paymentType: 'RB',
  amount: '1.23',
  currency: 'JPY',
  merchantTransactionId: 'another-order',
  // Another shopper's card, as an answer names it: `card.last4Digits` (and its bin).
  card: '0007',
};
/** Which fields each call determines: a read its transaction or checkout, a money movement its own terms. */
const DETERMINED: Record<string, readonly StrangerField[]> = {
  'client.payments.get': ['id'],
  'client.reports.get': ['id'],
  'client.checkouts.getPayment': ['ndc'],
  'client.handleShopperReturn': ['ndc'],
  "client.handleShopperReturn({ expect: 'registration' })": ['ndc'],
  'client.payments.create': ['reference', 'paymentType', 'amount', 'currency', 'merchantTransactionId', 'card'],
  'client.payments.capture': ['reference', 'paymentType', 'amount', 'currency', 'merchantTransactionId'],
  'client.payments.refund': ['reference', 'paymentType', 'amount', 'currency', 'merchantTransactionId'],
  'client.payments.reverse': ['reference', 'paymentType'],
  'client.payouts.create': ['reference', 'paymentType', 'amount', 'currency', 'merchantTransactionId', 'card'],
  'client.registrations.createPayment': ['reference', 'paymentType', 'amount', 'currency', 'merchantTransactionId'],
  'client.registrations.createPayment(savedCard)': ['reference', 'paymentType', 'amount', 'currency', 'merchantTransactionId'],
  // A saved card: another shopper's would be charged later, on a subscription's repeat.
  'client.registrations.create': ['card'],
  // A deletion moves no money: an answer naming an amount is another request's payment.
  'client.registrations.delete': ['amount'],
  'client.registrations.delete(savedCard)': ['amount'],
  // A report by order lists that order's transactions only.
  'client.reports.findByMerchantTransactionId': ['merchantTransactionId'],
};
const STRANGER_FIELDS = Object.keys(STRANGER) as StrangerField[];

/** Each kind of hostile answer, generated: its own property per method, so a run names every method and kind that fails. */
const BEHAVIOURS: Record<Behaviour['kind'], { runs: number; arbitrary: fc.Arbitrary<Behaviour> }> = {
  huge: {
    runs: 3,
    arbitrary: fc.record({ kind: fc.constant('huge' as const), megabytes: fc.integer({ min: 2, max: 12 }), declared: fc.boolean() }),
  },
  endless: { runs: 2, arbitrary: fc.record({ kind: fc.constant('endless' as const), declared: fc.boolean() }) },
  slow: { runs: 1, arbitrary: fc.record({ kind: fc.constant('slow' as const) }) },
  truncated: { runs: 10, arbitrary: fc.record({ kind: fc.constant('truncated' as const), at: fc.nat() }) },
  malformed: {
    runs: 20,
    arbitrary: fc.record({
      kind: fc.constant('malformed' as const),
      text: fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.json({ maxDepth: 3 }),
        fc.constantFrom('{"result":null}', '{"result":{"code":7}}', '[]', 'null', '{"result":{"code":"000.100.110"},"payments":{}}'),
      ),
    }),
  },
  echo: {
    runs: 40,
    arbitrary: fc.record({
      kind: fc.constant('echo' as const),
      secret: fc.constantFrom('token' as const, 'card' as const, 'cvv' as const),
      spelling: fc.nat({ max: SPELLINGS - 1 }),
      where: fc.constantFrom('description' as const, 'field' as const, 'name' as const, 'error' as const),
    }),
  },
  stranger: {
    // An approved answer (2 codes of 5) with one given field another's (1 spelling of 6) is 1 run in 15: 100 runs miss it 1 time in 1,000.
    runs: 100,
    arbitrary: fc.record({
      kind: fc.constant('stranger' as const),
      fields: fc.record(
        Object.fromEntries(
          STRANGER_FIELDS.map((field) => [
            field,
            fc.constantFrom<Spelling>('other', 'same', 'same, other case', 'absent', 'null', 'empty'),
          ]),
        ) as Record<StrangerField, fc.Arbitrary<Spelling>>,
      ),
      code: fc.constantFrom('000.100.110', '000.000.000', '000.200.000', '000.200.100', '800.100.152'),
    }),
  },
  deep: {
    runs: 6,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      levels: fc.oneof(fc.integer({ min: 33, max: 2000 }), fc.integer({ min: 20_000, max: 150_000 })),
      list: fc.boolean(),
      // Approved, declined (an error carries the answer) and uncertain (a money movement looks it up).
      code: fc.constantFrom('000.100.110', '800.100.152', '900.100.300'),
    }),
  },
  'named secret': {
    runs: 12,
    arbitrary: fc.record({
      kind: fc.constant('named secret' as const),
      secret: fc.constantFrom('card' as const, 'cvv' as const),
      name: fc.nat({ max: SECRET_NAMED.length - 1 }),
    }),
  },
  repetitive: {
    // One piece over and over, up to an answer's bound: what a scan that walks on to the text's end at each try (a key
    // scan, a word around a digit run) takes quadratic time on, holding the event loop that the call's timeout needs.
    // (The request's own security code repeated is the redaction suite's: here it would read as the canary leaking.)
    runs: 4,
    arbitrary: fc.record({
      kind: fc.constant('repetitive' as const),
      piece: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('[cvv.', '"number.', '1234-', '1234|', '4111 1111 1111 1111 ', '%34', 'cvv: ') },
        { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
      ),
      kilobytes: fc.integer({ min: 640, max: 1000 }),
      where: fc.constantFrom('value' as const, 'key' as const),
      code: fc.constantFrom('000.100.110', '800.100.152', '900.100.300'),
    }),
  },
  foreign: {
    runs: 4,
    arbitrary: fc.record({
      kind: fc.constant('foreign' as const),
      transport: fc.constantFrom<ForeignTransport>('ignores the signal', 'endless Node stream', 'text never settles', 'huge text'),
    }),
  },
};

/** What this call sent (or read) for `field`: the value its own answer carries. */
function ownValue(call: GatewayRequest, field: StrangerField): string | undefined {
  const form = call.form;
  const id = /\/v1\/payments\/([^/]+)$|\/v3\/query\/([^/]+)$/.exec(call.url.pathname);
  switch (field) {
    case 'id':
      return id?.[1] ?? id?.[2] ?? PAYMENT_ID;
    case 'ndc':
      return /\/v1\/checkouts\/([^/]+)\//.exec(call.url.pathname)?.[1] ?? CHECKOUT_ID;
    case 'reference':
      return form.get('customParameters[GW_REFERENCE]') ?? undefined;
    case 'card':
      return form.get('card.number')?.slice(-4) ?? card.number.slice(-4);
    default:
      return form.get(field) ?? call.url.searchParams.get(field) ?? (field === 'amount' ? '92.00' : field === 'currency' ? 'EUR' : 'DB');
  }
}

/** An answer in which each determined field is another request's, this request's, or missing, as `how` says. */
function strangerAnswer(call: GatewayRequest, how: Extract<Behaviour, { kind: 'stranger' }>): Response {
  const body: Record<string, unknown> = { ...JSON.parse(saneAnswer(call)), result: { code: how.code, description: 'x' } };
  for (const field of STRANGER_FIELDS) {
    const spelling = how.fields[field] ?? 'same';
    const own = ownValue(call, field);
    const value = {
      other: STRANGER[field],
      same: own,
      'same, other case': field === 'amount' ? own : own?.toLowerCase(),
      absent: undefined,
      null: null,
      empty: '',
    }[spelling];
    if (field === 'reference') body.customParameters = value === undefined ? undefined : { GW_REFERENCE: value };
    else if (field === 'card')
      body.card =
        typeof value === 'string' && value ? { bin: value === STRANGER.card ? '520000' : PAN.slice(0, 6), last4Digits: value } : value;
    else body[field] = value;
  }
  // A report lists the answer as its one transaction.
  if (call.url.pathname === '/v3/query') {
    const { payments: _, ...entry } = body;
    return new Response(JSON.stringify({ result: { code: '000.000.100', description: 'x' }, payments: [entry] }), { status: 200 });
  }
  return new Response(JSON.stringify(body), { status: 200 });
}

/** The fields in which a value a call returned is another request's. */
function strangerFields(name: string, value: unknown): StrangerField[] {
  const list = (value as { payments?: unknown } | undefined)?.payments;
  if (Array.isArray(list)) return [...new Set(list.flatMap((entry: unknown) => strangerFields(name, entry)))];
  const answer = (value ?? {}) as Record<string, unknown> & {
    customParameters?: { GW_REFERENCE?: unknown };
    card?: { last4Digits?: unknown };
  };
  return (DETERMINED[name] ?? []).filter((field) =>
    field === 'reference'
      ? answer.customParameters?.GW_REFERENCE === STRANGER.reference
      : field === 'card'
        ? answer.card?.last4Digits === STRANGER.card
        : answer[field] === STRANGER[field],
  );
}

/** A body served in chunks as the client pulls it, counting what it pulled beyond `bound`; `total` undefined never ends. */
const countedStream = (head: string, total: number | undefined, bound: number, pulled: Pulled) =>
  streamedBody(head, {
    ...(total === undefined ? {} : { totalBytes: total, tail: '"}' }),
    chunkBytes: CHUNK_BYTES,
    stopBytes: STREAM_STOP_BYTES,
    // A reader that stops at its bound pulls at most one chunk beyond it (the stream's own read-ahead).
    onChunk: (sent) => void (pulled.over = Math.max(pulled.over, sent - bound - 2 * CHUNK_BYTES)),
  });

function answerFor(call: GatewayRequest, how: Behaviour, pulled: Pulled): Response | Promise<Response> {
  const head = `{"result":{"code":"000.100.110","description":"ok"},"id":"${PAYMENT_ID}","payments":[],"padding":"`;
  switch (how.kind) {
    case 'huge': {
      const total = how.megabytes * 1024 * 1024;
      const headers = how.declared ? { 'content-length': String(total + head.length + 2) } : undefined;
      return new Response(countedStream(head, total, boundOf(call), pulled), { status: 200, headers });
    }
    case 'endless':
      return new Response(countedStream(head, undefined, boundOf(call), pulled), {
        status: 200,
        headers: how.declared ? { 'content-length': String(10 * 1024 * 1024 * 1024) } : undefined,
      });
    case 'slow':
      // One byte every 10 ms, forever: only the client's timeout ends it.
      return new Response(tricklingBody(call.signal), { status: 200 });
    case 'truncated': {
      const text = saneAnswer(call);
      return new Response(text.slice(0, how.at % text.length), { status: 200 });
    }
    case 'malformed':
      return new Response(how.text, { status: [200, 400, 502][how.text.length % 3] });
    case 'echo': {
      // It echoes what it was sent: the card number and code of a request that carries them, else the token.
      const sent = { token: TOKEN, card: call.form.get('card.number'), cvv: call.form.get('card.cvv') }[how.secret];
      const secret = sent ?? TOKEN;
      const spelled = spellings(secret)[how.spelling % SPELLINGS]!;
      // Raw JSON text, so that escapes reach the client as the gateway wrote them. A payment's fields, so a shopper return keeps it.
      const paid = `"id":"${PAYMENT_ID}","paymentType":"DB","amount":"92.00","currency":"EUR","payments":[]`;
      const raw = {
        description: `{"result":{"code":"000.100.110","description":"echo ${spelled}"},${paid}}`,
        field: `{"result":{"code":"000.100.110"},${paid},"customParameters":{"echo":"${spelled}"},"descriptor":"x ${spelled} y"}`,
        name: `{"result":{"code":"000.100.110"},"id":"${PAYMENT_ID}","payments":[],"customParameters":{"${spelled}":"v"}}`,
        error: `{"result":{"code":"200.300.404","description":"bad ${spelled}","parameterErrors":[{"name":"note","value":"${spelled}","message":"bad ${spelled}"}]}}`,
      }[how.where];
      return new Response(raw, { status: how.where === 'error' ? 400 : 200 });
    }
    case 'stranger':
      return strangerAnswer(call, how);
    case 'deep': {
      // Well within an answer's bytes (two per level), nested far deeper than any answer of the platform.
      const [open, close] = how.list ? ['[', ']'] : ['{"a":', '}'];
      const nested = `${open.repeat(how.levels)}1${close.repeat(how.levels)}`;
      const body = saneAnswer(call, { result: { code: how.code, description: 'x' } });
      return new Response(`${body.slice(0, -1)},"nested":${nested}}`, { status: 200 });
    }
    case 'named secret': {
      // A card number or code under a field that names it: masked by its name, whatever the request knew.
      const secret = how.secret === 'card' ? PAN : CVV;
      return new Response(saneAnswer(call, SECRET_NAMED[how.name % SECRET_NAMED.length]!(secret)), { status: 200 });
    }
    case 'repetitive': {
      const text = how.piece.repeat(Math.ceil((how.kilobytes * 1024) / how.piece.length)).slice(0, how.kilobytes * 1024);
      const fields = how.where === 'value' ? { descriptor: text } : { customParameters: { [text]: 'v' } };
      return new Response(saneAnswer(call, { result: { code: how.code, description: 'x' }, ...fields }), { status: 200 });
    }
    case 'foreign':
      throw new Error("a foreign transport is the client's own fetch (foreignFetch), never the stand-in");
  }
}

/** The fetch of a `foreign` behaviour: it answers every call its own way, and counts what the client pulls of an endless body. */
function foreignFetch(transport: ForeignTransport, pulled: Pulled): typeof fetch {
  const head = `{"result":{"code":"000.100.110","description":"ok"},"id":"${PAYMENT_ID}","payments":[],"padding":"`;
  const response = (fields: Record<string, unknown>) =>
    ({ status: 200, headers: new Headers({ 'content-type': 'application/json' }), ...fields }) as unknown as Response;
  return ((input: string | URL) => {
    const bound = boundOf({ url: new URL(String(input)) } as GatewayRequest);
    switch (transport) {
      case 'ignores the signal':
        return new Promise<Response>(() => undefined);
      case 'endless Node stream': {
        let sent = 0;
        const chunk = 'x'.repeat(CHUNK_BYTES);
        async function* endless() {
          yield Buffer.from(head);
          // A reader that gives up stops pulling; the stop is the test's safety net.
          while (sent < STREAM_STOP_BYTES) {
            sent += CHUNK_BYTES;
            pulled.over = Math.max(pulled.over, sent - bound - 2 * CHUNK_BYTES);
            await new Promise((resolve) => setTimeout(resolve, 5));
            yield Buffer.from(chunk);
          }
        }
        return Promise.resolve(response({ body: endless(), text: () => new Promise(() => undefined) }));
      }
      case 'text never settles':
        return Promise.resolve(response({ body: null, text: () => new Promise(() => undefined) }));
      case 'huge text':
        return Promise.resolve(response({ body: null, text: async () => `${head}${'x'.repeat(2 * ANSWER_MAX_BYTES)}"}` }));
    }
  }) as typeof fetch;
}

/** Every way an outcome gets written down: the value or error, its causes, its payment. */
function renderings(value: unknown): string[] {
  const texts = [inspect(value, { depth: 8, showHidden: true, maxStringLength: 4096 })];
  try {
    texts.push(JSON.stringify(value) ?? '');
  } catch {
    // A cycle: inspect above shows it.
  }
  if (value instanceof Error) {
    texts.push(String(value), value.stack ?? '');
    for (let cause = value.cause, depth = 0; cause !== undefined && cause !== null && depth < 8; cause = (cause as Error).cause, depth++)
      texts.push(inspect(cause, { depth: 8, showHidden: true }), String(cause));
  }
  return texts;
}

const TIMEOUT_MS = 150;
/** A call that has not ended after this long runs forever: its own timeout (and one reconciliation) are long past. */
const NEVER_MS = 20_000;

/** Runs one call against the hostile gateway and checks every invariant. */
async function hostileCall(name: string, how: Behaviour): Promise<void> {
  const pulled: Pulled = { over: 0 };
  const events: unknown[] = [];
  // What the status store is given to keep (a shopper return stores its answer): a channel like the others.
  const memory = server.createMemoryStatusStore();
  const stored: string[] = [];
  const statusStore: server.StatusStore = {
    ...memory,
    settle: (key, token, settlement) => {
      if (settlement.value !== undefined) stored.push(settlement.value);
      return memory.settle(key, token, settlement);
    },
  };
  const { client } = standInClient((call) => answerFor(call, how, pulled), {
    ...(how.kind === 'foreign' ? { fetch: foreignFetch(how.transport, pulled) } : {}),
    statusStore,
    timeoutMs: TIMEOUT_MS,
    reconcileDelaysMs: [0],
    onRequest: (event) => void events.push(event),
    onResponse: (event) => void events.push(event),
  });
  let timer: NodeJS.Timeout | undefined;
  const started = performance.now();
  const never = new Promise<'never'>((resolve) => (timer = setTimeout(() => resolve('never'), NEVER_MS)));
  const { result: outcome, printed } = await capturingConsole(() =>
    Promise.race([
      HOSTILE_CALLS[name]!(client).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      never,
    ]),
  );
  clearTimeout(timer);
  const shown = `${name} against a gateway answering ${JSON.stringify(how)}`;
  assert.notEqual(outcome, 'never', `${shown} did not end within ${NEVER_MS} ms`);
  // A call that held the event loop ends before the timer that could have said "never" ever ran: it is as bad.
  assert.ok(performance.now() - started < NEVER_MS, `${shown} held the process for ${Math.round(performance.now() - started)} ms`);
  assert.ok(pulled.over <= 0, `${shown} read ${pulled.over} bytes beyond an answer's bound`);
  if (outcome !== 'never' && 'value' in outcome) {
    assert.deepEqual(strangerFields(name, outcome.value), [], `${shown} returned another request's transaction`);
    // A checkout's creation is the one answer a creation can have: a transaction's success is another request's.
    if (name === 'client.checkouts.create')
      assert.equal((outcome.value as { result?: { code?: string } }).result?.code, '000.200.100', `${shown} returned a non-creation`);
  }
  if (outcome !== 'never' && 'error' in outcome)
    assert.ok(
      outcome.error instanceof server.GatewayError,
      `${shown} threw an untyped ${inspect(outcome.error, { depth: 1 }).slice(0, 300)}`,
    );
  const channels = {
    outcome: renderings(outcome),
    hooks: events.map((event) => JSON.stringify(event)),
    console: printed,
    'status store': stored,
  };
  for (const [channel, texts] of Object.entries(channels))
    for (const text of texts) {
      const leak = leakIn(text, CANARIES);
      assert.equal(leak, undefined, `${shown}: ${leak} in the ${channel}:\n${text.slice(0, 1500)}`);
    }
}

function methodsOf(value: object, prefix: string): string[] {
  return Object.entries(value).flatMap(([key, member]): string[] => {
    if (typeof member === 'function') return [`${prefix}.${key}`];
    return typeof member === 'object' && member !== null ? methodsOf(member, `${prefix}.${key}`) : [];
  });
}

describe('hostile peer: gateway answers', () => {
  test('every client method has its hostile call (a new method must be added to CALLS)', () => {
    const { client } = standInClient(() => ({ status: 200, body: payment }));
    assert.deepEqual(methodsOf(client, 'client').sort(), Object.keys(CALLS).sort());
  });

  for (const name of Object.keys(HOSTILE_CALLS)) {
    for (const [kind, { runs, arbitrary }] of Object.entries(BEHAVIOURS)) {
      test(`${name}: ${kind} answers`, async () => {
        await fc.assert(
          fc.asyncProperty(arbitrary, (how) => hostileCall(name, how)),
          { numRuns: propertyRuns(runs) },
        );
      });
    }
  }
});

/** What a search remembers (src/server/resources/reports.ts): the ids of its last 200 full pages. */
const REMEMBERED_PAGES_OF_100 = 200;
/** Enough for Brent's comparison page to catch the longest cycle below, so the property fails on its counts instead of hanging. */
const WALK_STOP_PAGES = 1_200;

/** Report pages that never end: `prefix` distinct pages, then a cycle of `cycle` pages repeating for ever. */
describe('hostile peer: report walks always end', () => {
  test('a search over pages that loop (any prefix, any cycle length) ends with a typed error, without yielding a transaction twice', async () => {
    // A lean entry per transaction (an id and a result): long walks read hundreds of pages of 100.
    const entry = { result: payment.result, paymentType: 'DB' };
    const walks = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({ prefix: fc.nat({ max: 5 }), cycle: fc.integer({ min: 1, max: 6 }), size: fc.integer({ min: 1, max: 3 }) }),
      },
      // Full pages past what a search remembers: a cycle entered late, within the memory's length or longer than it.
      {
        weight: 1,
        arbitrary: fc.record({
          prefix: fc.integer({ min: 195, max: 260 }),
          cycle: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 196, max: 204 })),
          size: fc.constant(100),
        }),
      },
    );
    await fc.assert(
      fc.asyncProperty(walks, async ({ prefix, cycle, size }) => {
        let requested = 0;
        const page = (number: number) => {
          const index = number <= prefix ? number : prefix + 1 + ((number - prefix - 1) % cycle);
          return Array.from({ length: size }, (_, item) => ({
            ...entry,
            id: `8ac7a4a1${String(index).padStart(8, '0')}${String(item).padStart(16, '0')}`,
          }));
        };
        const { client } = standInClient((call) => {
          if (++requested > WALK_STOP_PAGES) throw new Error('the walk did not stop');
          return {
            status: 200,
            body: {
              result: { code: '000.000.100', description: 'successful request' },
              payments: page(Number(call.url.searchParams.get('pageNo'))),
            },
          };
        });
        const yielded: string[] = [];
        let failure: unknown;
        try {
          for await (const found of client.reports.search({ from: '2026-11-01 00:00:00', to: '2026-11-02 00:00:00', pageSize: size }))
            yielded.push(found.id);
        } catch (error) {
          failure = error;
        }
        const walk = `prefix ${prefix}, cycle ${cycle} of ${size}`;
        assert.ok(failure instanceof server.GatewayNetworkError, `${walk}: ${String(failure)} after ${requested} pages`);
        if (size < 100 || cycle <= REMEMBERED_PAGES_OF_100) {
          assert.equal(
            new Set(yielded).size,
            yielded.length,
            `${walk}: ${yielded.length - new Set(yielded).size} transactions yielded twice`,
          );
          assert.ok(requested <= prefix + cycle + 1, `${walk}: ${requested} pages read`);
        } else {
          // Longer than the memory: Brent's page, kept at a power of two inside the cycle and for a whole cycle, catches it.
          const kept = 2 ** Math.ceil(Math.log2(Math.max(prefix + 1, cycle)));
          assert.ok(requested <= kept + cycle + 1, `${walk}: ${requested} pages read`);
        }
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});

/** The notification key of the hostile-peer stage: the sender holds it, so everything it sends decrypts. */
const NOTIFICATION_KEY = 'cd'.repeat(32);

/** What a sender may put in a notification: secrets under their names or labelled, at any depth, and payloads no platform sends. */
const notificationBody = fc.oneof(
  fc
    .record({
      type: fc.constantFrom('PAYMENT', 'REGISTRATION', 'RISK', 'test'),
      secret: fc.constantFrom(PAN, CVV, TOKEN),
      named: fc.nat(SECRET_NAMED.length - 1),
      path: fc.array(fc.constantFrom('payload', 'customParameters', 'risk', 'card', 'list'), { maxLength: 6 }),
      labelled: fc.constantFrom('Bearer ', 'authorization: Bearer ', 'Authorization=Bearer%20'),
    })
    .map(({ type, secret, named, path, labelled }) => {
      let held: unknown = { ...SECRET_NAMED[named]!(secret), descriptor: `${labelled}${TOKEN}` };
      for (const key of path.reverse()) held = key === 'list' ? [held] : { [key]: held };
      return JSON.stringify({
        type,
        action: 'CREATED',
        payload: { ...payment, timestamp: '2026-11-27 10:00:00+0000', nested: held },
      });
    }),
  fc
    .nat(4 * ANSWER_MAX_DEPTH)
    .map((levels) =>
      JSON.stringify({ type: 'PAYMENT', payload: { ...payment } }).replace(
        '{"id"',
        `{"deep":${'['.repeat(levels)}${']'.repeat(levels)},"id"`,
      ),
    ),
  fc
    .record({ piece: fc.constantFrom('[cvv.', '4539-1488-', '"card":{"number":', '\\u0034'), kilobytes: fc.integer({ min: 1, max: 700 }) })
    .map(
      ({ piece, kilobytes }) =>
        `{"type":"PAYMENT","payload":{"id":"x","result":{"code":"000.100.110"},"d":"${piece.repeat(Math.ceil((kilobytes * 1024) / piece.length)).replaceAll('"', '\\"')}"}}`,
    ),
  fc.string({ maxLength: 200 }),
);

/** How a listener receives the body: the hex text, its JSON wrapper, or a wrapper a sender nested or padded. */
const notificationWrapping = fc.constantFrom('hex', 'wrapper', 'nested wrapper', 'bracket flood');

describe('hostile peer: notifications', () => {
  test('whatever an authenticated sender puts in a notification, decryptNotification ends typed, soon, and masks every secret it names or labels', async () => {
    await fc.assert(
      fc.asyncProperty(notificationBody, notificationWrapping, async (plaintext, wrapping) => {
        const sealed = await encryptNotification(plaintext, NOTIFICATION_KEY, webRandomBytes(12));
        const body =
          wrapping === 'hex'
            ? sealed.body
            : wrapping === 'wrapper'
              ? JSON.stringify({ encryptedBody: sealed.body })
              : wrapping === 'nested wrapper'
                ? JSON.stringify({ encryptedBody: sealed.body, meta: { via: ['proxy'] } })
                : `{"encryptedBody":"${sealed.body}","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
        const started = performance.now();
        const outcome = await server
          .decryptNotification(
            { body, headers: { 'x-initialization-vector': sealed.iv, 'x-authentication-tag': sealed.tag } },
            NOTIFICATION_KEY,
          )
          .then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
        const shown = `a notification ${JSON.stringify(plaintext.slice(0, 300))} (${plaintext.length} characters, ${wrapping})`;
        assert.ok(performance.now() - started < NEVER_MS, `${shown} held the process for ${Math.round(performance.now() - started)} ms`);
        if ('error' in outcome) assert.ok(outcome.error instanceof server.NotificationError, `${shown} threw ${inspect(outcome.error)}`);
        else assert.ok(wrapping === 'hex' || wrapping === 'wrapper', `${shown}: a nested wrapper was read`);
        for (const text of renderings('value' in outcome ? outcome.value : outcome.error)) {
          const leak = leakIn(text, CANARIES);
          assert.equal(leak, undefined, `${shown}: ${leak} in the outcome:\n${text.slice(0, 1500)}`);
        }
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});

describe('hostile peer: options and clocks', () => {
  test('decryptNotification with maxAgeSeconds refuses a month-old delivery whatever the clock answers', async () => {
    const key = 'ab'.repeat(32);
    const old = JSON.stringify({ type: 'PAYMENT', payload: { ...payment, timestamp: '2026-10-01 10:00:00+0000' } });
    const sealed = await encryptNotification(old, key, webRandomBytes(12));
    const delivery = { body: sealed.body, headers: { 'x-initialization-vector': sealed.iv, 'x-authentication-tag': sealed.tag } };
    const clocks = fc.oneof(
      fc.constantFrom<unknown>(NaN, undefined, null, 'now', '1793000000000', {}, [], Infinity, -Infinity, true, Date.parse('2026-11-01')),
      fc.bigInt().map((value) => value as unknown),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(clocks, async (reading) => {
        const error = await server.decryptNotification(delivery, key, { maxAgeSeconds: 60, now: () => reading as number }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        assert.ok(
          error instanceof server.GatewayError,
          `a clock reading ${inspect(reading)} accepted a month-old delivery or failed untyped: ${inspect(error)}`,
        );
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  test('createGatewayClient refuses a base URL that would send the token in clear, and accepts https and a local sandbox', () => {
    const remote = fc.oneof(
      fc.domain(),
      fc.ipV4().filter((ip) => !ip.startsWith('127.')),
      fc.constantFrom('gateway.example', '10.0.0.1', '[2001:db8::1]'),
    );
    fc.assert(
      fc.property(remote, fc.option(fc.integer({ min: 1, max: 65535 })), (host, port) => {
        const where = `${host}${port === null ? '' : `:${port}`}`;
        const make = (scheme: string) => () =>
          server.createGatewayClient({ baseUrl: `${scheme}://${where}`, accessToken: TOKEN, entityId: ENTITY });
        assert.throws(make('http'), server.GatewayValidationError, `http://${where} is refused`);
        make('https')();
      }),
      { numRuns: propertyRuns(100) },
    );
    for (const local of ['http://127.0.0.1:8080', 'http://localhost:3000', 'http://[::1]:9000'])
      server.createGatewayClient({ baseUrl: local, accessToken: TOKEN, entityId: ENTITY });
  });

  test('widgetPreload writes only header-safe values, whatever valid integrity or whitespace it is given', () => {
    const hash = fc.uint8Array({ minLength: 48, maxLength: 48 }).map((bytes) => `sha384-${Buffer.from(bytes).toString('base64')}`);
    const space = fc.constantFrom(' ', '\n', '\t', '\r\n', '  \n\t ');
    fc.assert(
      fc.property(fc.array(fc.tuple(hash, space), { minLength: 1, maxLength: 3 }), space, (hashes, lead) => {
        const integrity = lead + hashes.map(([value, after]) => value + after).join('');
        let preload: server.WidgetPreload;
        try {
          preload = server.widgetPreload({ id: CHECKOUT_ID, integrity }, { baseUrl: 'https://eu-test.oppwa.com' });
        } catch (error) {
          // Refusing is allowed; an untyped failure is not.
          assert.ok(error instanceof server.GatewayValidationError, inspect(error));
          return;
        }
        for (const value of [preload.link, preload.preconnect.link]) validateHeaderValue('link', value);
        for (const [value] of hashes) assert.ok(preload.link.includes(value) && preload.html.includes(value), 'every hash is kept');
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});
