/**
 * Type-level tests (checked by `npm run typecheck`): each `@ts-expect-error`
 * line must fail to compile, so a payout or payment missing a mandatory field
 * never builds. The runtime half proves the contract rejects the same requests
 * before anything is sent, for callers without TypeScript.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  GatewayValidationError,
  type CardPayout,
  type CheckoutRequest,
  type PaymentRequest,
  type Payout,
  type RegistrationPaymentRequest,
} from '../../src/server/index.js';
import { card, cardPayment, clientFor, creditSender, payoutsByProgramme, recipient, useSandbox } from './fixtures.js';

const common = { paymentType: 'CD', amount: '10.00', currency: 'EUR' } as const;
const programme = { TransactionTypeIdentifier: 'C04', DateOfFunds: '261121', AdditionalTrace: '1234567890123456789' } as const;

// Compile-time only: these values are never sent.
export const typeChecks: unknown[] = [
  { ...common, programme: 'basicCredit', paymentBrand: 'VISA', card: card() } satisfies CardPayout,
  // @ts-expect-error a credit to a card needs the card
  { ...common, programme: 'basicCredit', paymentBrand: 'VISA' } satisfies CardPayout,
  // @ts-expect-error an original credit transfer is VISA only
  { ...common, programme: 'originalCreditTransfer', paymentBrand: 'MASTER', card: card(), merchant: { city: 'Berlin' }, recipient, customParameters: creditSender } satisfies CardPayout,
  // @ts-expect-error an original credit transfer needs the recipient
  { ...common, programme: 'originalCreditTransfer', paymentBrand: 'VISA', card: card(), merchant: { city: 'Berlin' }, customParameters: creditSender } satisfies CardPayout,
  // @ts-expect-error an original credit transfer needs merchant.city
  { ...common, programme: 'originalCreditTransfer', paymentBrand: 'VISA', card: card(), recipient, customParameters: creditSender } satisfies CardPayout,
  {
    ...common,
    programme: 'winningsPayout',
    paymentBrand: 'VISA',
    merchant: { city: 'Valletta', mcc: '7995' },
    recipient,
    customer: { givenName: 'Jane', surname: 'Jones', mobile: '+356 7912 3456' },
    customParameters: { ...creditSender, ...programme },
  } satisfies Payout,
  {
    ...common,
    programme: 'winningsPayout',
    paymentBrand: 'VISA',
    // @ts-expect-error a winnings payout is made by a merchant of category 7995
    merchant: { city: 'Valletta', mcc: '5411' },
    recipient,
    customer: { givenName: 'Jane', surname: 'Jones', phone: '+356 2123 4567' },
    customParameters: { ...creditSender, ...programme },
  } satisfies Payout,
  {
    ...common,
    programme: 'winningsPayout',
    paymentBrand: 'VISA',
    merchant: { city: 'Valletta', mcc: '7995' },
    recipient,
    customer: { givenName: 'Jane', surname: 'Jones', phone: '+356 2123 4567' },
    customParameters: { ...creditSender, TransactionTypeIdentifier: 'C04', AdditionalTrace: '1234567890123456789' },
    // @ts-expect-error a winnings payout needs DateOfFunds
  } satisfies Payout,
  {
    ...common,
    programme: 'winningsPayout',
    paymentBrand: 'VISA',
    merchant: { city: 'Valletta', mcc: '7995' },
    recipient,
    // @ts-expect-error a winnings payout needs the customer's phone or mobile
    customer: { givenName: 'Jane', surname: 'Jones' },
    customParameters: { ...creditSender, ...programme },
  } satisfies Payout,
  {
    ...common,
    programme: 'sendPayout',
    paymentBrand: 'MASTER',
    merchant: { city: 'Berlin' },
    recipient,
    customParameters: { ...creditSender, TransactionTypeIdentifier: 'C07', DateOfFunds: '261121' },
    // @ts-expect-error a send payout needs AdditionalTrace
  } satisfies Payout,
  {
    ...common,
    programme: 'sendPayout',
    paymentBrand: 'MASTER',
    merchant: { city: 'Berlin' },
    recipient,
    customParameters: { ...creditSender, ...programme, TransactionTypeIdentifier: 'F07' },
    // @ts-expect-error payouts take C codes, not funding F codes
  } satisfies Payout,
  {
    ...common,
    programme: 'sendPayout',
    paymentBrand: 'MASTER',
    merchant: { city: 'Berlin' },
    recipient,
    customParameters: { ...programme, CreditSenderAddress: 'a|b|c|d', CreditSenderCity: 'x', CreditSenderState: 'BE', CreditSenderCountry: 'DEU' },
    // @ts-expect-error the credit sender's name is mandatory
  } satisfies Payout,
  // @ts-expect-error a server-to-server payment needs the customer's e-mail and IP
  { ...cardPayment(), customer: { email: 'a@example.com' } } satisfies PaymentRequest,
  // @ts-expect-error a server-to-server payment needs the card's CVV
  { ...cardPayment(), card: { number: '4200000000000000', holder: 'J', expiryMonth: '01', expiryYear: '2030' } } satisfies PaymentRequest,
  // @ts-expect-error the gateway's 3DS step (shopperResultUrl) needs billing data
  { ...cardPayment(), shopperResultUrl: 'https://shop.example/return' } satisfies PaymentRequest,
  // @ts-expect-error payments are DB, PA or CD; a capture goes through payments.capture
  { ...cardPayment(), paymentType: 'CP' } satisfies PaymentRequest,
  // @ts-expect-error account funding needs F codes
  { ...cardPayment(), programme: 'accountFunding', merchant: { city: 'Berlin' }, recipient, customParameters: { ...creditSender, TransactionTypeIdentifier: 'C07' } } satisfies PaymentRequest,
  { amount: '10.00', currency: 'EUR', paymentType: 'DB' } satisfies CheckoutRequest,
  // @ts-expect-error a funding checkout needs the recipient
  { amount: '10.00', currency: 'EUR', paymentType: 'DB', programme: 'accountFunding', merchant: { city: 'Berlin' }, customParameters: { ...creditSender, TransactionTypeIdentifier: 'F07' } } satisfies CheckoutRequest,
  // @ts-expect-error amounts are N10.N2 strings, never floats
  { amount: 10, currency: 'EUR', paymentType: 'DB' } satisfies CheckoutRequest,
  { ...common, programme: 'basicCredit' } satisfies RegistrationPaymentRequest,
];

describe('the contract enforces at run time what the types enforce at compile time', () => {
  const context = useSandbox();

  test('each payout missing a mandatory field is refused before sending, naming the field', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const payouts = payoutsByProgramme();
    const cases: [CardPayout, string][] = [
      [{ ...payouts.originalCreditTransfer, merchant: undefined } as never, 'merchant.city'],
      [{ ...payouts.originalCreditTransfer, recipient: { ...recipient, accountNumber: undefined } } as never, 'recipient.accountNumber'],
      [{ ...payouts.winningsPayout, customParameters: { ...payouts.winningsPayout.customParameters, DateOfFunds: undefined } } as never, 'customParameters[DateOfFunds]'],
      [{ ...payouts.winningsPayout, customer: { givenName: 'Jane', surname: 'Jones' } } as never, 'customer.mobile'],
      [{ ...payouts.sendPayout, customParameters: { ...creditSender, TransactionTypeIdentifier: 'C07', DateOfFunds: '261121' } } as never, 'customParameters[AdditionalTrace]'],
      [{ ...payouts.sendPayout, recipient: { ...recipient, country: 'USA' } } as never, 'recipient.state'],
      [{ ...payouts.originalCreditTransfer, recipient: { ...recipient, country: 'CAN' } } as never, 'recipient.state'],
    ];
    for (const [payout, field] of cases) {
      const error = await client.payouts.create(payout).then(() => undefined, (caught: unknown) => caught);
      assert.ok(error instanceof GatewayValidationError, `${field}: ${String(error)}`);
      assert.ok(error.parameterErrors.some((problem) => problem.name === field), `${field} in ${JSON.stringify(error.parameterErrors)}`);
    }
    assert.equal(recorder.calls.length, 0, 'nothing reached the gateway');
  });

  test('a programme that does not match its fields is refused: the caller said winnings, the fields say otherwise', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const winnings = payoutsByProgramme().winningsPayout;
    const error = await client.payouts.create({ ...winnings, merchant: { city: 'Valletta' } } as never).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.ok(error.parameterErrors.some((problem) => problem.name === 'programme' && /sendPayout|originalCreditTransfer/.test(problem.message)), JSON.stringify(error.parameterErrors));
    assert.equal(recorder.calls.length, 0);
  });

  test('typed requests compile to the API reference\'s names', () => {
    assert.ok(typeChecks.length > 10);
  });
});
