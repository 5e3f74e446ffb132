import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { TEST_CARDS } from '../../../src/sandbox/index.js';
import { CARDS, cardPayment, useSandbox } from '../support.js';

const { call } = useSandbox();

describe('POST /v1/payments (server-to-server)', () => {
  it('approves a debit with 000.100.110 in INTERNAL test mode, echoing what was sent and never the card number or CVV', async () => {
    const answer = await call(
      'POST',
      '/v1/payments',
      cardPayment({
        merchantTransactionId: 'order-1',
        'customParameters[OrderID]': 'A-1',
        'customer.givenName': 'Jane',
        'billing.city': 'Vienna',
      }),
    );
    assert.equal(answer.status, 200);
    const payment = answer.body;
    assert.equal(payment.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.match(payment.id, /^[a-f0-9]{32}$/);
    assert.equal(payment.paymentType, 'DB');
    assert.equal(payment.paymentBrand, 'VISA');
    assert.equal(payment.amount, '92.00');
    assert.equal(payment.currency, 'EUR');
    assert.equal(payment.merchantTransactionId, 'order-1');
    const { bin, last4Digits, holder, expiryMonth, expiryYear } = payment.card;
    assert.deepEqual(
      { bin, last4Digits, holder, expiryMonth, expiryYear },
      { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' },
    );
    assert.equal(payment.customParameters.OrderID, 'A-1');
    assert.match(payment.customParameters.SHOPPER_EndToEndIdentity, /^[a-f0-9]{64}$/);
    assert.equal(payment.customer.givenName, 'Jane');
    assert.equal(payment.customer.email, 'jane@example.com');
    assert.equal(payment.billing.city, 'Vienna');
    // The answer to the request itself is written without milliseconds (2017-11-28 13:22:03+0000), a read-back with them.
    assert.match(payment.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    assert.ok(payment.buildNumber && payment.ndc);
    const text = JSON.stringify(payment);
    assert.ok(!text.includes(CARDS.approved), 'full card number must not appear');
    assert.ok(!text.includes('"123"'), 'CVV must not appear');
  });

  it('every value in a payment response is a string', async () => {
    const { body } = await call('POST', '/v1/payments', cardPayment());
    const visit = (value: unknown, path: string): void => {
      if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) visit(inner, `${path}.${key}`);
      else assert.equal(typeof value, 'string', path);
    };
    visit(body, 'payment');
  });

  it('approves with 000.100.112 in EXTERNAL test mode', async () => {
    const { body } = await call('POST', '/v1/payments', cardPayment({ testMode: 'EXTERNAL' }));
    assert.equal(body.result.code, RESULT_CODES.approvedConnectorTest);
  });

  for (const card of TEST_CARDS.filter((entry) => entry.behaviour.kind === 'decline')) {
    it(`declines ${card.number}: ${card.description}`, async () => {
      const code = (card.behaviour as { code: string }).code;
      const answer = await call('POST', '/v1/payments', cardPayment({ 'card.number': card.number }));
      assert.equal(answer.status, 200);
      assert.equal(answer.body.result.code, code);
      const read = await call('GET', `/v1/payments/${answer.body.id}`);
      assert.equal(read.body.result.code, code);
    });
  }

  it('the uncertain trigger answers 900.100.300 but records the payment as approved, findable by merchantTransactionId', async () => {
    const answer = await call(
      'POST',
      '/v1/payments',
      cardPayment({ 'card.number': CARDS.uncertain, merchantTransactionId: 'uncertain-1' }),
    );
    assert.equal(answer.body.result.code, RESULT_CODES.timeoutUncertain);
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'uncertain-1' });
    assert.equal(report.body.payments.length, 1);
    assert.equal(report.body.payments[0].id, answer.body.id);
    assert.equal(report.body.payments[0].result.code, RESULT_CODES.approvedIntegratorTest);
  });

  it('3DS result cards without a gateway step answer their own codes', async () => {
    for (const [number, code] of [
      ['4012001037141112', '000.400.102'],
      ['4532497088771651', '000.400.101'],
      ['4012001037461114', '100.390.112'],
    ] as const) {
      const { body } = await call('POST', '/v1/payments', cardPayment({ 'card.number': number }));
      assert.equal(body.result.code, code, number);
    }
  });

  it('a credit (CD) with card details needs no customer data and is approved', async () => {
    const { status, body } = await call('POST', '/v1/payments', {
      paymentType: 'CD',
      amount: '10.00',
      currency: 'EUR',
      paymentBrand: 'VISA',
      'card.number': CARDS.approved,
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
    });
    assert.equal(status, 200);
    assert.equal(body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(body.paymentType, 'CD');
  });

  it('a missing or malformed field answers HTTP 400, 200.300.404, naming every bad field with masked card data', async () => {
    const answer = await call(
      'POST',
      '/v1/payments',
      cardPayment({ amount: '-20.20', 'card.number': '4200000000000001', 'card.cvv': '12a', 'customer.email': '' }),
    );
    assert.equal(answer.status, 400);
    assert.equal(answer.body.result.code, RESULT_CODES.invalidParameter);
    const errors = answer.body.result.parameterErrors as { name: string; value: string; message: string }[];
    const byName = new Map(errors.map((error) => [error.name, error]));
    assert.equal(byName.get('amount')?.value, '-20.20');
    assert.equal(byName.get('card.number')?.value, '420000******0001');
    assert.equal(byName.get('card.cvv')?.value, '***');
    assert.equal(byName.get('customer.email')?.message, 'may not be empty');
    assert.ok(!JSON.stringify(answer.body).includes('4200000000000001'));
  });

  it('refuses an expired card and a brand that does not match the number', async () => {
    const expired = await call('POST', '/v1/payments', cardPayment({ 'card.expiryYear': '2020' }));
    assert.equal(expired.status, 400);
    assert.ok(expired.body.result.parameterErrors.some((error: { name: string }) => error.name === 'card.expiryYear'));
    const brand = await call('POST', '/v1/payments', cardPayment({ paymentBrand: 'MASTER' }));
    assert.equal(brand.status, 400);
    assert.ok(brand.body.result.parameterErrors.some((error: { name: string }) => error.name === 'paymentBrand'));
  });
});

describe('GET /v1/payments/{id}', () => {
  it('reads a payment back; an unknown id answers 700.400.580', async () => {
    const created = await call('POST', '/v1/payments', cardPayment());
    const read = await call('GET', `/v1/payments/${created.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.id, created.body.id);
    assert.equal(read.body.result.code, created.body.result.code);
    const missing = await call('GET', '/v1/payments/ffffffffffffffffffffffffffffffff');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.result.code, RESULT_CODES.transactionNotFound);
  });

  it('needs the entityId', async () => {
    const answer = await call('GET', '/v1/payments/ffffffffffffffffffffffffffffffff', {}, { entityId: null });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body.result.parameterErrors, [{ name: 'entityId', value: null, message: 'may not be empty' }]);
  });
});
