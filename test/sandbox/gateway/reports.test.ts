import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REPORT_PAGE_SIZE_MAX } from '../../../src/contract/report-filters.js';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { cardPayment, CARDS, useSandbox } from '../support.js';

const { call } = useSandbox();

describe('transaction reports (/v3/query)', () => {
  it('GET /v3/query/{id} returns the payment as GET /v1/payments/{id} does', async () => {
    const { body } = await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'report-1' }));
    const report = await call('GET', `/v3/query/${body.id}`);
    assert.equal(report.status, 200);
    const direct = await call('GET', `/v1/payments/${body.id}`);
    // Each answer has its own ndc (`<entityId>_<request id>`), as the platform's.
    const strip = ({ ndc: _n, ...rest }: Record<string, unknown>) => rest;
    assert.deepEqual(strip(report.body), strip(direct.body));
  });

  it('GET /v3/query?merchantTransactionId= lists every matching payment, declined ones included, in order', async () => {
    const first = (await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'report-2', 'card.number': CARDS.declined })))
      .body;
    const second = (await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'report-2' }))).body;
    await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'report-other' }));
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'report-2' });
    assert.equal(report.status, 200);
    assert.equal(report.body.result.code, RESULT_CODES.successfulRequest);
    assert.deepEqual(
      report.body.payments.map((payment: { id: string; result: { code: string } }) => [payment.id, payment.result.code]),
      [
        [first.id, RESULT_CODES.declinedByAuthorization],
        [second.id, RESULT_CODES.approvedIntegratorTest],
      ],
    );
  });

  it('a miss answers HTTP 400 700.400.580; a missing merchantTransactionId is a parameter error', async () => {
    const byId = await call('GET', '/v3/query/ffffffffffffffffffffffffffffffff');
    assert.equal(byId.status, 400);
    assert.equal(byId.body.result.code, RESULT_CODES.transactionNotFound);
    const byReference = await call('GET', '/v3/query', { merchantTransactionId: 'never-used' });
    assert.equal(byReference.status, 400);
    assert.equal(byReference.body.result.code, RESULT_CODES.transactionNotFound);
    const missing = await call('GET', '/v3/query');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.result.parameterErrors[0].name, 'merchantTransactionId');
  });
});

describe('a report by order is one bounded answer', () => {
  it('more transactions under one merchantTransactionId than a page holds: the newest 100, in order', async () => {
    const ids: string[] = [];
    for (let index = 0; index < REPORT_PAGE_SIZE_MAX + 5; index++)
      ids.push((await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'report-many' }))).body.id);
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'report-many' });
    assert.deepEqual(
      report.body.payments.map((payment: { id: string }) => payment.id),
      ids.slice(-REPORT_PAGE_SIZE_MAX),
    );
  });
});
