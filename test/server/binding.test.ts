/**
 * Binding an answer to its request (src/server/binding.ts): the rule itself,
 * and the reads that apply it to what the gateway (here a stand-in) answers.
 * Payment POSTs are in reconcile.test.ts, shopper returns in
 * shopper-return.expiry.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRedactor } from '../../src/contract/redaction.js';
import { boundAnswer, contradictions, isCheckoutCreation, listed, sameAmount } from '../../src/server/binding.js';
import { GatewayNetworkError, GatewayNotFoundError } from '../../src/server/index.js';
import { answer, standInClient, TOKEN } from '../support/gateway-stand-in.js';

const ID = '8ac7a4a17000000000000000000000b1';
const OTHER_ID = '8ac7a4a17000000000000000000000b2';
const CHECKOUT = 'ABCDEF0123456789ABCDEF0123456789.uat01-vm-tx01';
const TERMS = { paymentType: 'DB' as const, amount: '10.00', currency: 'EUR' };

describe('contradictions: only a field present, well formed and different proves another request', () => {
  const transaction = { id: ID, ndc: CHECKOUT, customParameters: { GW_REFERENCE: 'ref-1' }, ...TERMS };
  const determined = { id: ID, checkoutId: CHECKOUT, reference: 'ref-1', ...TERMS };

  test('the same transaction: none', () => {
    assert.deepEqual(contradictions(transaction, determined), []);
  });

  test('each field that differs is named, with what was expected', () => {
    const other = {
      id: OTHER_ID,
      ndc: 'X',
      customParameters: { GW_REFERENCE: 'ref-2' },
      paymentType: 'PA',
      amount: '1.00',
      currency: 'USD',
    };
    assert.deepEqual(
      contradictions(other, determined).map(({ field }) => field),
      ['id', 'checkoutId', 'reference', 'paymentType', 'amount', 'currency'],
    );
  });

  test('absent, null, empty or malformed fields prove nothing; ids, codes and currencies in another case are the same', () => {
    for (const fields of [
      { ndc: undefined, customParameters: undefined, paymentType: undefined, amount: undefined, currency: undefined },
      { ndc: null, customParameters: null, paymentType: null, amount: null, currency: null },
      { ndc: '', customParameters: { GW_REFERENCE: '' }, paymentType: '', amount: '', currency: '' },
      { amount: '10.001' },
      { amount: '+1.00' },
      { amount: '10', currency: 'eur', ndc: CHECKOUT.toLowerCase(), paymentType: 'db' },
      { amount: '10.0' },
    ])
      assert.deepEqual(contradictions({ ...transaction, ...fields }, determined), [], JSON.stringify(fields));
  });

  test("the merchant's key and the kit's reference are texts: another case is another order; a saved card or a brand that differs is named", () => {
    const keyed = { ...transaction, merchantTransactionId: 'AB-7' };
    assert.deepEqual(
      contradictions(keyed, { ...determined, merchantTransactionId: 'ab-7' }).map(({ field }) => field),
      ['merchantTransactionId'],
    );
    assert.deepEqual(
      contradictions({ ...transaction, customParameters: { GW_REFERENCE: 'REF-1' } }, determined).map(({ field }) => field),
      ['reference'],
    );
    const paid = { ...transaction, registrationId: OTHER_ID, paymentBrand: 'MASTER' };
    assert.deepEqual(
      contradictions(paid, { ...determined, registrationId: ID, paymentBrand: 'VISA' }).map(({ field }) => field),
      ['registrationId', 'paymentBrand'],
    );
    assert.deepEqual(contradictions({ ...paid, paymentBrand: 'visa' }, { registrationId: OTHER_ID, paymentBrand: 'VISA' }), []);
  });

  test("a refusal's ndc is its own (the platform's `<entityId>_<32 hex>`); a success's and a transaction's is the checkout's", () => {
    const refusal = { result: { code: '200.300.404' }, ndc: '8ac7a4c79394bdc801939736f17e063d_0123456789abcdef0123456789abcdef' };
    assert.deepEqual(contradictions(refusal, determined), []);
    const fields = (answer: object) => contradictions(answer, determined).map(({ field }) => field);
    assert.deepEqual(fields({ result: { code: '000.100.110' }, id: null, ndc: 'X' }), ['checkoutId']);
    assert.deepEqual(fields({ result: { code: '800.100.152' }, id: OTHER_ID, ndc: 'X' }), ['id', 'checkoutId']);
    // Terms are compared whenever they are there: a refusal carrying another amount is another request's refusal.
    assert.deepEqual(fields({ result: { code: '800.100.152' }, amount: '1.00' }), ['amount']);
  });

  test('a value longer than 64 characters is cut in what it reports, and says so', () => {
    const actual = (ndc: string) => contradictions({ id: ID, ndc }, { checkoutId: CHECKOUT })[0]!.actual;
    assert.equal(actual('N'.repeat(64)), 'N'.repeat(64));
    assert.equal(actual('N'.repeat(65)), `${'N'.repeat(64)}…`);
    assert.equal(actual('N'.repeat(10_000)), `${'N'.repeat(64)}…`);
  });

  test('an empty id is no transaction, and an answer without a result is no success: their ndc is not compared', () => {
    assert.deepEqual(contradictions({ id: '', result: { code: '200.300.404' }, ndc: 'X' }, determined), []);
    assert.deepEqual(contradictions({ ndc: 'X' }, determined), []);
  });

  test('listed: each contradiction as a message says it, an absent value named so', () => {
    assert.equal(
      listed([
        { field: 'amount', expected: '1.00', actual: undefined },
        { field: 'currency', expected: 'EUR', actual: 'USD' },
      ]),
      'amount is absent, expected 1.00; currency is USD, expected EUR',
    );
  });
});

describe('boundAnswer', () => {
  const redact = createRedactor({ accessToken: TOKEN });

  test("this request's answer is returned as it is", () => {
    const answer = { id: ID, result: { code: '000.000.000' } };
    assert.equal(boundAnswer(answer, { id: ID }, 'the read', redact), answer);
  });

  test("a checkout's creation answers no read, even one naming the same id", () => {
    assert.throws(
      () => boundAnswer({ id: ID, result: { code: '000.200.100' } }, { id: ID }, 'the read', redact),
      (error: unknown) =>
        error instanceof GatewayNetworkError &&
        error.message ===
          `The answer to the read is another request's (result.code is 000.200.100, expected a transaction's or a refusal's): not used`,
    );
    assert.doesNotThrow(() => boundAnswer({ id: ID, result: {} }, { id: ID }, 'the read', redact));
    assert.doesNotThrow(() => boundAnswer({ id: ID }, { id: ID }, 'the read', redact));
  });

  test("another request's answer: a GatewayNetworkError scrubbed with the request's redactor (the token in the answer masked)", () => {
    assert.throws(
      () => boundAnswer({ id: TOKEN, result: { code: '000.000.000' } }, { id: ID }, 'the read', redact),
      (error: unknown) =>
        error instanceof GatewayNetworkError && !error.message.includes(TOKEN.slice(0, 24)) && /another request's/.test(error.message),
    );
  });
});

describe('sameAmount', () => {
  test("the same cents in the platform's format (two decimals, one, or none); anything else is no amount", () => {
    assert.equal(sameAmount('10.00', '10'), true);
    assert.equal(sameAmount('10.0', '10.00'), true);
    assert.equal(sameAmount('10.01', '10.00'), false);
    for (const text of ['1.005', '10.001', ' 10.00', '1e1', '0xA', '-10.00', '', null, undefined, 10])
      assert.equal(sameAmount(text, '10.00'), false, String(text));
    assert.equal(sameAmount('10.00', '10.001'), false);
  });
});

describe('reads answered with another transaction: not used, typed, the token never in the error', () => {
  test('payments.get and reports.get: an answer naming another id is a GatewayNetworkError', async () => {
    for (const path of [`/v1/payments/${ID}`, `/v3/query/${ID}`]) {
      const { client, gateway } = standInClient();
      gateway.on('GET', path, () => ({ status: 200, body: answer('000.000.000', { id: OTHER_ID, ...TERMS }) }));
      const read = path.startsWith('/v3') ? client.reports.get(ID) : client.payments.get(ID);
      const error = await read.then(
        () => assert.fail('taken'),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof GatewayNetworkError, String(error));
      assert.match(error.message, new RegExp(`id is ${OTHER_ID}, expected ${ID}`));
    }
  });

  test('an echoed token in the other id is masked wherever the error is shown', async () => {
    const { client, gateway } = standInClient();
    gateway.on('GET', `/v1/payments/${ID}`, () => ({ status: 200, body: answer('000.000.000', { id: TOKEN, ...TERMS }) }));
    const error = await client.payments.get(ID).catch((failure: unknown) => failure as Error);
    assert.ok(error instanceof GatewayNetworkError);
    for (const shown of [error.message, error.stack ?? '', JSON.stringify(error)]) assert.ok(!shown.includes(TOKEN.slice(0, 24)), shown);
  });

  test('the same id in another case is the same payment', async () => {
    const { client, gateway } = standInClient();
    gateway.on('GET', `/v1/payments/${ID}`, () => ({ status: 200, body: answer('000.000.000', { id: ID.toUpperCase(), ...TERMS }) }));
    assert.equal((await client.payments.get(ID)).id, ID.toUpperCase());
  });

  test("checkouts.getPayment: another checkout's payment, or other terms than the checkout was created with, is not used", async () => {
    for (const fields of [{ ndc: 'OTHER0123456789ABCDEF0123456789AB.uat01-vm-tx01' }, { amount: '99.00' }, { currency: 'USD' }]) {
      const { client, gateway } = standInClient(() => ({ status: 200, body: answer('000.200.100', { id: CHECKOUT }) }));
      await client.checkouts.create({ ...TERMS, merchantTransactionId: 'order-1' });
      gateway.on('GET', `/v1/checkouts/${CHECKOUT}/payment`, () => ({
        status: 200,
        body: answer('000.100.110', { id: ID, ndc: CHECKOUT, ...TERMS, ...fields }),
      }));
      await assert.rejects(client.checkouts.getPayment(CHECKOUT), GatewayNetworkError, JSON.stringify(fields));
    }
  });

  test("a refusal of a checkout's status read carries an ndc of its own, and is still the refusal it is", async () => {
    const { client, gateway } = standInClient();
    gateway.on('GET', `/v1/checkouts/${CHECKOUT}/payment`, () => ({
      status: 400,
      body: answer('200.300.404', { ndc: '8ac7a4c79394bdc801939736f17e063d_0123456789abcdef0123456789abcdef' }, 'No payment session found'),
    }));
    await assert.rejects(client.checkouts.getPayment(CHECKOUT), GatewayNotFoundError);
  });
});

describe("the order and the entity a transaction's answer names", () => {
  const ENTITY = '8a8294174b7ecb28014b9699220015ca';
  const OTHER_ENTITY = '8ac7a4c97d3a11e4017d3b3bd5f712a5';
  const REQUEST = 'fb956c7668a04e18af61519693a1d114';
  const determined = { entityId: ENTITY, merchantTransactionId: 'order-1' };

  test("an ndc of another entity, or another merchantTransactionId, is another request's", () => {
    assert.deepEqual(
      contradictions({ id: ID, ndc: `${OTHER_ENTITY}_${REQUEST}`, merchantTransactionId: 'order-1' }, determined).map(
        (found) => found.field,
      ),
      ['entityId'],
    );
    assert.deepEqual(
      contradictions({ id: ID, ndc: `${ENTITY}_${REQUEST}`, merchantTransactionId: 'order-2' }, determined).map((found) => found.field),
      ['merchantTransactionId'],
    );
  });

  test('the same entity in capitals, or an ndc that names no entity, proves nothing', () => {
    for (const ndc of [
      `${ENTITY.toUpperCase()}_${REQUEST}`,
      CHECKOUT,
      REQUEST,
      `x${OTHER_ENTITY}_${REQUEST}`,
      `${OTHER_ENTITY}_${REQUEST}0`,
      `${OTHER_ENTITY.slice(1)}_${REQUEST}`,
      `${OTHER_ENTITY}_${REQUEST.slice(1)}`,
      `${OTHER_ENTITY}_zz${REQUEST.slice(2)}`,
      `zz${OTHER_ENTITY.slice(2)}_${REQUEST}`,
      '',
      null,
      42,
    ])
      assert.deepEqual(contradictions({ id: ID, ndc, merchantTransactionId: 'order-1' }, determined), [], String(ndc));
  });

  test('an amount is never the same as no amount; a creation is told only by a code that is text', () => {
    assert.equal(sameAmount('10.00', undefined), false);
    for (const code of [null, undefined, 0, { code: '000.200.100' }]) assert.equal(isCheckoutCreation(code), false, String(code));
    assert.equal(isCheckoutCreation('000.200.100'), true);
  });
});

describe('the card an answer names', () => {
  const NUMBER = '4539148803436467';
  const named = (card: unknown) => contradictions({ id: 'x', card }, { cardNumber: NUMBER });

  test("the sent card's bin (6 or 8 digits) and last four digits are this request's", () => {
    assert.deepEqual(named({ bin: '453914', last4Digits: '6467' }), []);
    assert.deepEqual(named({ bin: '45391488', last4Digits: '6467' }), []);
    assert.deepEqual(named({ bin: '453914' }), []);
    assert.deepEqual(named({ last4Digits: '6467' }), []);
  });

  test("another bin or other last four digits are another card's, shown as first six and last four, never the number", () => {
    assert.deepEqual(named({ bin: '520000', last4Digits: '6467' }), [{ field: 'card', expected: '453914…6467', actual: '520000…6467' }]);
    assert.deepEqual(named({ bin: '453914', last4Digits: '0007' }), [{ field: 'card', expected: '453914…6467', actual: '453914…0007' }]);
    assert.deepEqual(named({ bin: '45391499', last4Digits: '6467' }).length, 1, 'an 8-digit bin that does not begin the number');
    // The number's last four at its start, its bin at its end: a card found by looking at the wrong end is not this one.
    assert.deepEqual(named({ bin: '148803', last4Digits: '4539' }).length, 1);
    for (const mismatch of [...named({ bin: '520000', last4Digits: '0007' }), ...named({ bin: '453914', last4Digits: '0007' })])
      assert.ok(!JSON.stringify(mismatch).includes(NUMBER) && !listed([mismatch]).includes(NUMBER));
  });

  test('a card field absent, null, of another type or malformed proves nothing (a tolerant reader)', () => {
    for (const card of [undefined, null, 'card', 42, [], { bin: null, last4Digits: null }, { bin: 520000, last4Digits: 1234 }])
      assert.deepEqual(named(card), [], JSON.stringify(card));
    for (const bin of ['', '45391', '453914888', '45391x', ' 453914', '999999 '])
      assert.deepEqual(named({ bin, last4Digits: '6467' }), [], `bin ${JSON.stringify(bin)}`);
    for (const last4Digits of ['', '646', '64670', '64x7', ' 6467'])
      assert.deepEqual(named({ bin: '453914', last4Digits }), [], `last4Digits ${JSON.stringify(last4Digits)}`);
  });

  test('no card is compared when the request sent none, or something that is no card number', () => {
    for (const cardNumber of [undefined, '', '4539 1488 0343 6467', '45391488034', '45391488034364671234'])
      assert.deepEqual(contradictions({ id: 'x', card: { bin: '520000', last4Digits: '0007' } }, { cardNumber }), [], String(cardNumber));
    assert.equal(
      contradictions({ id: 'x', card: { bin: '520000', last4Digits: '0007' } }, { cardNumber: '452000000007' }).length,
      1,
      '12 digits',
    );
    assert.equal(
      contradictions({ id: 'x', card: { bin: '520000', last4Digits: '0007' } }, { cardNumber: '4539148803436467123' }).length,
      1,
      '19 digits',
    );
  });
});
