/** Credits and payouts of every programme, and account funding payments, against the real sandbox. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayValidationError, isApproved, type CardPayout } from '../../../src/server/index.js';
import { billing, cardPayment, clientFor, creditSender, payoutsByProgramme, recipient, useSandbox } from '../fixtures.js';

const context = useSandbox();

describe('payouts.create', () => {
  for (const [programme, payout] of Object.entries(payoutsByProgramme())) {
    test(`${programme} is approved and carries its programme's fields`, async () => {
      const { client, recorder } = clientFor(context.sandbox);
      const payment = await client.payouts.create(payout);
      assert.ok(isApproved(payment.result.code), payment.result.code);
      assert.equal(payment.paymentType, 'CD');
      const body = new URLSearchParams(recorder.posts()[0]!.body);
      assert.equal(body.get('programme'), null);
      if (programme === 'winningsPayout') {
        assert.equal(body.get('merchant.mcc'), '7995');
        assert.equal(body.get('customer.phone'), '+356 2123 4567');
        assert.equal(body.get('customParameters[DateOfFunds]'), '261121');
      }
      if (programme !== 'basicCredit') assert.equal(body.get('recipient.surname'), recipient.surname);
    });
  }

  test('to the US and Canada, recipient.state and recipient.country are required and then accepted', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const transfer = payoutsByProgramme().originalCreditTransfer as Extract<CardPayout, { programme: 'originalCreditTransfer' }>;
    const missing = await client.payouts
      .create({ ...transfer, recipient: { ...recipient, country: 'USA' } })
      .catch((caught: unknown) => caught);
    assert.ok(missing instanceof GatewayValidationError);
    assert.deepEqual(
      missing.parameterErrors.map((problem) => problem.name),
      ['recipient.state'],
    );
    assert.equal(recorder.calls.length, 0);
    const payment = await client.payouts.create({ ...transfer, recipient: { ...recipient, country: 'CAN', state: 'ON' } });
    assert.ok(isApproved(payment.result.code));
  });

  test('a payout programme with a funding F code is refused before sending', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const send = payoutsByProgramme().sendPayout as Extract<CardPayout, { programme: 'sendPayout' }>;
    const error = await client.payouts
      .create({ ...send, customParameters: { ...send.customParameters, TransactionTypeIdentifier: 'F07' } } as never)
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.ok(error.parameterErrors.some((problem) => problem.name === 'customParameters[TransactionTypeIdentifier]'));
    assert.equal(recorder.calls.length, 0);
  });
});

describe('account funding', () => {
  test('a funding debit with recipient, credit sender and an F code is approved', async () => {
    const { client } = clientFor(context.sandbox);
    const payment = await client.payments.create({
      ...cardPayment(),
      programme: 'accountFunding',
      merchant: { city: 'Berlin' },
      recipient,
      customParameters: { ...creditSender, TransactionTypeIdentifier: 'F07' },
      threeDSecure: { challengeIndicator: '04' },
      billing,
    });
    assert.ok(isApproved(payment.result.code), payment.result.code);
    assert.equal(payment.recipient?.givenName, recipient.givenName);
  });

  test("send funding to the US needs the recipient's street, city and postcode too", async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const error = await client.payments
      .create({
        ...cardPayment(),
        programme: 'accountFunding',
        merchant: { city: 'Berlin' },
        recipient: { ...recipient, country: 'USA', state: 'NY' },
        customParameters: { ...creditSender, TransactionTypeIdentifier: 'F52' },
      })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.deepEqual(error.parameterErrors.map((problem) => problem.name).sort(), [
      'recipient.city',
      'recipient.postcode',
      'recipient.street',
    ]);
    assert.equal(recorder.calls.length, 0);
  });
});

describe('payouts against a registration', () => {
  test('a send payout to a registered card needs no card data', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const initial = await client.payments.create(
      cardPayment({ paymentBrand: 'MASTER', card: { ...cardPayment().card, number: '5454545454545454' }, createRegistration: true }),
    );
    const { card: _card, ...send } = payoutsByProgramme().sendPayout as Extract<CardPayout, { programme: 'sendPayout' }>;
    const payout = await client.registrations.createPayment(initial.registrationId!, send);
    assert.ok(isApproved(payout.result.code), payout.result.code);
    assert.equal(new URLSearchParams(recorder.posts()[1]!.body).get('card.number'), null);
  });
});
