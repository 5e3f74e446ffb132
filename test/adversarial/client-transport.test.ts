/**
 * Issue 12, class 2: every failure on every path of the client ends in a typed
 * `GatewayError` subclass carrying what the merchant needs (the
 * merchantTransactionId of a payment request), never a TypeError, and a POST is
 * never sent twice. The gateway stand-in answers each request with an arbitrary status
 * and body, or throws an arbitrary value, for every resource method.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { GatewayError, GatewayNetworkError, outcomeOf, UncertainOutcomeError, type GatewayClient } from '../../src/server/index.js';
import { cardPayment, payoutsByProgramme } from '../server/fixtures.js';
import { answer, PAYMENT_ID, standInClient, type ScriptedAnswer } from '../support/gateway-stand-in.js';

const CODES = [
  '000.000.000',
  '000.100.110',
  '000.200.000',
  '000.200.100',
  '000.400.110',
  '100.100.101',
  '200.300.404',
  '700.400.580',
  '800.100.152',
  '800.900.300',
  '800.120.100',
  '900.100.300',
  '999.999.999',
  '123.456.789',
  '',
];

/** Bodies a gateway, a proxy or a broken network could hand back: gateway-shaped ones with wrong parts, and junk. */
const body: fc.Arbitrary<ScriptedAnswer['body' & keyof ScriptedAnswer] | unknown> = fc.oneof(
  fc.record(
    {
      result: fc.oneof(
        fc.record(
          {
            code: fc.oneof(fc.constantFrom(...CODES), fc.anything()),
            description: fc.oneof(fc.string(), fc.anything()),
            parameterErrors: fc.anything(),
          },
          { requiredKeys: ['code'] },
        ),
        fc.anything(),
      ),
      id: fc.oneof(fc.constant(PAYMENT_ID), fc.anything()),
      paymentType: fc.oneof(fc.constantFrom('DB', 'PA', 'CP', 'RF', 'RV', 'CD'), fc.anything()),
      amount: fc.oneof(fc.constant('92.00'), fc.anything()),
      currency: fc.oneof(fc.constant('EUR'), fc.anything()),
      merchantTransactionId: fc.anything(),
      payments: fc.oneof(
        fc.array(fc.record({ id: fc.anything(), result: fc.anything(), paymentType: fc.anything(), amount: fc.anything() })),
        fc.anything(),
      ),
      redirect: fc.anything(),
      card: fc.anything(),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);

/** One answer: a JSON body at any status, a raw text, a thrown value, or something that is not a Response at all. */
const reply = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('json' as const), status: fc.integer({ min: 200, max: 599 }), body }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('raw' as const), status: fc.integer({ min: 200, max: 599 }), raw: fc.string() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('throw' as const), value: fc.anything() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('junk' as const), value: fc.anything() }) },
);
type Reply = typeof reply extends fc.Arbitrary<infer R> ? R : never;

function respond(next: Reply): ScriptedAnswer {
  switch (next.kind) {
    case 'json':
      return { status: next.status, body: next.body };
    case 'raw':
      return { status: next.status, raw: next.raw };
    case 'throw':
      throw next.value;
    case 'junk':
      return next.value as Response;
  }
}

const sent = { merchantTransactionId: 'order-4711' };
/** Every resource method, with a valid request, and whether it names a payment request's merchantTransactionId. */
const METHODS: Record<string, { call: (client: GatewayClient) => Promise<unknown>; moves?: boolean }> = {
  'payments.create': { call: (client) => client.payments.create(cardPayment(sent)), moves: true },
  'payments.create (generated id)': { call: (client) => client.payments.create(cardPayment()), moves: true },
  'payments.capture': { call: (client) => client.payments.capture(PAYMENT_ID, { amount: '1.00', currency: 'EUR', ...sent }), moves: true },
  'payments.refund': { call: (client) => client.payments.refund(PAYMENT_ID, { amount: '1.00', currency: 'EUR', ...sent }), moves: true },
  'payments.reverse': { call: (client) => client.payments.reverse(PAYMENT_ID, sent), moves: true },
  'payouts.create': { call: (client) => client.payouts.create({ ...payoutsByProgramme().basicCredit, ...sent }), moves: true },
  'registrations.createPayment': {
    call: (client) =>
      client.registrations.createPayment(PAYMENT_ID, { paymentType: 'DB', amount: '1.00', currency: 'EUR', paymentBrand: 'VISA', ...sent }),
    moves: true,
  },
  'payments.get': { call: (client) => client.payments.get(PAYMENT_ID) },
  'checkouts.create': { call: (client) => client.checkouts.create({ amount: '1.00', currency: 'EUR', paymentType: 'DB' }) },
  'checkouts.getPayment': { call: (client) => client.checkouts.getPayment(PAYMENT_ID) },
  'reports.get': { call: (client) => client.reports.get(PAYMENT_ID) },
  'reports.findByMerchantTransactionId': { call: (client) => client.reports.findByMerchantTransactionId('order-4711') },
  handleShopperReturn: { call: (client) => client.handleShopperReturn({ id: PAYMENT_ID, resourcePath: `/v1/payments/${PAYMENT_ID}` }) },
};

