import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isApproved, RESULT_CODES } from '../../../src/contract/result-codes.js';
import { cardPayment, useSandbox } from '../support.js';

const { call } = useSandbox();

async function preauthorise(amount = '100.00', extra: Record<string, string> = {}): Promise<string> {
  const { body } = await call('POST', '/v1/payments', cardPayment({ paymentType: 'PA', amount, ...extra }));
  assert.ok(isApproved(body.result.code), body.result.code);
  return body.id;
}

const capture = (id: string, amount: string, extra: Record<string, string> = {}) =>
  call('POST', `/v1/payments/${id}`, { paymentType: 'CP', amount, currency: 'EUR', ...extra });

describe('POST /v1/payments/{id}: capture (CP)', () => {
  it('captures in two parts, refuses the over-capture with 700.400.100, and lists all by merchantTransactionId, the refused one too', async () => {
    const pa = await preauthorise('100.00', { merchantTransactionId: 'walk-1', 'customer.merchantCustomerId': 'cust-7' });
    const first = await capture(pa, '60.00', { merchantTransactionId: 'walk-1' });
    assert.equal(first.status, 200);
    assert.equal(first.body.paymentType, 'CP');
    assert.equal(first.body.referencedId, pa);
    assert.equal(first.body.amount, '60.00');
    assert.equal(first.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.match(first.body.resultDetails.clearingCutOff, /^\d{4}-\d{2}-\d{2} 22:00:00\+0000$/);
    assert.equal(first.body.customer.merchantCustomerId, 'cust-7');
    const second = await capture(pa, '40.00', { merchantTransactionId: 'walk-1' });
    assert.equal(second.body.result.code, RESULT_CODES.approvedIntegratorTest);
    const over = await capture(pa, '0.01', { merchantTransactionId: 'walk-1' });
    assert.equal(over.status, 400);
    assert.equal(over.body.result.code, RESULT_CODES.cannotCapture);
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'walk-1' });
    assert.equal(report.status, 200);
    assert.deepEqual(
      report.body.payments.map((payment: { id: string }) => payment.id),
      [pa, first.body.id, second.body.id, over.body.id],
    );
    // The refused capture is a transaction of its own, listed as it was answered: no money moved.
    assert.equal(report.body.payments[3].result.code, RESULT_CODES.cannotCapture);
    assert.equal(report.body.payments[3].amount, undefined);
  });

  it('concurrent captures never sum above the preauthorisation', async () => {
    const pa = await preauthorise('10.00');
    const answers = await Promise.all(Array.from({ length: 25 }, () => capture(pa, '1.00')));
    const approved = answers.filter((answer) => answer.body.result.code === RESULT_CODES.approvedIntegratorTest);
    const refused = answers.filter((answer) => answer.body.result.code === RESULT_CODES.cannotCapture);
    assert.equal(approved.length, 10);
    assert.equal(refused.length, 15);
  });

  it("a capture's testMode must equal the preauthorisation's", async () => {
    const pa = await preauthorise('10.00', { testMode: 'EXTERNAL' });
    const mismatch = await capture(pa, '5.00');
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.result.code, RESULT_CODES.invalidParameter);
    assert.equal(mismatch.body.result.parameterErrors[0].name, 'testMode');
    const matching = await capture(pa, '5.00', { testMode: 'EXTERNAL' });
    assert.equal(matching.body.result.code, RESULT_CODES.approvedConnectorTest);
  });

  it('refuses to capture a debit, a declined PA, another currency or an unknown id', async () => {
    // No successful preauthorisation to capture: the platform's refused CP transaction, 700.400.510, with its own id.
    const debit = (await call('POST', '/v1/payments', cardPayment())).body.id;
    const ofDebit = await capture(debit, '1.00');
    assert.equal(ofDebit.status, 400);
    assert.equal(ofDebit.body.result.code, RESULT_CODES.captureWithoutPreauthorization);
    assert.equal(ofDebit.body.paymentType, 'CP');
    assert.match(ofDebit.body.id, /^[0-9a-f]{32}$/);
    assert.notEqual(ofDebit.body.id, debit);
    const declined = (await call('POST', '/v1/payments', cardPayment({ paymentType: 'PA', 'card.number': '4000000000000002' }))).body.id;
    assert.equal((await capture(declined, '1.00')).body.result.code, RESULT_CODES.captureWithoutPreauthorization);
    const pa = await preauthorise('10.00');
    const currency = await capture(pa, '1.00', { currency: 'USD' });
    assert.equal(currency.status, 400);
    assert.equal(currency.body.result.parameterErrors[0].name, 'currency');
    const unknown = await capture('ffffffffffffffffffffffffffffffff', '1.00');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.result.code, RESULT_CODES.captureWithoutPreauthorization);
    assert.match(unknown.body.id, /^[0-9a-f]{32}$/);
  });

  it('validates the capture body', async () => {
    const pa = await preauthorise('10.00');
    const answer = await call('POST', `/v1/payments/${pa}`, { paymentType: 'DB', amount: '1.5' });
    assert.equal(answer.status, 400);
    const names = answer.body.result.parameterErrors.map((error: { name: string }) => error.name).sort();
    assert.deepEqual(names, ['amount', 'currency', 'paymentType']);
  });
});

