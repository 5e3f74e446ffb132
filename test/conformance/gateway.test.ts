/**
 * Conformance: the gateway contract through its public API only (no
 * `/__sandbox` controls), so the same tests run against any gateway. With
 * GW_BASE_URL, GW_TOKEN and GW_ENTITY_ID set (a test account on the
 * platform's test host) they prove the sandbox's answers are the platform's
 * for that channel; without them they run against a sandbox started here, as
 * in CI. `npm run conformance`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeResult, isApproved, RESULT_CODES } from '../../src/contract/result-codes.js';
import { cardPayment } from '../../src/sandbox/fixtures.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

const REMOTE =
  process.env.GW_BASE_URL && process.env.GW_TOKEN && process.env.GW_ENTITY_ID
    ? { url: process.env.GW_BASE_URL, token: process.env.GW_TOKEN, entityId: process.env.GW_ENTITY_ID }
    : undefined;

let sandbox: Sandbox | undefined;
let gateway = REMOTE ?? { url: '', token: '', entityId: '' };
before(async () => {
  if (REMOTE) return;
  sandbox = await startSandbox({ port: 0, quiet: true });
  gateway = { url: sandbox.url, token: sandbox.tokens[0]!, entityId: sandbox.entities[0]! };
});
after(() => sandbox?.close());

/** A merchant call: form POST or GET with a query, the Bearer token and entityId added. */
async function call(
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string> = {},
  token = gateway.token,
): Promise<{ status: number; body: any }> {
  const form = new URLSearchParams({ entityId: gateway.entityId, ...params });
  const response = await fetch(method === 'GET' ? `${gateway.url}${path}?${form}` : `${gateway.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : {}),
    },
    ...(method === 'POST' ? { body: form } : {}),
  });
  return { status: response.status, body: await response.json() };
}

const reference = (label: string) => `conformance-${label}-${process.pid}-${Date.now()}`;
const BUILD_NUMBER = /^[0-9a-f]{40}@\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000$/;
const ANSWER_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/;
// The answer to a payment request is stamped to the second (2017 and 2024 recordings); read-backs carry milliseconds.
const PAYMENT_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/;
const PAYMENT_ID = /^[0-9a-f]{32}$/;
const CHECKOUT_ID = /^[0-9A-F]{32}\.[a-z0-9]+-vm-tx\d{2}$/;

/** Every leaf of an answer is a string (the API reference: "all values are JSON strings"). */
function leaves(value: unknown, path = ''): [string, unknown][] {
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => leaves(inner, `${path}.${key}`));
  return [[path, value]];
}

describe('conformance: the gateway contract through the public API', () => {
  it('creates a checkout: 000.200.100, a checkout id, ndc equal to it, the envelope in the platform formats', async () => {
    const { status, body } = await call('POST', '/v1/checkouts', {
      amount: '92.00',
      currency: 'EUR',
      paymentType: 'DB',
      integrity: 'true',
    });
    assert.equal(status, 200);
    assert.equal(body.result.code, RESULT_CODES.checkoutCreated);
    assert.equal(body.result.description, describeResult(RESULT_CODES.checkoutCreated));
    assert.match(body.id, CHECKOUT_ID);
    assert.equal(body.ndc, body.id);
    assert.match(body.integrity, /^sha384-/);
    assert.match(body.buildNumber, BUILD_NUMBER);
    assert.match(body.timestamp, ANSWER_TIME);
  });

  it("refuses a malformed amount with HTTP 400 200.300.404 and the platform's message", async () => {
    const { status, body } = await call('POST', '/v1/checkouts', {
      amount: '-20.20',
      currency: 'EUR',
      paymentType: 'DB',
      integrity: 'true',
    });
    assert.equal(status, 400);
    assert.equal(body.result.code, RESULT_CODES.invalidParameter);
    assert.deepEqual(
      body.result.parameterErrors.find((error: { name: string }) => error.name === 'amount'),
      { name: 'amount', value: '-20.20', message: 'must match ^[0-9]{1,12}(\\.[0-9]{2})?$' },
    );
  });

  it('approves a server-to-server debit in INTERNAL test mode: a 32-hex id, ndc <entityId>_<32 hex>, every value a string', async () => {
    const merchantTransactionId = reference('debit');
    const { status, body } = await call('POST', '/v1/payments', cardPayment({ merchantTransactionId }));
    assert.equal(status, 200);
    assert.equal(body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(body.result.description, describeResult(RESULT_CODES.approvedIntegratorTest));
    assert.match(body.id, PAYMENT_ID);
    assert.match(body.ndc, new RegExp(`^${gateway.entityId}_[0-9a-f]{32}$`));
    assert.match(body.timestamp, PAYMENT_TIME);
    assert.equal(body.amount, '92.00');
    assert.equal(body.card.bin, '420000');
    assert.equal(body.card.last4Digits, '0000');
    for (const [path, value] of leaves(body)) assert.equal(typeof value, 'string', path);
    const report = await call('GET', '/v3/query', { merchantTransactionId });
    assert.equal(report.status, 200);
    assert.deepEqual(
      report.body.payments.map((payment: { id: string }) => payment.id),
      [body.id],
    );
  });

  it('captures part of a preauthorisation: a CP referencing the PA', async () => {
    const pa = (await call('POST', '/v1/payments', cardPayment({ paymentType: 'PA', merchantTransactionId: reference('pa') }))).body;
    assert.ok(isApproved(pa.result.code));
    const { status, body } = await call('POST', `/v1/payments/${pa.id}`, { paymentType: 'CP', amount: '50.00', currency: 'EUR' });
    assert.equal(status, 200);
    assert.ok(isApproved(body.result.code));
    assert.equal(body.paymentType, 'CP');
    assert.equal(body.referencedId, pa.id);
  });

  it('answers an unknown transaction with HTTP 400 700.400.580 and an unknown checkout with the platform’s no-session text', async () => {
    const query = await call('GET', '/v3/query/ffffffffffffffffffffffffffffffff');
    assert.equal(query.status, 400);
    assert.equal(query.body.result.code, RESULT_CODES.transactionNotFound);
    assert.match(query.body.ndc, new RegExp(`^${gateway.entityId}_[0-9a-f]{32}$`));
    const checkout = await call('GET', '/v1/checkouts/0000000000000000000000000000DEAD.uat01-vm-tx01/payment');
    assert.equal(checkout.status, 400);
    assert.equal(checkout.body.result.code, RESULT_CODES.invalidParameter);
    assert.match(checkout.body.result.description, /^invalid or missing parameter.*No payment session found for the requested id/);
  });

  it('refuses a wrong access token with 800.900.300', async () => {
    const { status, body } = await call('POST', '/v1/payments', cardPayment(), 'not-a-token');
    assert.ok(status === 401 || status === 403, String(status));
    assert.equal(body.result.code, RESULT_CODES.unauthorized);
  });
});
