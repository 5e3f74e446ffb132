import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { cardPayment, CARDS, useSandbox } from '../support.js';

const { call } = useSandbox();

const oneClick = {
  createRegistration: 'true',
  'standingInstruction.type': 'UNSCHEDULED',
  'standingInstruction.mode': 'INITIAL',
  'standingInstruction.source': 'CIT',
};

async function register(number: string = CARDS.approved): Promise<{ registrationId: string; initialTransactionId: string }> {
  const { body } = await call('POST', '/v1/payments', cardPayment({ 'card.number': number, ...oneClick }));
  assert.match(body.registrationId, /^[a-f0-9]{32}$/);
  return { registrationId: body.registrationId, initialTransactionId: body.resultDetails.CardholderInitiatedTransactionID };
}

describe('registrations', () => {
  it('createRegistration=true answers registrationId at the top level; a declined payment registers nothing', async () => {
    const { registrationId } = await register();
    assert.ok(registrationId);
    const declined = await call('POST', '/v1/payments', cardPayment({ 'card.number': CARDS.declined, ...oneClick }));
    assert.equal(declined.body.registrationId, undefined);
  });

  it('a basic credit on a registration answers without card or paymentBrand, as a repeated merchant-initiated payment', async () => {
    const { registrationId, initialTransactionId } = await register();
    const answer = await call('POST', `/v1/registrations/${registrationId}/payments`, {
      paymentType: 'CD',
      amount: '15.00',
      currency: 'EUR',
      merchantTransactionId: 'payout-1',
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(answer.body.paymentType, 'CD');
    assert.equal(answer.body.card, undefined);
    assert.equal(answer.body.paymentBrand, undefined);
    assert.deepEqual(answer.body.standingInstruction, { source: 'MIT', type: 'UNSCHEDULED', mode: 'REPEATED', initialTransactionId });
  });

  it('answers a debit on a registration without the card, and the brand only when sent; its read-back has the stored card summary', async () => {
    const { registrationId } = await register();
    const pay = (brand: Record<string, string>) =>
      call('POST', `/v1/registrations/${registrationId}/payments`, { paymentType: 'DB', amount: '5.00', currency: 'EUR', ...brand });
    const named = await pay({ paymentBrand: 'VISA' });
    assert.equal(named.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.deepEqual([named.body.paymentBrand, 'card' in named.body], ['VISA', false]);
    const unnamed = await pay({});
    assert.equal(unnamed.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.deepEqual(['paymentBrand' in unnamed.body, 'card' in unnamed.body], [false, false]);
    const readBack = await call('GET', `/v1/payments/${unnamed.body.id}`);
    assert.deepEqual([readBack.body.paymentBrand, readBack.body.card.last4Digits], ['VISA', '0000']);
  });

  it('a registered 3DS card pays without a 3DS step (merchant-initiated)', async () => {
    const { body } = await call(
      'POST',
      '/v1/payments',
      cardPayment({
        'card.number': CARDS.frictionlessNoMethod,
        ...oneClick,
        'threeDSecure.eci': '05',
        'threeDSecure.authenticationStatus': 'Y',
      }),
    );
    const answer = await call('POST', `/v1/registrations/${body.registrationId}/payments`, {
      paymentType: 'DB',
      amount: '5.00',
      currency: 'EUR',
      paymentBrand: 'VISA',
    });
    assert.equal(answer.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(answer.body.redirect, undefined);
  });

  it('an unknown registration answers 100.150.200, a malformed id 100.150.101', async () => {
    const unknown = await call('POST', '/v1/registrations/ffffffffffffffffffffffffffffffff/payments', {
      paymentType: 'CD',
      amount: '1.00',
      currency: 'EUR',
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.result.code, RESULT_CODES.registrationNotFound);
    const malformed = await call('POST', '/v1/registrations/not-an-id/payments', { paymentType: 'CD', amount: '1.00', currency: 'EUR' });
    assert.equal(malformed.body.result.code, '100.150.101');
  });

  it('validates the registration payment body', async () => {
    const { registrationId } = await register();
    const answer = await call('POST', `/v1/registrations/${registrationId}/payments`, {
      paymentType: 'CP',
      amount: '1.5',
      currency: 'EUR',
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body.result.parameterErrors.map((error: { name: string }) => error.name).sort(), ['amount', 'paymentType']);
  });
});
