import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { cardPayment, CARDS, useSandbox } from '../support.js';

const handle = useSandbox();
const { call } = handle;

beforeEach(() => handle.sandbox.reset());

describe('/__sandbox/ controls', () => {
  it('need the Bearer token', async () => {
    for (const [method, path] of [
      ['GET', '/__sandbox/clock'],
      ['POST', '/__sandbox/clock'],
      ['POST', '/__sandbox/reset'],
      ['GET', '/__sandbox/requests'],
      ['POST', '/__sandbox/faults'],
    ] as const) {
      const answer = await call(method, path, {}, { token: null });
      assert.equal(answer.status, 401, `${method} ${path}`);
      assert.equal(answer.body.result.code, RESULT_CODES.unauthorized);
    }
  });

  it('POST /__sandbox/clock advance=SECONDS moves the sandbox clock', async () => {
    const before = handle.sandbox.clock.now().getTime();
    const answer = await call('POST', '/__sandbox/clock', { advance: '3600' }, { entityId: null });
    assert.equal(answer.status, 200);
    const moved = Date.parse(answer.body.now) - before;
    assert.ok(moved >= 3600_000 && moved < 3660_000, String(moved));
    for (const advance of ['-5', 'soon', '1e20', '99999999999999999999']) {
      const bad = await call('POST', '/__sandbox/clock', { advance }, { entityId: null });
      assert.equal(bad.status, 400, advance);
      assert.equal(bad.body.result.parameterErrors[0].name, 'advance');
    }
    assert.throws(() => handle.sandbox.clock.advance(1e20), RangeError);
    assert.equal((await call('GET', '/__sandbox/clock', {}, { entityId: null })).status, 200, 'the clock still works');
  });

  it('POST /__sandbox/reset forgets every payment and the clock offset', async () => {
    const { body } = await call('POST', '/v1/payments', cardPayment());
    handle.sandbox.clock.advance(7200);
    assert.equal((await call('POST', '/__sandbox/reset', {}, { entityId: null })).status, 200);
    assert.equal((await call('GET', `/v1/payments/${body.id}`)).body.result.code, RESULT_CODES.transactionNotFound);
    assert.ok(Math.abs(handle.sandbox.clock.now().getTime() - Date.now()) < 5000);
  });

  it('GET /__sandbox/requests lists method, path, result code and masked parameters, never card data or the token', async () => {
    await call('POST', '/v1/payments', cardPayment({ 'card.number': CARDS.declined, 'card.cvv': '987' }));
    const answer = await call('GET', '/__sandbox/requests', {}, { entityId: null });
    const entry = answer.body.requests.find((request: { path: string }) => request.path === '/v1/payments');
    assert.equal(entry.method, 'POST');
    assert.equal(entry.status, 200);
    assert.equal(entry.resultCode, RESULT_CODES.declinedByAuthorization);
    assert.equal(entry.params['card.number'], '400000******0002');
    assert.equal(entry.params['card.cvv'], '***');
    const text = JSON.stringify(answer.body) + JSON.stringify(handle.sandbox.requests());
    assert.ok(!text.includes(CARDS.declined));
    // As a value: three digits alone would also match inside random ids and timestamps.
    assert.ok(!text.includes('"987"') && !/cvv[^,}]*987/i.test(text));
    assert.ok(!text.includes(handle.sandbox.tokens[0]!));
  });
});

describe('the request log at its bound', () => {
  const small = useSandbox({ limits: { logEntries: 5 } });

  it('GET /__sandbox/requests lists the log as it was: at most logEntries, without the read itself', async () => {
    for (let reads = 0; reads < 12; reads++) {
      const { body } = await small.call('GET', '/__sandbox/requests', {}, { entityId: null });
      const paths = (body.requests as { path: string }[]).map((request) => request.path);
      assert.ok(paths.length <= 5, `read ${reads + 1}: ${paths.length} entries`);
      assert.equal(paths.length, Math.min(reads, 5), `read ${reads + 1} lists the reads before it`);
    }
  });
});

describe('faults', () => {
  it('error: the next N requests to the path answer HTTP 500 and record nothing', async () => {
    const set = await call('POST', '/__sandbox/faults', { path: '/v1/payments', mode: 'error', count: '2' }, { entityId: null });
    assert.equal(set.status, 200);
    for (let i = 0; i < 2; i++) {
      const answer = await call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'fault-error' }));
      assert.equal(answer.status, 500);
      assert.equal(answer.body.result.code, '800.800.800');
    }
    assert.equal(
      (await call('GET', '/v3/query', { merchantTransactionId: 'fault-error' })).body.result.code,
      RESULT_CODES.transactionNotFound,
    );
    assert.equal((await call('POST', '/v1/payments', cardPayment())).status, 200, 'the third request is served');
  });

  it('drop: the payment is recorded, then the connection is closed unanswered', async () => {
    handle.sandbox.fault('/v1/payments', 'drop');
    await assert.rejects(call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'fault-drop' })));
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'fault-drop' });
    assert.equal(report.body.payments.length, 1);
    assert.equal(report.body.payments[0].result.code, RESULT_CODES.approvedIntegratorTest);
  });

  it('hang: the request is never answered (the client times out)', async () => {
    await call('POST', '/__sandbox/faults', { path: '/v1/payments', mode: 'hang' }, { entityId: null });
    const started = Date.now();
    await assert.rejects(
      fetch(`${handle.sandbox.url}/v1/payments`, {
        method: 'POST',
        body: new URLSearchParams(cardPayment()),
        headers: { authorization: `Bearer ${handle.sandbox.tokens[0]}` },
        signal: AbortSignal.timeout(300),
      }),
      (error: Error) => error.name === 'TimeoutError',
    );
    assert.ok(Date.now() - started >= 290);
    assert.equal(handle.sandbox.requests().at(-1)?.fault, 'hang');
  });

  it('refuses a bad fault', async () => {
    const answer = await call('POST', '/__sandbox/faults', { path: '/v1/payments', mode: 'explode' }, { entityId: null });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.result.parameterErrors[0].name, 'mode');
  });
});
