/**
 * Issue 19, class 7: every export of `gw-elements/server`, for any value of
 * any parameter, fails only with the kit's typed errors (GatewayError and its
 * subclasses), and no error carries a planted card number, CVV or access token
 * in its message, JSON, util.inspect output or cause chain.
 *
 * The exports are enumerated from the module, and the client's methods from a
 * client, so a new export or method is covered without editing this file.
 * Arguments are fast-check's `anything()` and near misses: valid requests,
 * ids, queries, notifications and payments with a field replaced by anything,
 * all carrying the canaries. The client talks to an injected fetch that
 * answers like the gateway (approved, declined, invalid, uncertain, a proxy
 * page, a thrown error), each echoing the request: nothing leaves the machine.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import * as server from '../../src/server/index.js';
import { leakIn } from './canaries.js';
import { answer, ENTITY, PAYMENT_ID, standInClient, TOKEN, type GatewayRequest } from '../support/gateway-stand-in.js';

const PAN = '4012888888881881';
const CVV = '7391';
/** The CVV is looked for only where it stands alone outside ids: a random UUID or payment id can hold any 4 digits. */
const CANARIES = { token: TOKEN, cardNumbers: [PAN], codes: [CVV] };
const CHECKOUT_ID = 'ABCE449B5FC84ED5A1C7174840C7A3F8.uat01-vm-tx03';
const RUNS = 60;

const card = { number: PAN, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: CVV };
const payment = {
  id: PAYMENT_ID,
  paymentType: 'DB',
  paymentBrand: 'VISA',
  amount: '92.00',
  currency: 'EUR',
  merchantTransactionId: 'order-1',
  registrationId: '8ac7a4a17000000000000000000000bb',
  result: { code: '000.100.110', description: 'ok' },
  card: { bin: '401288', last4Digits: '1881', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' },
  standingInstruction: { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' },
  resultDetails: { CardholderInitiatedTransactionID: 'SRCH-1' },
};

/** Valid inputs of every kind an export takes, each carrying the canaries where a secret belongs. */
const VALID: readonly unknown[] = [
  {
    amount: '92.00',
    currency: 'EUR',
    paymentType: 'DB',
    paymentBrand: 'VISA',
    card,
    customer: { email: 'jane@example.com', ip: '192.0.2.10' },
    customParameters: { note: TOKEN },
  },
  { amount: '12.00', currency: 'EUR', paymentType: 'DB' },
  { amount: '1.00', currency: 'EUR', merchantTransactionId: 'order-2' },
  { paymentBrand: 'VISA', card },
  { programme: 'basicCredit', paymentType: 'CD', amount: '5.00', currency: 'EUR', paymentBrand: 'VISA', card },
  { id: CHECKOUT_ID, resourcePath: `/v1/checkouts/${CHECKOUT_ID}/payment` },
  { id: PAYMENT_ID, resourcePath: `/v1/payments/${PAYMENT_ID}` },
  { body: 'ab'.repeat(40), headers: { 'x-initialization-vector': '00'.repeat(12), 'x-authentication-tag': '00'.repeat(16) } },
  payment,
  { ...payment, result: { code: '800.100.152', description: 'declined' } },
  { id: PAYMENT_ID, amount: '92.00', currency: 'EUR', paymentBrand: 'VISA', paymentType: 'DB' },
  { numberOfInstallments: 3, expiry: '2027-01-01', frequency: '0030' },
  { type: 'UNSCHEDULED', initialTransactionId: 'SRCH-1' },
  { entityId: ENTITY },
  { timeoutMs: 50 },
  { signal: AbortSignal.abort() },
  { store: server.createMemoryStatusStore(), claimMs: 100 },
  PAYMENT_ID,
  CHECKOUT_ID,
  '0'.repeat(64),
  'payment',
  '000.000.000',
  TOKEN,
];

/** Where a near miss replaces a value: top-level and nested fields the exports read. */
const PATHS = [
  'amount',
  'currency',
  'paymentType',
  'paymentBrand',
  'card',
  'card.number',
  'card.cvv',
  'card.expiryYear',
  'customer',
  'customParameters',
  'merchantTransactionId',
  'programme',
  'id',
  'resourcePath',
  'body',
  'headers',
  'headers.x-authentication-tag',
  'result',
  'result.code',
  'registrationId',
  'standingInstruction',
  'entityId',
  'signal',
  'timeoutMs',
  'store',
  'expiry',
  'frequency',
  'type',
];

function setPath(target: unknown, path: string, value: unknown): unknown {
  if (typeof target !== 'object' || target === null) return target;
  const copy: Record<string, unknown> = Array.isArray(target) ? ([...target] as never) : { ...target };
  const [head, ...rest] = path.split('.');
  copy[head!] = rest.length ? setPath(copy[head!] ?? {}, rest.join('.'), value) : value;
  return copy;
}

const nearMiss = fc
  .tuple(fc.constantFrom(...VALID), fc.array(fc.tuple(fc.constantFrom(...PATHS), fc.anything()), { maxLength: 3 }))
  .map(([valid, changes]) => changes.reduce<unknown>((value, [path, replacement]) => setPath(value, path, replacement), valid));
const argument = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...VALID) },
  { weight: 3, arbitrary: nearMiss },
  { weight: 2, arbitrary: fc.anything() },
);

