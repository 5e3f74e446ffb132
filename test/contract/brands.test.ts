// brandsOfCardNumber: the brand of a card number by its prefix, from the same table that checks paymentBrand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brandsOfCardNumber, validateParameters } from '../../src/contract/rules.js';
import { isContracted, offeredBrands } from '../../src/contract/brands.js';

test('names the brands of VISA, Mastercard (both ranges) and AMEX numbers, most general first', () => {
  assert.deepEqual(brandsOfCardNumber('4200000000000000'), ['VISA', 'VISADEBIT', 'VISAELECTRON']);
  assert.deepEqual(brandsOfCardNumber('5454545454545454'), ['MASTER']);
  assert.deepEqual(brandsOfCardNumber('2221000000000009'), ['MASTER']);
  assert.deepEqual(brandsOfCardNumber('378282246310005'), ['AMEX']);
});

test('names none for a prefix outside the table (Discover, a 2-series number below 2221)', () => {
  assert.deepEqual(brandsOfCardNumber('6011000990139424'), []);
  assert.deepEqual(brandsOfCardNumber('2220000000000000'), []);
});

test('agrees with the paymentBrand check: the first brand it names is never refused for that number', () => {
  for (const number of ['4200000000000000', '5454545454545454', '2221000000000009']) {
    const [brand] = brandsOfCardNumber(number);
    const errors = validateParameters('payment', { paymentBrand: brand!, 'card.number': number });
    assert.ok(!errors.some((error) => error.name === 'paymentBrand'), `${brand} ${number}`);
  }
  // The same check does refuse a brand the number does not belong to, so the loop above can fail.
  const mismatch = validateParameters('payment', { paymentBrand: 'VISA', 'card.number': '5454545454545454' });
  assert.ok(mismatch.some((error) => error.name === 'paymentBrand'));
});

test("an entity's contract decides the brands it takes and the widget offers: the form's order, no other brand", () => {
  const contract = new Set(['MADA', 'APPLEPAY']);
  assert.equal(isContracted(contract, 'MADA'), true);
  assert.equal(isContracted(contract, 'VISA'), false);
  assert.equal(isContracted(['VISA'], 'VISA'), true);
  // An entity configured without brands takes every brand; a request naming none is never refused for it.
  assert.equal(isContracted(undefined, 'AMEX'), true);
  assert.equal(isContracted(contract, undefined), true);
  assert.deepEqual(offeredBrands(['VISA', 'APPLEPAY', 'AMEX', 'MADA'], contract), ['APPLEPAY', 'MADA']);
  assert.deepEqual(offeredBrands(['AMEX'], ['VISA', 'MASTER']), []);
  assert.deepEqual(offeredBrands(['AMEX', 'VISA'], undefined), ['AMEX', 'VISA']);
});
