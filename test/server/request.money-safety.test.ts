/**
 * Money safety against the real sandbox: payment POSTs are sent once and
 * reconciled by merchantTransactionId when their outcome is unknown (the
 * uncertain-outcome card, a dropped connection, a hang); GETs are retried.
 * A fetch wrapper counts calls and can fail one before it reaches the sandbox.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  GatewayAuthenticationError,
  GatewayDeclinedError,
  GatewayError,
  GatewayNetworkError,
  GatewayPermissionError,
  GatewayThrottledError,
  GatewayTimeoutError,
  isApproved,
  RESULT_CODES,
  UncertainOutcomeError,
} from '../../src/server/index.js';
import { card, CARDS, cardPayment, clientFor, control, orderId, useSandbox } from './fixtures.js';

const context = useSandbox();

const lookups = (recorder: ReturnType<typeof clientFor>['recorder']) => recorder.calls.filter((call) => call.url.pathname === '/v3/query');

describe('an uncertain payment is looked up, never re-sent', () => {
  test('the uncertain-outcome card (recorded approved, answered 900.100.300) returns the approved payment from the report', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const merchantTransactionId = orderId('uncertain');
    const payment = await client.payments.create(cardPayment({ merchantTransactionId, card: card(CARDS.uncertain) }));
    assert.ok(isApproved(payment.result.code), payment.result.code);
    assert.equal(payment.merchantTransactionId, merchantTransactionId);
    assert.equal(recorder.posts().length, 1);
    assert.equal(lookups(recorder)[0]?.url.searchParams.get('merchantTransactionId'), merchantTransactionId);
  });

  test('a connection dropped after the gateway recorded the payment: one POST, the real (approved) payment returned, one charge', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
    const merchantTransactionId = orderId('drop');
    const payment = await client.payments.create(cardPayment({ merchantTransactionId }));
    assert.ok(isApproved(payment.result.code));
    assert.equal(recorder.posts().length, 1, 'the POST was not retried');
    const { payments } = await client.reports.findByMerchantTransactionId(merchantTransactionId);
    assert.equal(payments.length, 1, 'the customer was charged exactly once');
    assert.equal(payments[0]!.id, payment.id);
  });

  test('a reused merchantTransactionId: an earlier attempt with another card is not taken for the lost one', async () => {
    const { client, recorder } = clientFor(context.sandbox, { timeoutMs: 150 });
    const merchantTransactionId = orderId('reused');
    await assert.rejects(client.payments.create(cardPayment({ merchantTransactionId, card: card(CARDS.declined) })), GatewayDeclinedError);
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'hang', count: '1' });
    const error = await client.payments.create(cardPayment({ merchantTransactionId })).catch((caught: unknown) => caught);
    assert.ok(error instanceof UncertainOutcomeError, String(error));
    assert.equal(recorder.posts().length, 2);
  });

  test('a dropped connection on a declined card reports the decline found by the look-up', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
    const error = await client.payments.create(cardPayment({ card: card(CARDS.declined) })).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayDeclinedError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.declinedByAuthorization);
    assert.equal(recorder.posts().length, 1);
  });

  test('a hanging gateway: the POST times out, the look-ups find nothing, UncertainOutcomeError carries the merchantTransactionId', async () => {
    const { client, recorder } = clientFor(context.sandbox, { timeoutMs: 150 });
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'hang', count: '1' });
    const merchantTransactionId = orderId('hang');
    const error = await client.payments.create(cardPayment({ merchantTransactionId })).catch((caught: unknown) => caught);
    assert.ok(error instanceof UncertainOutcomeError, String(error));
    assert.equal(error.merchantTransactionId, merchantTransactionId);
    assert.match(error.message, /not retried/);
    assert.equal(recorder.posts().length, 1);
    assert.equal(
      lookups(recorder).length,
      2,
      'nothing read before sending (even with a caller-chosen merchantTransactionId), one look-up per reconcile delay',
    );
    assert.ok(error.cause instanceof GatewayTimeoutError, 'the cause says why the outcome is unknown');
  });

  test('a connection that fails before reaching the gateway is not retried either: the look-up tells, and with no record the outcome stays uncertain', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    recorder.failNext(1);
    const generated = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(generated instanceof UncertainOutcomeError);
    assert.match(generated.merchantTransactionId, /^[0-9a-f-]{36}$/, 'the generated id is handed back for a later look-up');
    assert.ok(generated.cause instanceof Error);
    assert.equal(recorder.posts().length, 1);
  });

  test('when the look-ups fail too, UncertainOutcomeError says so through its cause', async () => {
    const { client, recorder } = clientFor(context.sandbox, { maxNetworkRetries: 0 });
    recorder.failNext(10);
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof UncertainOutcomeError, String(error));
    assert.ok(error.cause instanceof GatewayNetworkError);
    assert.match((error.cause as Error).message, /GET \/v3\/query/);
    assert.equal(recorder.posts().length, 1);
    assert.equal(lookups(recorder).length, 2);
    recorder.failNext(0);
  });

  test('a capture whose connection dropped is reconciled: the PA is captured once', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const preauthorization = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '30.00' }));
    await control(context.sandbox, 'faults', { path: `/v1/payments/${preauthorization.id}`, mode: 'drop', count: '1' });
    const merchantTransactionId = orderId('capture');
    const capture = await client.payments.capture(preauthorization.id, { amount: '30.00', currency: 'EUR', merchantTransactionId });
    assert.equal(capture.paymentType, 'CP');
    assert.equal(capture.referencedId, preauthorization.id);
    assert.equal(recorder.posts().length, 2, 'the PA and one capture');
    const again = await client.payments
      .capture(preauthorization.id, { amount: '0.01', currency: 'EUR' })
      .catch((caught: unknown) => caught);
    assert.ok(again instanceof GatewayError && again.resultCode === RESULT_CODES.cannotCapture, 'the full amount was captured once');
  });

  test('an HTTP 500 system error on a payment POST is a GatewayError, neither retried nor reconciled', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'error', count: '1' });
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayError && !(error instanceof GatewayDeclinedError), String(error));
    assert.equal(error.httpStatus, 500);
    assert.equal(error.resultCode, '800.800.800');
    assert.equal(recorder.calls.length, 1);
  });
});

describe('reads are retried with backoff', () => {
  test('a GET survives one failed connection and one HTTP 500', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const debit = await client.payments.create(cardPayment());
    recorder.failNext(1);
    await control(context.sandbox, 'faults', { path: `/v1/payments/${debit.id}`, mode: 'error', count: '1' });
    const read = await client.payments.get(debit.id);
    assert.equal(read.id, debit.id);
    assert.equal(recorder.calls.filter((call) => call.method === 'GET').length, 3);
  });

  test('retries stop at maxNetworkRetries; the checkout status read is never retried (it counts against 2 a minute)', async () => {
    const { client, recorder } = clientFor(context.sandbox, { maxNetworkRetries: 1 });
    recorder.failNext(5);
    await assert.rejects(client.payments.get('8ac7a4a17000000000000000000000ff'), GatewayNetworkError);
    assert.equal(recorder.calls.length, 2);
    recorder.failNext(1);
    await assert.rejects(client.checkouts.getPayment('8ac7a4a17000000000000000000000ff'), GatewayNetworkError);
    assert.equal(recorder.calls.length, 3);
    recorder.failNext(0);
  });

  test("a caller's AbortSignal cancels without retry; a per-call timeoutMs overrides the client's", async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const debit = await client.payments.create(cardPayment());
    await control(context.sandbox, 'faults', { path: `/v1/payments/${debit.id}`, mode: 'hang', count: '4' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await client.payments.get(debit.id, { signal: controller.signal }).catch((caught: unknown) => caught);
    assert.ok(aborted instanceof GatewayNetworkError && !(aborted instanceof GatewayTimeoutError), String(aborted));
    assert.equal(recorder.calls.filter((call) => call.method === 'GET').length, 1);
    const timedOut = await client.payments.get(debit.id, { timeoutMs: 60 }).catch((caught: unknown) => caught);
    assert.ok(timedOut instanceof GatewayTimeoutError, String(timedOut));
    assert.equal(recorder.calls.filter((call) => call.method === 'GET').length, 4, 'a timed-out read is retried twice');
    assert.match(timedOut.message, /within 60 ms/);
    await control(context.sandbox, 'faults', { path: `/v1/payments/${debit.id}`, mode: 'hang', count: '0' });
  });
});

describe('request-level errors', () => {
  test('a refused token is GatewayAuthenticationError (HTTP 401, 800.900.300)', async () => {
    const { client } = clientFor(context.sandbox, { accessToken: 'not-the-token' });
    const error = await client.reports.get('8ac7a4a17000000000000000000000aa').catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayAuthenticationError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.unauthorized);
    assert.equal(error.httpStatus, 401);
  });

  test('an entity the token may not use is GatewayPermissionError (HTTP 403, 800.900.301)', async () => {
    const { client } = clientFor(context.sandbox, { entityId: '8ac7a4c79394bdc801939736f17e0000' });
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayPermissionError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.forbidden);
    assert.equal(error.httpStatus, 403);
  });

  test("the gateway's throttling answer is GatewayThrottledError", async () => {
    const { client } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ amount: '5.00', currency: 'EUR', paymentType: 'DB' });
    await client.checkouts.getPayment(checkout.id);
    await client.checkouts.getPayment(checkout.id);
    const error = await client.checkouts.getPayment(checkout.id).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayThrottledError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.throttled);
    assert.equal(error.httpStatus, 429);
  });

  test("a body that is not the gateway's JSON is a GatewayNetworkError naming the status", async () => {
    const { client } = clientFor(context.sandbox, { baseUrl: `${context.sandbox.url}/v1/paymentWidgets.js?x=` });
    const error = await client.reports.findByMerchantTransactionId('x').catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayNetworkError, String(error));
    assert.match(error.message, /HTTP \d+ without a readable result/);
  });
});
