import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isApproved, RESULT_CODES } from '../../../src/contract/result-codes.js';
import { cardPayment, CARDS, useSandbox } from '../support.js';

const { call } = useSandbox();

const recipient = {
  'merchant.city': 'Vienna',
  'recipient.givenName': 'Ana',
  'recipient.surname': 'Silva',
  'recipient.accountNumberType': 'OTHER',
  'recipient.accountNumber': '1234567890',
};
const creditSender = {
  'customParameters[CreditSenderName]': 'Jane Jones',
  'customParameters[CreditSenderAddress]': 'Main St 1|Vienna|AUT|1010',
  'customParameters[CreditSenderCity]': 'Vienna',
  'customParameters[CreditSenderState]': 'W',
  'customParameters[CreditSenderCountry]': 'AUT',
};
const programme = (code: string) => ({
  'customParameters[TransactionTypeIdentifier]': code,
  'customParameters[DateOfFunds]': '261121',
  'customParameters[AdditionalTrace]': '1234567890123456789',
});
const creditCard = (brand: 'VISA' | 'MASTER') => ({
  paymentType: 'CD',
  amount: '25.00',
  currency: 'EUR',
  paymentBrand: brand,
  'card.number': brand === 'VISA' ? CARDS.approved : CARDS.approvedMaster,
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
});

/** Each request variant: a complete valid body and the fields it must carry beyond the basic ones. */
const VARIANTS: { name: string; body: Record<string, string>; mandatory: string[] }[] = [
  {
    name: 'basic credit (CD)',
    body: creditCard('VISA'),
    mandatory: ['amount', 'currency', 'paymentBrand', 'card.number', 'card.expiryMonth', 'card.expiryYear'],
  },
  {
    name: 'account funding (DB with F code)',
    body: cardPayment({
      ...recipient,
      ...creditSender,
      'customParameters[TransactionTypeIdentifier]': 'F52',
      'threeDSecure.challengeIndicator': '04',
    }),
    mandatory: [
      'merchant.city',
      ...Object.keys(recipient).slice(1),
      ...Object.keys(creditSender),
      'customParameters[TransactionTypeIdentifier]',
      'customer.email',
      'customer.ip',
    ],
  },
  {
    name: 'original credit transfer (CD, VISA)',
    body: { ...creditCard('VISA'), ...recipient, ...creditSender },
    mandatory: [
      'merchant.city',
      'recipient.givenName',
      'recipient.surname',
      'recipient.accountNumber',
      'customParameters[CreditSenderName]',
      'customParameters[CreditSenderCountry]',
    ],
  },
  {
    name: 'send payout (CD, MASTER)',
    body: {
      ...creditCard('MASTER'),
      ...recipient,
      ...creditSender,
      ...programme('C07'),
      'recipient.birthDate': '1990-01-31',
      'recipient.phone': '+43 1 234',
    },
    mandatory: [
      'customParameters[TransactionTypeIdentifier]',
      'customParameters[DateOfFunds]',
      'customParameters[AdditionalTrace]',
      'merchant.city',
    ],
  },
  {
    name: 'winnings payout (merchant.mcc 7995)',
    body: {
      ...creditCard('VISA'),
      'merchant.mcc': '7995',
      ...recipient,
      ...creditSender,
      ...programme('C04'),
      'customer.givenName': 'Jane',
      'customer.surname': 'Jones',
      'customer.phone': '+43 1 234',
    },
    mandatory: [
      'customer.givenName',
      'customer.surname',
      'customParameters[DateOfFunds]',
      'customParameters[AdditionalTrace]',
      'customParameters[TransactionTypeIdentifier]',
    ],
  },
];

