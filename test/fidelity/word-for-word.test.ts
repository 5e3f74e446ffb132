/**
 * Word for word: recordings of the platform collected for issue 30
 * (test/fidelity/recordings, each naming its source) beside what the sandbox
 * answers to the same kind of request: the status, the result code and its
 * text, the fields and the id formats. And the requests the platform was seen
 * to accept, accepted by the sandbox and by the server helper's own checks.
 * Every decision here is in the contract's table (src/contract/formats.ts).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { checkField } from '../../src/contract/formats.js';
import { isApproved, RESULT_CODES } from '../../src/contract/result-codes.js';
import { validateParameters } from '../../src/contract/rules.js';
import { createGatewayClient } from '../../src/server/index.js';
import { cardPayment, threeDsFields } from '../../src/sandbox/fixtures.js';
import { CARDS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../sandbox/support.js';

interface Recording {
  readonly name: string;
  readonly source: { repository: string; path: string; commit: string };
  readonly recorded: string;
  readonly status?: number;
  readonly answer?: { id?: string; paymentType?: string; result: { code: string; description: string } };
  readonly requests?: readonly { name: string; params: Record<string, string> }[];
}

const DIR = new URL('recordings/', import.meta.url);
const RECORDINGS: Record<string, Recording> = Object.fromEntries(
  readdirSync(DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file, { name: file, ...(JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Omit<Recording, 'name'>) }]),
);
const recording = (name: string): Recording => RECORDINGS[name] ?? assert.fail(`no recording ${name}`);

const ENTITY = '8a8294174b7ecb28014b9699220015ca';
const CARDS_ONLY = '8a8294174b7ecb28014b9699220015cb';
const UNKNOWN = 'ffffffffffffffffffffffffffffffff';
const TRANSACTION_ID = /^[0-9a-f]{32}$/;
/** RFC 4122 version 4, as EMVCo defines threeDSServerTransID. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The approved test card with its check digit changed: a number failing the Luhn check. */
const LUHN_FAILING = `${CARDS.approved.slice(0, -1)}${(Number(CARDS.approved.at(-1)) + 1) % 10}`;

