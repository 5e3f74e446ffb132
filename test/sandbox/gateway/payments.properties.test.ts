import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FIELD_FORMATS } from '../../../src/contract/formats.js';
import { isApproved, RESULT_CODES } from '../../../src/contract/result-codes.js';
import { cardPayment, useSandbox } from '../support.js';

const handle = useSandbox({ limits: { logEntries: 50 } });
const { call } = handle;

const ENDPOINTS: [method: 'GET' | 'POST', path: string][] = [
  ['POST', '/v1/checkouts'],
  ['POST', '/v1/payments'],
  ['GET', '/v1/payments/ffffffffffffffffffffffffffffffff'],
  ['POST', '/v1/payments/ffffffffffffffffffffffffffffffff'],
  ['POST', '/v1/registrations/ffffffffffffffffffffffffffffffff/payments'],
  ['GET', '/v3/query'],
  ['GET', '/v1/checkouts/ffffffffffffffffffffffffffffffff/payment'],
  ['POST', '/v1/checkouts/ffffffffffffffffffffffffffffffff/widget/payments'],
  ['POST', '/v1/threeDSecure/execute'],
  ['POST', '/v1/threeDSecure/method'],
  ['POST', '/__sandbox/faults'],
  ['POST', '/__sandbox/clock'],
];

/** Field names a client might send: the API reference's, nested-looking junk and prototype-pollution attempts. */
const fieldName = fc.oneof(
  fc.constantFrom(
    ...Object.keys(FIELD_FORMATS),
    '__proto__',
    'constructor',
    'customer.__proto__.x',
    'customParameters[__proto__]',
    'a..b',
    '[',
    'customParameters[]',
    'x[y][z]',
  ),
  fc.string({ maxLength: 20 }),
);
const fieldValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '0.00', '4200000000000000', 'true', 'PA', 'CP'),
);

/** A gateway error answer: a known status and a JSON body whose result code has the platform's shape. */
function assertWellFormed(status: number, body: any): void {
  assert.ok([200, 400, 401, 403, 404, 405, 429].includes(status), `status ${status}`);
  assert.equal(typeof body, 'object');
  assert.match(body.result.code, /^\d{3}\.\d{3}\.\d{3}$/);
  assert.equal(typeof body.result.description, 'string');
}

describe('property: random bodies never crash the sandbox', () => {
  it('random form fields on every endpoint get a well-formed answer, with or without a token', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.dictionary(fieldName, fieldValue, { maxKeys: 12 }),
        fc.boolean(),
        async ([method, path], params, withToken) => {
          const answer = await call(method, path, params, withToken ? {} : { token: null });
          if (answer.status === 303 || typeof answer.body === 'string') {
            // The 3DS pages answer HTML; anything else must be JSON.
            assert.ok(path.startsWith('/v1/threeDSecure/'), `${path} answered ${answer.status} non-JSON`);
            return;
          }
          assertWellFormed(answer.status, answer.body);
        },
      ),
      { numRuns: 200 },
    );
    assert.equal(({} as Record<string, unknown>).x, undefined, 'no prototype was polluted');
  });

  it('raw random bytes as a body get a well-formed answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        const response = await fetch(`${handle.sandbox.url}/v1/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${handle.sandbox.tokens[0]}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: bytes,
        });
        assertWellFormed(response.status, await response.json());
      }),
      { numRuns: 100 },
    );
  });

  it('a random valid body with one field corrupted is refused naming that field, with card data masked', async () => {
    // Junk without an `@`: with one, junk such as `!@!.` plus the `!` below is an e-mail address by the platform's lax rule.
    const corruptible = [
      'amount',
      'currency',
      'card.number',
      'card.cvv',
      'card.expiryMonth',
      'customer.email',
      'customer.ip',
      'paymentType',
    ] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...corruptible),
        fc.string({ minLength: 1, maxLength: 8 }).filter((value) => /[^0-9]/.test(value) && !value.includes('@')),
        async (field, junk) => {
          const answer = await call('POST', '/v1/payments', cardPayment({ [field]: `${junk}!` }));
          assert.equal(answer.status, 400);
          const error = answer.body.result.parameterErrors.find((entry: { name: string }) => entry.name === field);
          assert.ok(error, `${field} named`);
          if (field === 'card.cvv') assert.equal(error.value, '***');
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('property: captures never exceed the preauthorisation', () => {
  it('for any sequence of partial captures, the approved ones sum to at most the PA and each refusal would have exceeded it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 8 }),
        async (authorised, captures) => {
          const money = (cents: number) => (cents / 100).toFixed(2);
          const pa = await call('POST', '/v1/payments', cardPayment({ paymentType: 'PA', amount: money(authorised) }));
          let captured = 0;
          for (const cents of captures) {
            const answer = await call('POST', `/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: money(cents), currency: 'EUR' });
            if (isApproved(answer.body.result.code)) captured += cents;
            else {
              assert.equal(answer.body.result.code, RESULT_CODES.cannotCapture);
              assert.ok(captured + cents > authorised);
            }
          }
          assert.ok(captured <= authorised);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('property: a debit is never taken back beyond its amount, whether refunded or reversed', () => {
  it('for any sequence of partial refunds and reversals of a debit, a reversal succeeds only while nothing was taken back, and the total never exceeds the debit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.oneof(fc.constant('RV' as const), fc.integer({ min: 1, max: 5_000 })), { minLength: 1, maxLength: 8 }),
        async (debited, steps) => {
          const money = (cents: number) => (cents / 100).toFixed(2);
          const debit = await call('POST', '/v1/payments', cardPayment({ amount: money(debited) }));
          let takenBack = 0;
          let reversed = false;
          for (const step of steps) {
            const reversal = step === 'RV';
            const answer = await call(
              'POST',
              `/v1/payments/${debit.body.id}`,
              reversal ? { paymentType: 'RV' } : { paymentType: 'RF', amount: money(step), currency: 'EUR' },
            );
            const allowed: boolean = reversal ? !reversed && takenBack === 0 : !reversed && takenBack + step <= debited;
            assert.equal(
              isApproved(answer.body.result.code),
              allowed,
              `${reversal ? 'RV' : `RF ${money(step)}`}: ${answer.body.result.code}`,
            );
            if (!allowed) {
              assert.equal(answer.status, 400);
              assert.equal(answer.body.result.code, reversal ? RESULT_CODES.cannotReverse : RESULT_CODES.cannotRefund);
              assert.match(answer.body.id, /^[0-9a-f]{32}$/, 'a refused transaction of its own');
            } else if (reversal) {
              reversed = true;
              takenBack = debited;
            } else takenBack += step;
          }
          assert.ok(takenBack <= debited);
        },
      ),
      { numRuns: 25 },
    );
  });
});
