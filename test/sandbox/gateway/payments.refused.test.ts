import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { CARDS, cardPayment, useSandbox } from '../support.js';

const { call } = useSandbox({ limits: { recordBytes: 4096 } });

/** The approved test card with its last digit changed: the one fault is the Luhn check. */
const LUHN_FAILING = `${CARDS.approved.slice(0, -1)}${(Number(CARDS.approved.at(-1)) + 1) % 10}`;

const ID = /^[0-9a-f]{32}$/;

describe('refused transactions are kept and read back (gateway/payments.ts recordRefusal)', () => {
  it('a card number failing the Luhn check: refused 100.100.101 with its own id, then read by id, by /v3/query and by order', async () => {
    const refused = await call(
      'POST',
      '/v1/payments',
      cardPayment({ 'card.number': LUHN_FAILING, merchantTransactionId: 'luhn-1', 'billing.city': 'Ottawa' }),
    );
    assert.equal(refused.status, 400);
    assert.equal(refused.body.result.code, RESULT_CODES.invalidCard);
    assert.match(refused.body.id, ID);
    assert.equal(refused.body.billing.city, 'Ottawa');
    assert.equal(refused.body.amount, undefined);
    assert.equal(refused.body.risk, undefined);
    // The answer to the request is timed to the second, as every payment request's answer.
    assert.match(refused.body.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    for (const path of [`/v1/payments/${refused.body.id}`, `/v3/query/${refused.body.id}`]) {
      const read = await call('GET', path);
      assert.equal(read.status, 200, path);
      assert.equal(read.body.id, refused.body.id);
      assert.equal(read.body.result.code, RESULT_CODES.invalidCard);
      assert.deepEqual(read.body.card, refused.body.card);
      assert.equal(read.body.merchantTransactionId, 'luhn-1');
      assert.equal(read.body.amount, undefined);
      assert.equal(read.body.descriptor, undefined);
      assert.equal(read.body.resultDetails, undefined);
      assert.match(read.body.timestamp, /\.\d{3}\+0000$/);
    }
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'luhn-1' });
    assert.equal(report.status, 200);
    assert.deepEqual(
      report.body.payments.map((payment: { id: string }) => payment.id),
      [refused.body.id],
    );
    // The card's number and security code are in no answer.
    assert.ok(!JSON.stringify([refused.body, report.body]).includes(LUHN_FAILING));
  });

  it('a capture, refund or reversal of an unknown payment: a refused CP, RF or RV read back with its type, code and risk 0', async () => {
    const unknown = 'f'.repeat(32);
    for (const [paymentType, code] of [
      ['CP', RESULT_CODES.captureWithoutPreauthorization],
      ['RF', RESULT_CODES.invalidPaymentData],
      ['RV', RESULT_CODES.reversalWithoutPayment],
    ] as const) {
      const money: Record<string, string> = paymentType === 'RV' ? {} : { amount: '1.00', currency: 'EUR' };
      const refused = await call('POST', `/v1/payments/${unknown}`, { paymentType, ...money });
      assert.equal(refused.status, 400, paymentType);
      assert.equal(refused.body.result.code, code);
      const read = await call('GET', `/v1/payments/${refused.body.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.paymentType, paymentType);
      assert.equal(read.body.result.code, code);
      assert.deepEqual(read.body.risk, { score: '0' });
      assert.equal(read.body.referencedId, undefined);
    }
  });

  it('a refused transaction moves no money: capturing, refunding or reversing it is refused in turn', async () => {
    const refused = await call('POST', '/v1/payments', cardPayment({ paymentType: 'PA', 'card.number': LUHN_FAILING }));
    const capture = await call('POST', `/v1/payments/${refused.body.id}`, { paymentType: 'CP', amount: '1.00', currency: 'EUR' });
    assert.equal(capture.body.result.code, RESULT_CODES.captureWithoutPreauthorization);
    const reversal = await call('POST', `/v1/payments/${refused.body.id}`, { paymentType: 'RV' });
    assert.equal(reversal.body.result.code, RESULT_CODES.cannotReverse);
  });

  it('a card stored with a number failing the Luhn check is a refused RG transaction, read back too', async () => {
    const { 'card.number': _number, paymentType: _type, amount: _amount, currency: _currency, ...card } = cardPayment();
    const refused = await call('POST', '/v1/registrations', { ...card, 'card.number': LUHN_FAILING });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.result.code, RESULT_CODES.invalidCard);
    assert.equal(refused.body.paymentType, 'RG');
    const read = await call('GET', `/v1/payments/${refused.body.id}`);
    assert.equal(read.body.result.code, RESULT_CODES.invalidCard);
  });

  it('what would be stored is bounded like any record: an oversized request is refused as one, nothing kept', async () => {
    const notes = Object.fromEntries(['a', 'b', 'c'].map((name) => [`customParameters[${name}]`, 'x'.repeat(1500)]));
    const big = await call('POST', '/v1/payments', cardPayment({ 'card.number': LUHN_FAILING, merchantTransactionId: 'big-1', ...notes }));
    assert.equal(big.status, 400);
    assert.equal(big.body.result.code, RESULT_CODES.invalidParameter);
    assert.equal(big.body.id, undefined);
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'big-1' });
    assert.equal(report.body.result.code, RESULT_CODES.transactionNotFound);
  });
});

describe('a refund or reversal sent without a payment id, as the platform answered it (recorded 2017)', () => {
  it('the type is not one this endpoint takes, the card is missing as a whole, a reversal also lacks amount and currency', async () => {
    const byName = (answer: { body: { result: { parameterErrors: { name: string; value: unknown; message: string }[] } } }) =>
      Object.fromEntries(answer.body.result.parameterErrors.map(({ name, value, message }) => [name, { value, message }]));
    const refund = await call('POST', '/v1/payments', { paymentType: 'RF', amount: '1.00', currency: 'EUR' });
    assert.equal(refund.status, 400);
    assert.equal(refund.body.result.code, RESULT_CODES.invalidParameter);
    assert.deepEqual(byName(refund), {
      paymentType: { value: 'RF', message: 'must be one of [PA, DB, CD]' },
      paymentBrand: { value: null, message: 'card properties must be set' },
    });
    const reversal = await call('POST', '/v1/payments', { paymentType: 'RV' });
    assert.deepEqual(byName(reversal), {
      paymentType: { value: 'RV', message: 'must be one of [PA, DB, CD]' },
      paymentBrand: { value: null, message: 'card properties must be set' },
      amount: { value: null, message: 'may not be empty' },
      currency: { value: null, message: 'may not be empty' },
    });
    // One entry per field, as recorded: a type the endpoint does not take is not told twice in two wordings.
    for (const answer of [refund, reversal])
      assert.equal(answer.body.result.parameterErrors.length, Object.keys(byName(answer)).length, JSON.stringify(answer.body.result));
    const unknown = await call('POST', '/v1/payments', cardPayment({ paymentType: 'XX' }));
    assert.deepEqual(
      unknown.body.result.parameterErrors.filter(({ name }: { name: string }) => name === 'paymentType'),
      [{ name: 'paymentType', value: 'XX', message: 'must be one of [PA, DB, CD]' }],
    );
  });
});
