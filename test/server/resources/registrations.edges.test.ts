/**
 * The edges of cards on file, each pinned (the mutation run of
 * `registrations` showed them unguarded): which answer is a registration's or a
 * deletion's own, how a saved card names its card and entity, and what
 * `savedCardOf`, `repeatOf` and the first-payment helpers accept and write.
 * Against the gateway stand-in, whose answers a test writes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  GatewayNetworkError,
  GatewayValidationError,
  instalments,
  repeatOf,
  saveForLater,
  savedCardOf,
  subscription,
  type Payment,
} from '../../../src/server/index.js';
import { answer, ENTITY, standInClient } from '../../support/gateway-stand-in.js';

const REGISTRATION = '8ac7a4a17000000000000000000000bb';
const OTHER_ENTITY = '8ac7a4a17000000000000000000000cc';
const APPROVED = '000.100.110';
const card = { number: '4200000000000000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: '123' };
const ok = (fields: Record<string, unknown>) => () => ({ status: 200, body: answer(APPROVED, fields) });
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    (value) => assert.fail(`answered ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );

describe("registrations.create: the answer is this registration's", () => {
  test('another order, entity or card is not this card: a lost answer, never a saved card', async () => {
    const order = { merchantTransactionId: 'order-7' };
    for (const [why, fields] of [
      ['another order', { merchantTransactionId: 'order-8' }],
      ['another entity', { ndc: `${OTHER_ENTITY}_${'0'.repeat(32)}` }],
      ['another card', { card: { bin: '420000', last4Digits: '0042' } }],
    ] as const) {
      const { client } = standInClient(ok({ id: REGISTRATION, ...order, ...fields }));
      const error = await failureOf(client.registrations.create({ paymentBrand: 'VISA', card, ...order }));
      assert.ok(error instanceof GatewayNetworkError, `${why}: ${String(error)}`);
      assert.match(error.message, /the registration/, why);
    }
    const { client } = standInClient(ok({ id: REGISTRATION, ...order, card: { bin: '420000', last4Digits: '0000' } }));
    assert.equal((await client.registrations.create({ paymentBrand: 'VISA', card, ...order })).id, REGISTRATION);
  });
});

describe("registrations.delete: the answer is this deletion's", () => {
  const deletion = async (fields: Record<string, unknown>) => {
    const { client } = standInClient(ok({ id: REGISTRATION, ...fields }));
    return client.registrations.delete(REGISTRATION).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  };

  test("an amount, or another card, makes it another request's; a null amount, the same card or none is this one", async () => {
    for (const fields of [{ amount: '1.00' }, { registrationId: 'f'.repeat(32) }]) {
      const outcome = await deletion(fields);
      assert.ok('error' in outcome && outcome.error instanceof GatewayNetworkError, JSON.stringify(fields));
      assert.match((outcome.error as Error).message, new RegExp(`deletion of registration ${REGISTRATION} is another request's`));
    }
    for (const fields of [{ amount: null }, { registrationId: REGISTRATION }, { registrationId: 7 }, {}]) {
      const outcome = await deletion(fields);
      assert.ok('value' in outcome, `${JSON.stringify(fields)}: ${String((outcome as { error: unknown }).error)}`);
    }
  });

  test("another entity's answer is not this deletion's", async () => {
    const outcome = await deletion({ ndc: `${OTHER_ENTITY}_${'0'.repeat(32)}` });
    assert.ok('error' in outcome && outcome.error instanceof GatewayNetworkError);
  });

  test("the client's test mode goes with the DELETE, none without one", async () => {
    for (const testMode of ['EXTERNAL', undefined] as const) {
      const { client, calls } = standInClient(ok({ id: REGISTRATION }), testMode ? { testMode } : {});
      await client.registrations.delete(REGISTRATION);
      assert.equal(calls[0]!.url.searchParams.get('testMode'), testMode ?? null);
    }
  });
});

describe('a saved card in place of its id', () => {
  test("its id is checked as an id (named as the saved card's); without a brand it goes to the client's entity", async () => {
    const { client, calls } = standInClient(ok({ id: REGISTRATION }));
    const error = await failureOf(client.registrations.delete({ registrationId: '../payments/x' }));
    assert.ok(error instanceof GatewayValidationError);
    assert.equal(error.parameterErrors[0]!.name, 'savedCard.registrationId');
    await client.registrations.delete({ registrationId: REGISTRATION });
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.path, `/v1/registrations/${REGISTRATION}`);
    assert.equal(calls[0]!.url.searchParams.get('entityId'), ENTITY);
  });

  test("a brand the platform does not name is refused, saying so; the call's own brands win over the card's", async () => {
    const { client, calls } = standInClient(ok({ id: REGISTRATION }), { entities: { MADA: OTHER_ENTITY } });
    const error = await failureOf(client.registrations.delete({ registrationId: REGISTRATION, paymentBrand: 'PAYPAL' as 'VISA' }));
    assert.ok(error instanceof GatewayValidationError);
    assert.match(error.message, /savedCard\.paymentBrand must be a brand in the platform's spelling/);
    await client.registrations.delete({ registrationId: REGISTRATION, paymentBrand: 'MADA' }, { brands: ['VISA'] }).catch(() => undefined);
    await client.registrations.delete({ registrationId: REGISTRATION, paymentBrand: 'MADA' }).catch(() => undefined);
    assert.deepEqual(
      calls.map((call) => call.url.searchParams.get('entityId')),
      [ENTITY, OTHER_ENTITY],
    );
  });

  test('options that are no object are refused by the request layer, as for a bare id', async () => {
    const { client, calls } = standInClient(ok({ id: REGISTRATION }));
    const error = await failureOf(client.registrations.delete({ registrationId: REGISTRATION, paymentBrand: 'VISA' }, 'fast' as never));
    assert.ok(error instanceof GatewayValidationError);
    assert.equal(error.parameterErrors[0]!.name, 'options');
    assert.equal(calls.length, 0);
  });

  test("a payment on it goes to the saved card's path", async () => {
    const { client, calls } = standInClient();
    await client.registrations
      .createPayment({ registrationId: REGISTRATION, paymentBrand: 'VISA' }, { paymentType: 'DB', amount: '1.00', currency: 'EUR' })
      .catch(() => undefined);
    assert.equal(calls[0]!.path, `/v1/registrations/${REGISTRATION}/payments`);
  });
});

describe('the first payment and its repeats', () => {
  test('the first payment of each flow is customer-initiated and initial, as written', () => {
    assert.deepEqual(saveForLater(), { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' });
    assert.deepEqual(instalments({ numberOfInstallments: 3, expiry: '2027-01-31', frequency: '0030' }), {
      type: 'INSTALMENT',
      mode: 'INITIAL',
      source: 'CIT',
      numberOfInstallments: 3,
      expiry: '2027-01-31',
      frequency: '0030',
    });
    assert.deepEqual(subscription({ expiry: '2027-01-31', frequency: '0030' }), {
      type: 'RECURRING',
      mode: 'INITIAL',
      source: 'CIT',
      recurringType: 'SUBSCRIPTION',
      expiry: '2027-01-31',
      frequency: '0030',
    });
  });

  const first = {
    id: 'a'.repeat(32),
    registrationId: REGISTRATION,
    paymentBrand: 'VISA',
    result: { code: APPROVED, description: 'ok' },
    resultDetails: { CardholderInitiatedTransactionID: 'SCHEME-ID-1' },
    standingInstruction: { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' },
  } as unknown as Payment;
  const without = (change: Record<string, unknown>) => ({ ...first, ...change }) as unknown as Payment;

  test('savedCardOf needs every part: an approval, the card, the scheme id, a known type, mode INITIAL', () => {
    assert.deepEqual(savedCardOf(first), {
      registrationId: REGISTRATION,
      type: 'UNSCHEDULED',
      initialTransactionId: 'SCHEME-ID-1',
      paymentBrand: 'VISA',
    });
    for (const change of [
      { result: { code: '800.100.152', description: 'declined' } },
      { registrationId: undefined },
      { resultDetails: undefined },
      { resultDetails: {} },
      { standingInstruction: undefined },
      { standingInstruction: { type: 'OTHER', mode: 'INITIAL', source: 'CIT' } },
      { standingInstruction: { type: 'UNSCHEDULED', mode: 'REPEATED', source: 'CIT' } },
    ]) {
      assert.throws(
        () => savedCardOf(without(change)),
        (error) => error instanceof GatewayValidationError && /did not save a card/.test(error.message),
        JSON.stringify(change),
      );
    }
    assert.equal(
      savedCardOf(without({ paymentBrand: 'PAYPAL' })).paymentBrand,
      undefined,
      'a brand the platform does not name is not kept',
    );
  });

  test('savedCardOf and repeatOf refuse what is no payment or saved card, naming the argument', () => {
    for (const value of [undefined, 'payment', without({ result: undefined })]) {
      assert.throws(
        () => savedCardOf(value as never),
        (error) =>
          error instanceof GatewayValidationError &&
          error.parameterErrors[0]?.name === 'savedCardOf(payment)' &&
          /payment answer/.test(error.message),
      );
    }
    for (const value of [undefined, { type: 7, initialTransactionId: 'X' }, { type: 'RECURRING' }, { initialTransactionId: 'X' }]) {
      assert.throws(
        () => repeatOf(value as never),
        (error) =>
          error instanceof GatewayValidationError &&
          error.parameterErrors[0]?.name === 'repeatOf(saved)' &&
          /savedCardOf/.test(error.message),
        JSON.stringify(value),
      );
    }
    assert.deepEqual(repeatOf(savedCardOf(first)), {
      type: 'UNSCHEDULED',
      mode: 'REPEATED',
      source: 'MIT',
      initialTransactionId: 'SCHEME-ID-1',
    });
  });
});
