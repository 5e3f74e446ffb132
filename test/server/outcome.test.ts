/**
 * The one outcome mapping: result code → error class (never HTTP status), a
 * payment answer with an id kept whatever its status, parameter errors as sent,
 * and `outcomeOf` turning any returned payment or thrown error into what the
 * merchant does next.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  GatewayAuthenticationError,
  GatewayDeclinedError,
  GatewayError,
  GatewayNetworkError,
  GatewayNotFoundError,
  GatewayThrottledError,
  GatewayValidationError,
  GatewayVerificationError,
  outcomeOf,
  toOutcome,
  UncertainOutcomeError,
  type Payment,
} from '../../src/server/index.js';
import { answer, PAYMENT_ID, standInClient } from '../support/gateway-stand-in.js';
import { cardPayment } from './fixtures.js';

const payment = (code: string, fields: Record<string, unknown> = {}) =>
  answer(code, { id: PAYMENT_ID, paymentType: 'DB', amount: '92.00', currency: 'EUR', ...fields }) as unknown as Payment;

describe('a payment answer with an id is a payment that exists, whatever the HTTP status', () => {
  test('HTTP 400 with 100.100.101 and an id: a decline carrying the id, the result and the whole answer', async () => {
    const rejected = payment('100.100.101', { card: { bin: '420000', last4Digits: '0000' } });
    const { client } = standInClient(() => ({ status: 400, body: rejected }));
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayDeclinedError, String(error));
    assert.equal(error.payment?.id, PAYMENT_ID);
    assert.equal(error.resultCode, '100.100.101');
    assert.equal(error.resultKind, 'rejected_validation');
    assert.equal(error.httpStatus, 400);
    assert.deepEqual(error.payment?.card, rejected.card);
    const outcome = outcomeOf(error);
    assert.equal(outcome.kind, 'declined');
    assert.equal(outcome.payment?.id, PAYMENT_ID);
    assert.equal(outcome.retryable, true, 'the shopper may try another card');
  });

  test('800.900.300 at HTTP 403 with an id: an authentication error that keeps the payment', async () => {
    const { client } = standInClient(() => ({ status: 403, body: payment('800.900.300') }));
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayAuthenticationError, String(error));
    assert.equal(error.payment?.id, PAYMENT_ID);
    assert.equal(outcomeOf(error).kind, 'unauthorized');
  });

  test('declines of every group are GatewayDeclinedError by result code, at any HTTP status', async () => {
    const groups = {
      '800.100.152': 'declined',
      '000.400.101': 'rejected_3ds',
      '100.380.401': 'rejected_risk',
      '800.300.101': 'rejected_risk',
      '300.100.100': 'soft_decline',
      '100.396.101': 'rejected_async',
      '100.100.101': 'rejected_validation',
    };
    for (const [code, kind] of Object.entries(groups)) {
      for (const status of [200, 400, 402, 500]) {
        const { client } = standInClient(() => ({ status, body: payment(code) }));
        const error = await client.payments.get(PAYMENT_ID).catch((caught: unknown) => caught);
        assert.ok(error instanceof GatewayDeclinedError, `${code} at ${status}: ${String(error)}`);
        assert.equal(error.resultKind, kind);
        assert.equal(error.payment?.id, PAYMENT_ID);
      }
    }
  });

  test('the same validation code without an id is a refused request, not a decline', async () => {
    const { client } = standInClient(() => ({ status: 400, body: answer('200.300.404') }));
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError && !(error instanceof GatewayDeclinedError), String(error));
    assert.equal(error.payment, undefined);
  });

  test('an approved answer at an error status is still approved (HTTP status never decides)', async () => {
    const { client } = standInClient(() => ({ status: 400, body: payment('000.100.110') }));
    const approved = await client.payments.get(PAYMENT_ID);
    assert.equal(outcomeOf(approved).kind, 'approved');
  });
});

describe('parameter errors are kept as the gateway sent them', () => {
  test('an entry without value stays without value; one with a value keeps it (masked when secret)', async () => {
    const body = {
      result: {
        code: '200.300.404',
        description: 'invalid or missing parameter',
        parameterErrors: [
          { name: 'amount', message: 'is required' },
          { name: 'card.number', value: '4200000000000000', message: 'bad' },
        ],
      },
    };
    const { client } = standInClient(() => ({ status: 400, body }));
    const error = await client.checkouts.create({ amount: '1.00', currency: 'EUR', paymentType: 'DB' }).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.deepEqual(error.parameterErrors, [
      { name: 'amount', message: 'is required' },
      { name: 'card.number', value: '420000******0000', message: 'bad' },
    ]);
    assert.ok(!('value' in error.parameterErrors[0]!));
    assert.ok(!JSON.stringify(error).includes('undefined'));
  });
});

describe('outcomeOf: one discriminated union for every payment and every error', () => {
  test('payments: approved, approved with review, pending with and without a redirect, and a declined one read from a report', () => {
    assert.deepEqual(
      [
        payment('000.000.000'),
        payment('000.400.000'),
        payment('000.200.000', { redirect: { url: 'https://acs.example', parameters: [] } }),
        payment('000.200.100'),
      ].map((value) => {
        const outcome = outcomeOf(value);
        return [
          outcome.kind,
          outcome.retryable,
          'review' in outcome ? outcome.review : undefined,
          'redirect' in outcome ? outcome.redirect?.url : undefined,
        ];
      }),
      [
        ['approved', false, false, undefined],
        ['approved', false, true, undefined],
        ['pending', false, undefined, 'https://acs.example'],
        ['pending', false, undefined, undefined],
      ],
    );
    const declined = outcomeOf(payment('800.100.152'));
    assert.equal(declined.kind, 'declined');
    assert.equal(declined.payment?.id, PAYMENT_ID);
    assert.equal(outcomeOf(payment('900.100.300', { merchantTransactionId: 'm-1' })).kind, 'uncertain');
  });

  test('errors: each class maps to one kind, with what the merchant needs', () => {
    const cases: [GatewayError, string, boolean][] = [
      [new GatewayValidationError('x', { parameterErrors: [{ name: 'amount', message: 'is required' }] }), 'invalid', false],
      [new GatewayNotFoundError('x'), 'not_found', false],
      [new GatewayThrottledError('x', { retryAfterSeconds: 30 }), 'throttled', true],
      [new GatewayAuthenticationError('x'), 'unauthorized', false],
      [new GatewayNetworkError('x'), 'failed', true],
      [new GatewayError('x', { resultCode: '800.800.800' }), 'failed', true],
      [new UncertainOutcomeError('x', { merchantTransactionId: 'm-1' }), 'uncertain', false],
      [
        new GatewayVerificationError('x', {
          mismatches: [{ field: 'amount', expected: '1.00', actual: '2.00' }],
          payment: payment('000.000.000'),
        }),
        'mismatch',
        false,
      ],
    ];
    for (const [error, kind, retryable] of cases) {
      const outcome = outcomeOf(error);
      assert.equal(outcome.kind, kind, error.name);
      assert.equal(outcome.retryable, retryable, error.name);
      assert.equal(outcome.message, error.message);
    }
    const throttled = outcomeOf(cases[2]![0]);
    assert.equal(throttled.kind === 'throttled' && throttled.retryAfterSeconds, 30);
    const uncertain = outcomeOf(cases[6]![0]);
    assert.equal(uncertain.kind === 'uncertain' && uncertain.merchantTransactionId, 'm-1');
    const invalid = outcomeOf(cases[0]![0]);
    assert.deepEqual(invalid.kind === 'invalid' && invalid.parameterErrors.map((problem) => problem.name), ['amount']);
  });

  test('anything else is a bug in the caller and is thrown again; toOutcome settles a call', async () => {
    const bug = new TypeError('bug');
    assert.throws(() => outcomeOf(bug), bug);
    assert.throws(() => outcomeOf(undefined));
    const { client } = standInClient(() => ({ status: 200, body: payment('800.100.152') }));
    assert.equal((await toOutcome(client.payments.get(PAYMENT_ID))).kind, 'declined');
    await assert.rejects(toOutcome(Promise.reject(bug)), bug);
  });

  test("an outcome's JSON is safe to log: the error by its JSON, never its card data", async () => {
    const { client } = standInClient(() => ({ status: 200, body: payment('800.100.152') }));
    const outcome = await toOutcome(client.payments.create(cardPayment()));
    const json = JSON.stringify(outcome);
    assert.match(json, /"kind":"declined"/);
    assert.ok(!json.includes('4200000000000000'));
  });
});
