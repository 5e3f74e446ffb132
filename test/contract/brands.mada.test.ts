// MADA by BIN, before the prefix: the brand integrators steer to the MADA entity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { brandOfCard, isMadaNumber, MADA_BINS, PAYMENT_BRANDS } from '../../src/contract/brands.js';
import { brandOfCardNumber, passesLuhn } from '../../src/contract/card.js';
import { validateParameters } from '../../src/contract/rules.js';
import { TEST_CARDS } from '../../src/sandbox/gateway/triggers.js';

test('a MADA BIN is MADA although its number is also a VISA or MASTER one', () => {
  assert.equal(brandOfCardNumber('4464040000000007'), 'VISA');
  assert.equal(brandOfCard('4464040000000007'), 'MADA');
  assert.equal(brandOfCardNumber('5433570000000000'), 'MASTER');
  assert.equal(brandOfCard('5433570000000000'), 'MADA');
});

test('the ranges the platform documents are MADA, each end included, and the numbers just outside are not', () => {
  for (const bin of ['440647', '446404', '457865', '588845', '588851', '968201', '968211', '42689700'])
    assert.ok(isMadaNumber(`${bin}0000000000`), bin);
  assert.equal(brandOfCard('5888520000000000'), 'MAESTRO');
  assert.equal(brandOfCard('9682120000000000'), undefined);
  assert.equal(brandOfCard('4268960000000000'), 'VISA', 'only 42689700…, not the whole 426896');
});

test('any number that does not start with a MADA BIN keeps the brand of its prefix', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[0-9]{12,19}$/), (number) => {
      const mada = MADA_BINS.some((bin) => number.startsWith(bin));
      assert.equal(brandOfCard(number), mada ? 'MADA' : brandOfCardNumber(number));
    }),
  );
});

test('the MADA test cards are Luhn-valid MADA numbers, and MADA and the wallets are brands a request may send', () => {
  const mada = TEST_CARDS.filter((card) => card.brand === 'MADA');
  assert.ok(mada.length >= 2);
  for (const card of mada) {
    assert.ok(passesLuhn(card.number) && brandOfCard(card.number) === 'MADA', card.number);
    assert.deepEqual(
      validateParameters('payment', { paymentBrand: 'MADA', 'card.number': card.number }).filter(
        (error) => error.name.startsWith('card.number') || error.name === 'paymentBrand',
      ),
      [],
    );
  }
  for (const brand of ['VISA', 'MASTER', 'AMEX', 'MADA', 'APPLEPAY', 'APPLEPAYTKN', 'GOOGLEPAY', 'STC_PAY'] as const)
    assert.ok(PAYMENT_BRANDS.includes(brand));
  assert.ok(
    validateParameters('payment', { paymentBrand: 'PAYPAL' }).some((error) => error.name === 'paymentBrand'),
    'a brand outside the list is still refused',
  );
});