/** How the injected gateway answers: each echoes the request, as a misbehaving gateway or proxy might. */
const ANSWERS: Record<string, (call: GatewayRequest) => Response> = {
  approved: (call) =>
    json(
      200,
      answer('000.100.110', {
        ...payment,
        echoed: Object.fromEntries(call.form),
        id: PAYMENT_ID,
        merchantTransactionId: call.form.get('merchantTransactionId') ?? call.url.searchParams.get('merchantTransactionId') ?? 'x',
        payments: [],
      }),
    ),
  declined: (call) =>
    json(
      200,
      answer(
        '800.100.152',
        { ...payment, card: { number: call.form.get('card.number'), cvv: call.form.get('card.cvv') } },
        `declined ${call.body}`,
      ),
    ),
  invalid: (call) =>
    json(400, {
      result: {
        code: '200.300.404',
        description: `bad ${call.body}`,
        parameterErrors: [...call.form].map(([name, value]) => ({ name, value, message: `bad ${value}` })),
      },
    }),
  uncertain: (call) => json(504, answer('900.100.300', {}, `timeout ${call.body} ${call.authorization}`)),
  refused: (call) => json(401, answer('800.900.300', {}, `refused ${call.authorization}`)),
  proxy: (call) => new Response(`<html>${call.body} ${call.authorization}</html>`, { status: 502 }),
  thrown: (call) => {
    throw new TypeError(`fetch ${call.url} ${call.body} ${call.authorization}`, { cause: { token: TOKEN, body: call.body } });
  },
};
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let answering: keyof typeof ANSWERS = 'approved';

/** Every way an error and its causes get written down. */
function renderings(error: Error): string[] {
  const texts = [
    String(error),
    error.message,
    error.stack ?? '',
    JSON.stringify(error) ?? '',
    inspect(error, { depth: Infinity, showHidden: true }),
  ];
  for (
    let cause: unknown = error.cause, depth = 0;
    cause !== undefined && cause !== null && depth < 10;
    cause = (cause as Error).cause, depth++
  ) {
    texts.push(
      String(cause),
      inspect(cause, { depth: Infinity, showHidden: true }),
      JSON.stringify(cause) ?? '',
      (cause as Error).stack ?? '',
    );
  }
  return texts;
}

/** The property: a call answers, or throws a typed error without the canaries. */
async function check(name: string, call: () => unknown, args: readonly unknown[]): Promise<void> {
  let thrown: unknown;
  try {
    await call();
    return;
  } catch (error) {
    thrown = error;
  }
  const shown = () => `${name}(${inspect(args, { depth: 4, breakLength: Infinity }).slice(0, 600)}) with the gateway ${answering}`;
  assert.ok(thrown instanceof server.GatewayError, `${shown()} threw an untyped ${inspect(thrown, { depth: 1 }).slice(0, 400)}`);
  for (const text of renderings(thrown)) {
    const leak = leakIn(text, CANARIES);
    assert.equal(leak, undefined, `${shown()}: ${leak} leaked in\n${text.slice(0, 1500)}`);
  }
}

const isClass = (value: unknown) => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));

/** The client's methods, found by walking it: `client.payments.create`, `client.handleShopperReturn`, … */
function methodsOf(value: object, prefix: string): [string, (...args: unknown[]) => unknown][] {
  return Object.entries(value).flatMap(([key, member]): [string, (...args: unknown[]) => unknown][] => {
    const name = `${prefix}.${key}`;
    if (typeof member === 'function') return [[name, member as (...args: unknown[]) => unknown]];
    return typeof member === 'object' && member !== null ? methodsOf(member, name) : [];
  });
}

const { client } = standInClient((call) => ANSWERS[answering]!(call), { reconcileDelaysMs: [0], timeoutMs: 1000 });
const functions = (Object.entries(server) as [string, unknown][]).filter(
  (entry): entry is [string, (...args: unknown[]) => unknown] => typeof entry[1] === 'function',
);
const targets: [string, (...args: unknown[]) => unknown][] = [...functions, ...methodsOf(client, 'client')];

describe('every export of gw-elements/server fails only with typed errors, without secrets', () => {
  test('the enumeration finds the exports and the client methods', () => {
    const names = targets.map(([name]) => name);
    for (const expected of [
      'createGatewayClient',
      'decryptNotification',
      'verifyPayment',
      'outcomeOf',
      'client.payments.create',
      'client.handleShopperReturn',
      'client.reports.findByMerchantTransactionId',
    ]) {
      assert.ok(names.includes(expected), `${expected} is enumerated`);
    }
  });

  for (const [name, fn] of targets) {
    test(`${name}(anything, …)`, async () => {
      const arity = Math.max(fn.length, 1) + 1;
      await fc.assert(
        fc.asyncProperty(
          fc.array(argument, { minLength: 0, maxLength: arity }),
          fc.constantFrom(...(Object.keys(ANSWERS) as (keyof typeof ANSWERS)[])),
          async (args, kind) => {
            answering = kind;
            await check(name, () => (isClass(fn) ? new (fn as unknown as new (...a: unknown[]) => unknown)(...args) : fn(...args)), args);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});