describe('class 2: whatever the transport brings, the client ends typed', () => {
  for (const [name, { call, moves }] of Object.entries(METHODS)) {
    test(`${name}: arbitrary statuses, bodies, throws → a value or a GatewayError subclass; POST sent at most once`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(reply, { minLength: 1, maxLength: 6 }), async (replies) => {
          // No GET retries here: their backoff sleeps; one test below covers retried reads.
          const { client, posts } = standInClient((_, index) => respond(replies[index % replies.length]!), {
            maxNetworkRetries: 0,
            reconcileDelaysMs: [0, 0],
          });
          let thrown: unknown;
          try {
            await call(client);
          } catch (error) {
            thrown = error;
          }
          assert.ok(posts().length <= 1, `${posts().length} POSTs for one call`);
          if (thrown === undefined) return;
          assert.ok(thrown instanceof GatewayError, `untyped: ${String(thrown)}`);
          // The outcome mapping accepts every error the client throws.
          assert.equal(typeof outcomeOf(thrown).kind, 'string');
          if (moves && thrown instanceof UncertainOutcomeError)
            assert.ok(thrown.merchantTransactionId, 'an uncertain payment names its merchantTransactionId');
          if (moves && name !== 'payments.create (generated id)')
            assert.equal(thrown.merchantTransactionId ?? sent.merchantTransactionId, sent.merchantTransactionId);
        }),
        // Modest: 13 methods share the CI budget.
        { numRuns: 60 },
      );
    });
  }

  test('look-ups answering 5xx, non-JSON or a report without `payments` after a lost POST: UncertainOutcomeError with the merchantTransactionId and the look-up failure', async () => {
    const broken: ScriptedAnswer[] = [
      { status: 503, body: answer('800.800.800') },
      { status: 502, raw: '<html>Bad Gateway</html>' },
      { status: 200, body: { result: { code: '000.000.000', description: 'ok' } } },
      { status: 200, body: { result: { code: '000.000.000' }, payments: 'none' } },
      { status: 200, body: { result: { code: '000.000.000' }, payments: [null] } },
    ];
    for (const lookup of broken) {
      const { client, posts } = standInClient((request) => {
        if (request.method === 'POST') throw new TypeError('socket hang up');
        return lookup;
      });
      const error = await client.payments.create(cardPayment(sent)).catch((caught: unknown) => caught);
      assert.ok(error instanceof UncertainOutcomeError, `${JSON.stringify(lookup)} → ${String(error)}`);
      assert.equal(error.merchantTransactionId, sent.merchantTransactionId);
      assert.ok(error.cause instanceof GatewayError, 'the look-up failure is the cause');
      assert.equal(posts().length, 1);
    }
  });

  test('retried reads that keep failing in every way end typed, and only GETs are retried', async () => {
    const failures: (() => ScriptedAnswer)[] = [
      () => ({ status: 503, raw: 'busy' }),
      () => ({ status: 500, body: { result: null } }),
      () => {
        throw new Error('ECONNRESET');
      },
    ];
    for (const failure of failures) {
      const { client, calls } = standInClient(failure, { maxNetworkRetries: 1 });
      await assert.rejects(client.payments.get(PAYMENT_ID), GatewayNetworkError);
      assert.equal(calls.length, 2, 'one retry');
      const { client: paying, posts } = standInClient(failure, { maxNetworkRetries: 1 });
      await assert.rejects(paying.payments.create(cardPayment()), UncertainOutcomeError);
      assert.equal(posts().length, 1);
    }
  });

  test('a report answer without a readable list of payments is a GatewayNetworkError, never an empty list', async () => {
    const { client } = standInClient(() => ({ status: 200, body: { result: { code: '000.000.000', description: 'ok' } } }));
    await assert.rejects(client.reports.findByMerchantTransactionId('x'), GatewayNetworkError);
  });

  test('hostile inputs to every method are typed errors, never a TypeError', async () => {
    const { client, calls } = standInClient(() => ({ status: 200, body: answer('000.000.000') }));
    const hostile: unknown[] = [null, undefined, 42, 'x', [], { card: null }, { amount: {} }];
    const deep: Record<string, unknown> = {};
    deep.self = deep;
    hostile.push(deep);
    for (const input of hostile) {
      const attempts = [
        () => client.payments.create(input as never),
        () => client.payments.get(input as never),
        () => client.payments.capture(input as never, input as never),
        () => client.checkouts.create(input as never),
        () => client.payouts.create(input as never),
        () => client.registrations.createPayment(PAYMENT_ID, input as never),
        () => client.reports.get(input as never),
        () => client.handleShopperReturn(input as never),
      ];
      for (const [index, attempt] of attempts.entries()) {
        const outcome = await Promise.resolve()
          .then(attempt as () => Promise<unknown>)
          .then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
        // `'x'` is a well-formed id: reading it is a request the gateway answers (here, with a success).
        const wellFormedRead = input === 'x' && (index === 1 || index === 6);
        if (wellFormedRead) continue;
        // Refused, typed: none of the others is a request the gateway could answer.
        assert.ok('error' in outcome && outcome.error instanceof GatewayError, `${inspect(input)}, call ${index}: ${inspect(outcome)}`);
      }
    }
    assert.equal(calls.filter((call) => call.method === 'POST').length, 0, 'nothing invalid was sent');
  });
});