describe('POST /v1/payments/{id}: refund (RF) and reversal (RV), beyond the API reference', () => {
  it('refunds a debit up to its amount, then refuses with 700.400.200', async () => {
    const debit = (await call('POST', '/v1/payments', cardPayment({ amount: '20.00' }))).body.id;
    const refund = await call('POST', `/v1/payments/${debit}`, { paymentType: 'RF', amount: '15.00', currency: 'EUR' });
    assert.equal(refund.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(refund.body.paymentType, 'RF');
    assert.equal(refund.body.referencedId, debit);
    const over = await call('POST', `/v1/payments/${debit}`, { paymentType: 'RF', amount: '5.01', currency: 'EUR' });
    assert.equal(over.body.result.code, RESULT_CODES.cannotRefund);
  });

  it('refunds a capture up to the captured amount', async () => {
    const pa = await preauthorise('50.00');
    const cp = (await capture(pa, '30.00')).body.id;
    assert.equal(
      (await call('POST', `/v1/payments/${cp}`, { paymentType: 'RF', amount: '30.00', currency: 'EUR' })).body.result.code,
      RESULT_CODES.approvedIntegratorTest,
    );
    assert.equal(
      (await call('POST', `/v1/payments/${cp}`, { paymentType: 'RF', amount: '0.01', currency: 'EUR' })).body.result.code,
      RESULT_CODES.cannotRefund,
    );
    assert.equal(
      (await call('POST', `/v1/payments/${pa}`, { paymentType: 'RF', amount: '1.00', currency: 'EUR' })).body.result.code,
      RESULT_CODES.cannotRefund,
    );
  });

  it('reverses an uncaptured preauthorisation once; a reversed PA can no longer be captured', async () => {
    const pa = await preauthorise('50.00');
    const reversal = await call('POST', `/v1/payments/${pa}`, { paymentType: 'RV' });
    assert.equal(reversal.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(reversal.body.paymentType, 'RV');
    assert.equal(reversal.body.amount, '50.00');
    assert.equal((await call('POST', `/v1/payments/${pa}`, { paymentType: 'RV' })).body.result.code, RESULT_CODES.cannotReverse);
    assert.equal((await capture(pa, '1.00')).body.result.code, RESULT_CODES.cannotCapture);
  });

  it('refuses to reverse a captured preauthorisation', async () => {
    const pa = await preauthorise('50.00');
    await capture(pa, '10.00');
    assert.equal((await call('POST', `/v1/payments/${pa}`, { paymentType: 'RV' })).body.result.code, RESULT_CODES.cannotReverse);
  });
});

describe('the risk block, as the recordings show it', () => {
  it('100 on a debit and a preauthorisation, 0 on a capture and a reversal, none on a refund', async () => {
    const pa = await preauthorise('20.00');
    const captured = (await capture(pa, '20.00')).body;
    const debit = (await call('POST', '/v1/payments', cardPayment({ amount: '30.00' }))).body;
    const refund = (await call('POST', `/v1/payments/${debit.id}`, { paymentType: 'RF', amount: '5.00', currency: 'EUR' })).body;
    const held = await preauthorise('40.00');
    const reversal = (await call('POST', `/v1/payments/${held}`, { paymentType: 'RV' })).body;
    const pas = (await call('GET', `/v1/payments/${pa}`)).body;
    for (const [answer, score] of [
      [debit, '100'],
      [pas, '100'],
      [captured, '0'],
      [reversal, '0'],
    ] as const) {
      assert.ok(isApproved(answer.result.code), answer.paymentType);
      assert.deepEqual(answer.risk, { score }, answer.paymentType);
    }
    assert.ok(isApproved(refund.result.code));
    assert.equal(refund.risk, undefined);
  });
});
