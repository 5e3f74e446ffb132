/**
 * The 3-D Secure test cards' outcomes (not enrolled `000.400.102`, not
 * participating `000.400.101`, a 3DS error `100.390.112`) are a 3-D Secure
 * check's, and only a payment the gateway checks gets them: a DB or PA with
 * card data. A credit or payout to such a card, and a merchant-initiated repeat
 * on it once stored, run no check: they were refused "by 3-D Secure" though no
 * authentication was attempted, and a card stored from one could never be used.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isApproved } from '../../../src/contract/result-codes.js';
import { cardPayment, useSandbox } from '../support.js';

const { call } = useSandbox();

const THREE_DS_OUTCOME_CARDS = ['4012001037141112', '4532497088771651', '4012001037461114'];

describe('a 3-D Secure enrolment outcome needs a 3-D Secure step', () => {
  for (const number of THREE_DS_OUTCOME_CARDS) {
    it(`a basic credit (CD) to ${number} is not refused with a 3-D Secure code`, async () => {
      const answer = await call('POST', '/v1/payments', cardPayment({ paymentType: 'CD', 'card.number': number }));
      assert.equal(answer.status, 200);
      assert.ok(isApproved(answer.body.result.code), `a payout answered ${answer.body.result.code} ${answer.body.result.description}`);
    });

    it(`a merchant-initiated debit on a card stored from ${number} is not refused with a 3-D Secure code`, async () => {
      const stored = await call('POST', '/v1/registrations', {
        paymentBrand: 'VISA',
        'card.number': number,
        'card.holder': 'Jane Jones',
        'card.expiryMonth': '05',
        'card.expiryYear': '2034',
        'card.cvv': '123',
      });
      assert.equal(stored.status, 200);
      const repeat = await call('POST', `/v1/registrations/${stored.body.id}/payments`, {
        paymentType: 'DB',
        amount: '5.00',
        currency: 'EUR',
        paymentBrand: 'VISA',
      });
      assert.equal(repeat.status, 200);
      assert.equal(repeat.body.standingInstruction?.source, 'MIT');
      assert.ok(isApproved(repeat.body.result.code), `an MIT repeat answered ${repeat.body.result.code} ${repeat.body.result.description}`);
    });
    it(`a debit to ${number} with the merchant's own 3-D Secure results is approved`, async () => {
      const ownResults = { 'threeDSecure.eci': '05', 'threeDSecure.authenticationStatus': 'Y', 'threeDSecure.version': '2.2.0' };
      const answer = await call('POST', '/v1/payments', cardPayment({ 'card.number': number, ...ownResults }));
      assert.equal(answer.status, 200);
      assert.ok(isApproved(answer.body.result.code), `answered ${answer.body.result.code} ${answer.body.result.description}`);
    });

    it(`a debit to ${number} with card data gets the check's outcome`, async () => {
      const answer = await call('POST', '/v1/payments', cardPayment({ 'card.number': number }));
      assert.ok(!isApproved(answer.body.result.code), `answered ${answer.body.result.code}`);
    });
  }
});
