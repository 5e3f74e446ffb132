/**
 * The sandbox's `GET /v3/query` search as a merchant's server sees it on the
 * wire: pages, refusals in the platform's shape, authentication first.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { reportDate } from '../../../src/contract/report-filters.js';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { DEFAULT_ENTITY_ID } from '../../../src/sandbox/index.js';
import { cardPayment, useSandbox } from '../support.js';

const OTHER_ENTITY = '0123456789abcdef0123456789abcdef';
const context = useSandbox({ entities: [DEFAULT_ENTITY_ID, OTHER_ENTITY] });
const { call } = context;

beforeEach(() => context.sandbox.reset());

describe('GET /v3/query with a time frame', () => {
  it('answers page pageNo of limit, oldest first; a page past the end is a miss (HTTP 400 700.400.580)', async () => {
    const from = reportDate(context.sandbox.clock.now());
    const made: string[] = [];
    for (let index = 0; index < 5; index++) made.push((await call('POST', '/v1/payments', cardPayment())).body.id);
    const frame = { 'date.from': from, 'date.to': reportDate(context.sandbox.clock.now()) };
    const page = async (pageNo: string, limit = '2') => call('GET', '/v3/query', { ...frame, limit, pageNo });
    const answers = [await page('1'), await page('2'), await page('3')];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    assert.deepEqual(
      answers.flatMap((answer) => answer.body.payments.map((payment: { id: string }) => payment.id)),
      made,
    );
    const past = await page('4');
    assert.equal(past.status, 400);
    assert.equal(past.body.result.code, RESULT_CODES.transactionNotFound);
    // Without limit, a page holds at most 100.
    assert.equal((await call('GET', '/v3/query', frame)).body.payments.length, 5);
  });

  it('refuses malformed filters with HTTP 400 200.300.404 and a parameterErrors entry for each', async () => {
    const answer = await call('GET', '/v3/query', {
      'date.from': '2024-13-01 00:00:00',
      'date.to': 'yesterday',
      paymentTypes: 'DB,XX',
      paymentMethods: 'cc',
      includeLinkedTransactions: 'yes',
      limit: '1000',
      pageNo: '0',
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.result.code, RESULT_CODES.invalidParameter);
    assert.deepEqual(answer.body.result.parameterErrors.map((error: { name: string }) => error.name).sort(), [
      'date.from',
      'date.to',
      'includeLinkedTransactions',
      'limit',
      'pageNo',
      'paymentMethods',
      'paymentTypes',
    ]);
  });

  it('a search without merchantTransactionId or a time frame names the missing parameter with "value": null, as the platform writes one', async () => {
    const answer = await call('GET', '/v3/query', {});
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body.result.parameterErrors, [
      { name: 'merchantTransactionId', value: null, message: 'is required, unless date.from and date.to are given' },
    ]);
  });

  it('checks the token before anything else: 401 800.900.300, then the entity: 403', async () => {
    const unauthorised = await call('GET', '/v3/query', { paymentTypes: 'XX' }, { token: 'wrong' });
    assert.equal(unauthorised.status, 401);
    assert.equal(unauthorised.body.result.code, RESULT_CODES.unauthorized);
    const otherEntity = await call('GET', '/v3/query', { merchantTransactionId: 'o-1' }, { entityId: 'f'.repeat(32) });
    assert.equal(otherEntity.status, 403);
  });

  it("lists only the entity's own transactions", async () => {
    const from = reportDate(context.sandbox.clock.now());
    const own = (await call('POST', '/v1/payments', cardPayment())).body.id;
    await call('POST', '/v1/payments', cardPayment(), { entityId: OTHER_ENTITY });
    const frame = { 'date.from': from, 'date.to': reportDate(context.sandbox.clock.now()) };
    assert.deepEqual(
      (await call('GET', '/v3/query', frame)).body.payments.map((payment: { id: string }) => payment.id),
      [own],
    );
    assert.equal((await call('GET', '/v3/query', frame, { entityId: OTHER_ENTITY })).body.payments.length, 1);
  });
});