describe('word for word: the sandbox beside the recordings of issue 30', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, entities: [ENTITY, { id: CARDS_ONLY, brands: ['VISA', 'MASTER'] }] });
  });
  after(() => sandbox.close());

  /** The sandbox's refusal is the recorded one: status, code, text, its own id in the platform's format, the type. */
  function assertRefusedAsRecorded(mine: { status: number; body: any }, recorded: Recording): void {
    const answer = recorded.answer!;
    assert.equal(mine.status, recorded.status, `${recorded.name}: HTTP status`);
    assert.equal(mine.body.result.code, answer.result.code, `${recorded.name}: code`);
    assert.equal(mine.body.result.description, answer.result.description, `${recorded.name}: text`);
    if (answer.id !== undefined) {
      assert.match(answer.id, TRANSACTION_ID, 'the recording is what the test takes it for');
      assert.match(mine.body.id, TRANSACTION_ID, `${recorded.name}: a transaction id of its own`);
    } else assert.equal(mine.body.id, undefined, `${recorded.name}: no transaction`);
    if (answer.paymentType !== undefined) assert.equal(mine.body.paymentType, answer.paymentType);
  }

  it('every recording names its source and when or where it was recorded', () => {
    assert.ok(Object.keys(RECORDINGS).length >= 4);
    for (const recorded of Object.values(RECORDINGS)) {
      assert.ok(recorded.source.repository && recorded.source.path && recorded.source.commit, recorded.name);
      assert.ok(recorded.recorded, recorded.name);
    }
  });

  it('a reversal that names no transaction is the refused RV transaction 700.400.530, with an id of its own', async () => {
    const mine = await call(sandbox, 'POST', `/v1/payments/${UNKNOWN}`, { paymentType: 'RV' });
    assertRefusedAsRecorded(mine, recording('s5-reversal-refused.json'));
    assert.notEqual(mine.body.id, UNKNOWN);
  });

  it("a capture and a refund that name no transaction are refused as the platform refuses them (the integrator's failure tests)", async () => {
    const capture = await call(sandbox, 'POST', `/v1/payments/${UNKNOWN}`, { paymentType: 'CP', amount: '1.00', currency: 'EUR' });
    assert.equal(capture.status, 400);
    assert.equal(capture.body.result.code, RESULT_CODES.captureWithoutPreauthorization);
    assert.equal(capture.body.result.description, 'capture needs at least one successful transaction of type (PA)');
    assert.match(capture.body.id, TRANSACTION_ID);
    const refund = await call(sandbox, 'POST', `/v1/payments/${UNKNOWN}`, { paymentType: 'RF', amount: '1.00', currency: 'EUR' });
    assert.equal(refund.status, 400);
    assert.equal(refund.body.result.code, RESULT_CODES.invalidPaymentData);
    assert.equal(
      refund.body.result.description,
      'Invalid payment data. You are not configured for this currency or sub type (country or brand)',
    );
    assert.equal(refund.body.paymentType, 'RF');
    assert.notEqual(refund.body.id, capture.body.id, 'each refusal is a transaction of its own');
  });

  it('a card stored with a number failing the Luhn check is the refused transaction 100.100.101, as a payment with one is', async () => {
    const card = Object.fromEntries(
      Object.entries(cardPayment({ 'card.number': LUHN_FAILING })).filter(([name]) => name.startsWith('card.')),
    );
    const stored = await call(sandbox, 'POST', '/v1/registrations', { paymentBrand: 'VISA', ...card });
    assertRefusedAsRecorded(stored, recording('s5-registration-invalid-card.json'));
    const paid = await call(sandbox, 'POST', '/v1/payments', cardPayment({ 'card.number': LUHN_FAILING }));
    assert.equal(paid.status, 400);
    assert.equal(paid.body.result.code, RESULT_CODES.invalidCard);
    assert.equal(paid.body.result.parameterErrors, undefined, 'a refused transaction, not a parameter error');
    assert.equal(paid.body.card.last4Digits, LUHN_FAILING.slice(-4));
    assert.ok(!JSON.stringify(paid.body).includes(LUHN_FAILING), 'the number is not echoed whole');
  });

  it('a refused token reads as the platform writes it on /v1/… (recorded 2026), and as the API reference quotes it on /v3/query', async () => {
    const recorded = recording('connector-service-refused-token.json');
    const payment = await call(sandbox, 'POST', '/v1/payments', cardPayment(), { token: 'not-a-token-the-sandbox-knows' });
    assertRefusedAsRecorded(payment, recorded);
    const checkout = await call(
      sandbox,
      'POST',
      '/v1/checkouts',
      { amount: '1.00', currency: 'EUR', paymentType: 'DB' },
      { token: 'nope' },
    );
    assert.equal(checkout.body.result.description, recorded.answer!.result.description);
    const query = await call(sandbox, 'GET', '/v3/query', { merchantTransactionId: 'order-1' }, { token: 'nope' });
    assert.equal(query.status, 401);
    assert.equal(query.body.result.code, RESULT_CODES.unauthorized);
    assert.equal(query.body.result.description, 'user authorization failed');
    const report = await call(sandbox, 'GET', `/v3/query/${UNKNOWN}`, {}, { token: 'nope' });
    assert.equal(report.body.result.description, 'user authorization failed');
  });

  for (const request of recording('integrator-requests-accepted.json').requests!) {
    it(`accepted as the platform accepts it: ${request.name} (sandbox and the server helper's own checks)`, async () => {
      const params = Object.fromEntries(Object.entries(request.params).map(([name, value]) => [name, value.replace('{entity}', ENTITY)]));
      const viaAuthentication = 'authentication.entityId' in params;
      const answer = await call(sandbox, 'POST', '/v1/payments', cardPayment(params), viaAuthentication ? { entityId: null } : {});
      assert.equal(answer.status, 200, JSON.stringify(answer.body.result));
      assert.ok(isApproved(answer.body.result.code), answer.body.result.code);
      if (params.merchantTransactionId) assert.equal(answer.body.merchantTransactionId, params.merchantTransactionId);
      if (params['customer.phone']) assert.equal(answer.body.customer.phone, params['customer.phone']);
      // The shared rules the server helper checks before sending refuse none of it (the entity is its own option).
      const fields = Object.fromEntries(Object.entries(params).filter(([name]) => name !== 'authentication.entityId'));
      for (const [name, value] of Object.entries(fields)) assert.equal(checkField(name, value), undefined, name);
      assert.deepEqual(validateParameters('payment', { entityId: ENTITY, ...cardPayment(fields) }), []);
    });
  }

  it("the server helper sends a merchant's `order 5678` and a free-text phone, and the sandbox takes them", async () => {
    const client = createGatewayClient({ baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: ENTITY });
    const payment = await client.payments.create({
      paymentType: 'DB',
      amount: '5.00',
      currency: 'EUR',
      paymentBrand: 'VISA',
      merchantTransactionId: 'order 5678',
      card: { number: CARDS.approved, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: '123' },
      customer: { email: 'jane@example.com', ip: '192.0.2.1', phone: '+49 (0)89 / 987 65-4' },
    });
    assert.ok(isApproved(payment.result.code));
    assert.equal(payment.merchantTransactionId, 'order 5678');
    const found = await client.reports.findByMerchantTransactionId('order 5678');
    assert.deepEqual(
      found.payments.map(({ id }) => id),
      [payment.id],
    );
  });

  it('a debit is reversed (RV on a DB), as the platform allows', async () => {
    const debit = await call(sandbox, 'POST', '/v1/payments', cardPayment({ amount: '7.00' }));
    const reversal = await call(sandbox, 'POST', `/v1/payments/${debit.body.id}`, { paymentType: 'RV' });
    assert.equal(reversal.status, 200);
    assert.ok(isApproved(reversal.body.result.code));
    assert.equal(reversal.body.referencedId, debit.body.id);
    assert.equal(reversal.body.amount, '7.00');
  });

  it('a checkout created without integrity is accepted, as production accepts it, and answers none', async () => {
    const created = await call(sandbox, 'POST', '/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB' });
    assert.equal(created.status, 200);
    assert.equal(created.body.result.code, RESULT_CODES.checkoutCreated);
    assert.equal(created.body.integrity, undefined);
  });

  it("the 3-D Secure method data's threeDSServerTransID is a UUID, as EMVCo defines it (and so is the challenge's)", async () => {
    const pending = await call(sandbox, 'POST', '/v1/payments', cardPayment({ 'card.number': '4200000000000091', ...threeDsFields() }));
    const [precondition] = pending.body.redirect.preconditions;
    const [methodData] = precondition.parameters;
    const decoded = JSON.parse(Buffer.from(methodData.value, 'base64url').toString('utf8'));
    assert.match(decoded.threeDSServerTransID, UUID);
    const creq = pending.body.redirect.parameters.find((parameter: { name: string }) => parameter.name === 'creq');
    assert.match(JSON.parse(Buffer.from(creq.value, 'base64url').toString('utf8')).threeDSServerTransID, UUID);
  });

  it("the widget is told the brands of the checkout's entity, so it offers no wallet the entity has no contract for", async () => {
    const created = await call(
      sandbox,
      'POST',
      '/v1/checkouts',
      { amount: '1.00', currency: 'EUR', paymentType: 'DB' },
      { entityId: CARDS_ONLY },
    );
    const widget = await (await fetch(`${sandbox.url}/v1/checkouts/${created.body.id}/widget`)).json();
    assert.deepEqual(widget.checkout.brands, ['VISA', 'MASTER']);
    const everything = await call(sandbox, 'POST', '/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB' });
    const open = await (await fetch(`${sandbox.url}/v1/checkouts/${everything.body.id}/widget`)).json();
    assert.equal(open.checkout.brands, undefined, 'an entity configured for every brand names none');
  });
});
