import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requiredFields, validateParameters } from '../../src/contract/rules.js';
import { cardPayment } from '../../src/sandbox/fixtures.js';

const payment = { entityId: '8ac7a4c79394bdc801939736f17e063d', ...cardPayment({ amount: '10.00' }) };
const now = new Date('2026-11-21T12:00:00Z');
const names = (errors: { name: string }[]) => errors.map((error) => error.name).sort();

describe('validation context: the gateway 3DS step', () => {
  it('needs shopperResultUrl and billing data when the caller knows the card is enrolled', () => {
    assert.deepEqual(validateParameters('payment', payment, now), []);
    assert.deepEqual(names(validateParameters('payment', payment, now, { threeDSecure: true })), [
      'billing.city',
      'billing.country',
      'billing.postcode',
      'billing.street1',
      'shopperResultUrl',
    ]);
  });

  it('both spellings of the enrolment flag count', () => {
    for (const flag of ['customParameters[3DS2_enrolled]', 'customParameters[3DS_enrolled]']) {
      assert.ok(requiredFields('payment', { ...payment, [flag]: 'true' }).includes('shopperResultUrl'), flag);
    }
  });
});

describe('brand and card number', () => {
  it('a number must belong to the brand sent with it', () => {
    assert.deepEqual(names(validateParameters('payment', { ...payment, paymentBrand: 'MASTER' }, now)), ['paymentBrand']);
    assert.deepEqual(validateParameters('payment', { ...payment, paymentBrand: 'MASTER', 'card.number': '5454545454545454' }, now), []);
    assert.deepEqual(
      validateParameters('payment', { ...payment, paymentBrand: 'MASTER', 'card.number': '2223000048400011' }, now),
      [],
      '2-series Mastercard',
    );
    assert.deepEqual(names(validateParameters('payment', { ...payment, 'card.number': '5454545454545454' }, now)), ['paymentBrand']);
  });

  it("refuses a brand spelled as an object's inherited key as a parameter error, never a throw", () => {
    // A plain table lookup would find Object.prototype's members and call them as the brand's prefix.
    for (const brand of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      assert.deepEqual(names(validateParameters('payment', { ...payment, paymentBrand: brand }, now)), ['paymentBrand'], brand);
  });

  it('brands without a known prefix are not second-guessed', () => {
    assert.deepEqual(validateParameters('payment', { ...payment, paymentBrand: 'MAESTRO' }, now), []);
  });
});
