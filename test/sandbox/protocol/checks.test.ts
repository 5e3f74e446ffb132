import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { DEFAULT_LIMITS } from '../../../src/sandbox/index.js';
import { browserCall, cardPayment, useSandbox } from '../support.js';

const ENTITY_A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const ENTITY_B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const handle = useSandbox({ tokens: ['token-one', 'token-two'], entities: [ENTITY_A, ENTITY_B] });
const { call } = handle;

const asA = { entityId: ENTITY_A };
const asB = { entityId: ENTITY_B };

describe('authentication', () => {
  const endpoints: [method: 'GET' | 'POST', path: string][] = [
    ['POST', '/v1/checkouts'],
    ['GET', '/v1/checkouts/ffffffffffffffffffffffffffffffff/payment'],
    ['POST', '/v1/payments'],
    ['GET', '/v1/payments/ffffffffffffffffffffffffffffffff'],
    ['POST', '/v1/payments/ffffffffffffffffffffffffffffffff'],
    ['POST', '/v1/registrations/ffffffffffffffffffffffffffffffff/payments'],
    ['GET', '/v3/query/ffffffffffffffffffffffffffffffff'],
    ['GET', '/v3/query'],
  ];
  for (const [method, path] of endpoints) {
    it(`${method} ${path}: a missing or wrong Bearer token answers HTTP 401 800.900.300`, async () => {
      for (const token of [null, 'wrong-token']) {
        const answer = await call(method, path, {}, { token, ...asA });
        assert.equal(answer.status, 401);
        assert.equal(answer.body.result.code, RESULT_CODES.unauthorized);
        assert.ok(answer.body.buildNumber && answer.body.timestamp && answer.body.ndc);
      }
    });
  }

  it('a scheme other than Bearer is refused', async () => {
    const response = await fetch(`${handle.sandbox.url}/v1/payments/x?entityId=${ENTITY_A}`, {
      headers: { authorization: 'Basic token-one' },
    });
    assert.equal(response.status, 401);
  });

  it('every configured token is accepted', async () => {
    for (const token of ['token-one', 'token-two'])
      assert.equal((await call('POST', '/v1/payments', cardPayment(), { token, ...asA })).status, 200);
  });

  it('an unknown entityId answers HTTP 403 800.900.301', async () => {
    const answer = await call('POST', '/v1/payments', cardPayment(), { entityId: 'cccccccccccccccccccccccccccccccc' });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.result.code, RESULT_CODES.forbidden);
  });
});

describe('entity isolation', () => {
  it("an entity never sees another's payments, captures, checkouts, registrations or reports", async () => {
    const payment = (
      await call(
        'POST',
        '/v1/payments',
        cardPayment({ paymentType: 'PA', merchantTransactionId: 'shared-ref', createRegistration: 'true' }),
        asA,
      )
    ).body;
    const checkout = (await call('POST', '/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }, asA))
      .body;
    const forbidden = [
      await call('GET', `/v1/payments/${payment.id}`, {}, asB),
      await call('GET', `/v3/query/${payment.id}`, {}, asB),
      await call('POST', `/v1/payments/${payment.id}`, { paymentType: 'CP', amount: '1.00', currency: 'EUR' }, asB),
      await call('GET', `/v1/checkouts/${checkout.id}/payment`, {}, asB),
      await call(
        'POST',
        `/v1/registrations/${payment.registrationId}/payments`,
        { paymentType: 'CD', amount: '1.00', currency: 'EUR' },
        asB,
      ),
    ];
    for (const answer of forbidden) {
      assert.equal(answer.status, 403);
      assert.equal(answer.body.result.code, RESULT_CODES.forbidden);
    }
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'shared-ref' }, asB);
    assert.equal(report.status, 400);
    assert.equal(report.body.result.code, RESULT_CODES.transactionNotFound);
    assert.equal((await call('GET', '/v3/query', { merchantTransactionId: 'shared-ref' }, asA)).body.payments.length, 1);
    assert.equal((await call('GET', `/v1/payments/${payment.id}`, {}, asA)).status, 200, 'the owner still sees it');
  });
});

describe('routing', () => {
  it('an unknown path answers 404 and a wrong method 405, both in the gateway shape', async () => {
    const missing = await browserCall(handle.sandbox, 'GET', '/v2/nothing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.result.code, RESULT_CODES.invalidParameter);
    const wrongMethod = await call('GET', '/v1/checkouts', {}, asA);
    assert.equal(wrongMethod.status, 405);
  });

  it('a body over the size limit answers 413 without processing', async () => {
    const response = await fetch(`${handle.sandbox.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: 'Bearer token-one', 'content-type': 'application/x-www-form-urlencoded' },
      body: `entityId=${ENTITY_A}&note=${'x'.repeat(300 * 1024)}`,
    });
    assert.equal(response.status, 413);
    const body = await response.json();
    assert.equal(body.result.code, RESULT_CODES.invalidParameter);
    assert.equal(body.result.description, `request body larger than ${DEFAULT_LIMITS.bodyBytes} bytes`);
  });
});