describe('request variants and their mandatory fields (POST /v1/payments)', () => {
  for (const variant of VARIANTS) {
    it(`${variant.name}: a complete body is approved and echoed`, async () => {
      const answer = await call('POST', '/v1/payments', variant.body);
      assert.equal(answer.status, 200, JSON.stringify(answer.body.result));
      assert.ok(isApproved(answer.body.result.code));
      for (const [name, value] of Object.entries(variant.body)) {
        if (name.startsWith('recipient.')) assert.equal(answer.body.recipient[name.slice('recipient.'.length)], value, name);
        const custom = /^customParameters\[(.+)\]$/.exec(name);
        if (custom) assert.equal(answer.body.customParameters[custom[1]!], value, name);
      }
      if (variant.body['threeDSecure.challengeIndicator'])
        assert.equal(answer.body.resultDetails.usedChallengeIndicator, variant.body['threeDSecure.challengeIndicator']);
    });

    for (const field of variant.mandatory) {
      it(`${variant.name}: without ${field} answers 400 naming it`, async () => {
        const body = { ...variant.body };
        delete body[field];
        const answer = await call('POST', '/v1/payments', body);
        assert.equal(answer.status, 400);
        assert.equal(answer.body.result.code, RESULT_CODES.invalidParameter);
        assert.ok(
          answer.body.result.parameterErrors.some((error: { name: string }) => error.name === field),
          JSON.stringify(answer.body.result.parameterErrors),
        );
      });
    }
  }

  it('recipients in the US or Canada need state and country; send funding there also street, city and postcode', async () => {
    const funding = cardPayment({
      ...recipient,
      ...creditSender,
      'customParameters[TransactionTypeIdentifier]': 'F07',
      'recipient.country': 'USA',
    });
    const answer = await call('POST', '/v1/payments', funding);
    assert.equal(answer.status, 400);
    const names = answer.body.result.parameterErrors.map((error: { name: string }) => error.name).sort();
    assert.deepEqual(names, ['recipient.city', 'recipient.postcode', 'recipient.state', 'recipient.street']);
  });

  it('a payout code in a funding request (and a bad format) is refused', async () => {
    const answer = await call(
      'POST',
      '/v1/payments',
      cardPayment({
        ...recipient,
        ...creditSender,
        'customParameters[TransactionTypeIdentifier]': 'C07',
        'customParameters[CreditSenderName]': 'x'.repeat(31),
      }),
    );
    assert.equal(answer.status, 400);
    const names = answer.body.result.parameterErrors.map((error: { name: string }) => error.name).sort();
    assert.deepEqual(names, ['customParameters[CreditSenderName]', 'customParameters[TransactionTypeIdentifier]']);
  });

  it('standing instructions are echoed; INSTALMENT is answered INSTALLMENT', async () => {
    const answer = await call(
      'POST',
      '/v1/payments',
      cardPayment({
        'standingInstruction.type': 'INSTALMENT',
        'standingInstruction.mode': 'INITIAL',
        'standingInstruction.source': 'CIT',
        'standingInstruction.numberOfInstallments': '12',
        'standingInstruction.expiry': '2027-12-31',
        'standingInstruction.frequency': '0030',
      }),
    );
    assert.deepEqual(answer.body.standingInstruction, {
      type: 'INSTALLMENT',
      mode: 'INITIAL',
      source: 'CIT',
      numberOfInstallments: '12',
      expiry: '2027-12-31',
      frequency: '0030',
    });
    assert.ok(answer.body.resultDetails.CardholderInitiatedTransactionID);
  });

  it('account funding through a checkout validates the funding fields at creation', async () => {
    const body = {
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      integrity: 'true',
      ...recipient,
      ...creditSender,
      'customParameters[TransactionTypeIdentifier]': 'F52',
    };
    assert.equal((await call('POST', '/v1/checkouts', body)).body.result.code, RESULT_CODES.checkoutCreated);
    const incomplete: Record<string, string> = { ...body };
    delete incomplete['recipient.accountNumber'];
    const answer = await call('POST', '/v1/checkouts', incomplete);
    assert.equal(answer.status, 400);
    assert.deepEqual(
      answer.body.result.parameterErrors.map((error: { name: string }) => error.name),
      ['recipient.accountNumber'],
    );
  });
});
