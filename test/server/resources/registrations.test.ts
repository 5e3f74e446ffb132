/**
 * The server helper's cards on file against the sandbox over loopback:
 * `registrations.create` / `delete`, and the typed flows (save for later,
 * instalments, subscription) whose merchant-initiated repeats do not compile
 * without the initial payment's id (`@ts-expect-error` lines, checked by
 * `npm run typecheck`).
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, test } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import {
  GatewayDeclinedError,
  GatewayNetworkError,
  GatewayNotFoundError,
  GatewayValidationError,
  instalments,
  repeatOf,
  saveForLater,
  savedCardOf,
  subscription,
  type RegistrationPaymentRequest,
  type RegistrationRequest,
} from '../../../src/server/index.js';
import { answer, standInClient } from '../../support/gateway-stand-in.js';
import { card, CARDS, cardPayment, clientFor, useSandbox } from '../fixtures.js';

const context = useSandbox();
const charge = { paymentType: 'DB', amount: '9.99', currency: 'EUR' } as const;

// Compile-time only: these values are never sent.
export const typeChecks: unknown[] = [
  { ...charge, standingInstruction: { type: 'RECURRING', mode: 'REPEATED', source: 'MIT', initialTransactionId: 'X' } } satisfies RegistrationPaymentRequest,
  // @ts-expect-error a merchant-initiated repeat needs the initial payment's CardholderInitiatedTransactionID
  { ...charge, standingInstruction: { type: 'RECURRING', mode: 'REPEATED', source: 'MIT' } } satisfies RegistrationPaymentRequest,
  // @ts-expect-error a repeat is merchant-initiated: MIT, never CIT
  { ...charge, standingInstruction: { type: 'RECURRING', mode: 'REPEATED', source: 'CIT', initialTransactionId: 'X' } } satisfies RegistrationPaymentRequest,
  // @ts-expect-error an initial subscription needs its plan (expiry, frequency)
  { ...charge, standingInstruction: { type: 'RECURRING', mode: 'INITIAL', source: 'CIT', recurringType: 'SUBSCRIPTION' } } satisfies RegistrationPaymentRequest,
  // @ts-expect-error repeatOf needs the saved id, not only the type
  () => repeatOf({ type: 'RECURRING' }),
  { paymentBrand: 'VISA', card: { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' } } satisfies RegistrationRequest,
  // @ts-expect-error storing a card needs its brand
  { card: { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' } } satisfies RegistrationRequest,
  // @ts-expect-error storing a card moves no money
  { paymentBrand: 'VISA', card: card(), amount: '1.00' } satisfies RegistrationRequest,
];

test("a deletion answered with another request's payment is not taken for the deletion", async () => {
  const stranger = {
    id: '8ac7a4a17000000000000000000000ee',
    paymentType: 'DB',
    amount: '92.00',
    currency: 'EUR',
    registrationId: '8ac7a4a17000000000000000000000ff',
    result: { code: RESULT_CODES.approvedIntegratorTest, description: 'ok' },
  };
  const { client } = clientFor(context.sandbox, {
    fetch: async () => new Response(JSON.stringify(stranger), { status: 200, headers: { 'content-type': 'application/json' } }),
  });
  const error = await client.registrations.delete('8ac7a4a17000000000000000000000aa').catch((caught: unknown) => caught);
  assert.ok(error instanceof GatewayNetworkError, String(error));
  assert.match(error.message, /is another request's/);
});

describe('registrations.create and registrations.delete', () => {
  test('stores a card, deletes it once; a second delete and a payment on it are GatewayNotFoundError', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const registration = await client.registrations.create({ paymentBrand: 'VISA', card: card() });
    assert.match(registration.id, /^[0-9a-f]{32}$/);
    assert.equal(registration.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(registration.card?.last4Digits, '0000');
    const sent = new URLSearchParams(recorder.posts()[0]!.body);
    assert.equal(sent.get('card.number'), CARDS.approved);
    assert.equal(sent.get('paymentType'), null);

    const deleted = await client.registrations.delete(registration.id);
    assert.equal(deleted.result.code, RESULT_CODES.approvedIntegratorTest);
    const deleteCall = recorder.calls.at(-1)!;
    assert.equal(deleteCall.method, 'DELETE');
    assert.equal(deleteCall.url.searchParams.get('entityId'), context.sandbox.entities[0]);

    const again = await client.registrations.delete(registration.id).catch((caught: unknown) => caught);
    assert.ok(again instanceof GatewayNotFoundError, String(again));
    assert.equal(again.resultCode, RESULT_CODES.registrationDeregistered);
    const paid = await client.registrations.createPayment(registration.id, { ...charge, paymentBrand: 'VISA' }).catch((caught: unknown) => caught);
    assert.ok(paid instanceof GatewayNotFoundError, String(paid));
    assert.equal(paid.resultCode, RESULT_CODES.registrationNotFound);
  });

  test('bad input is refused before sending, the card number masked; a bad id never reaches a path', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const error = await client.registrations.create({ paymentBrand: 'MASTER', card: card('4200000000000001') }).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.ok(error.parameterErrors.some((problem) => problem.name === 'card.number'));
    assert.ok(!inspect(error).includes('4200000000000001') && !JSON.stringify(error).includes('4200000000000001'));
    const badId = await client.registrations.delete('../payments/x').catch((caught: unknown) => caught);
    assert.ok(badId instanceof GatewayValidationError);
    assert.equal(recorder.calls.length, 0);
  });

  test('the DELETE is sent once, never retried after a network failure', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const registration = await client.registrations.create({ paymentBrand: 'VISA', card: card() });
    recorder.failNext(1);
    await assert.rejects(client.registrations.delete(registration.id));
    assert.equal(recorder.calls.filter((sent) => sent.method === 'DELETE').length, 1);
    assert.equal((await client.registrations.delete(registration.id)).id, registration.id, 'calling again is safe');
  });
});

describe('typed flows: save for later, instalments, subscription', () => {
  const flows = [
    ['save for later', saveForLater()],
    ['instalments', instalments({ numberOfInstallments: 3, expiry: '2027-06-30', frequency: '0030' })],
    ['subscription', subscription({ expiry: '2030-12-31', frequency: '0030' })],
  ] as const;

  for (const [name, standingInstruction] of flows) {
    test(`${name}: the first payment saves the card, later merchant-initiated charges name it`, async () => {
      const { client, recorder } = clientFor(context.sandbox);
      const first = await client.payments.create(cardPayment({ createRegistration: true, standingInstruction }));
      const saved = savedCardOf(first);
      assert.equal(saved.type, standingInstruction.type);
      for (const amount of ['9.99', '10.01']) {
        const later = await client.registrations.createPayment(saved.registrationId, { ...charge, amount, standingInstruction: repeatOf(saved) });
        assert.equal(later.result.code, RESULT_CODES.approvedIntegratorTest);
        assert.equal(later.standingInstruction?.initialTransactionId, saved.initialTransactionId);
        assert.equal(later.standingInstruction?.source, 'MIT');
      }
      const sent = new URLSearchParams(recorder.posts().at(-1)!.body);
      assert.equal(sent.get('standingInstruction.mode'), 'REPEATED');
      assert.equal(sent.get('standingInstruction.initialTransactionId'), saved.initialTransactionId);
    });
  }

  test('a scheme id that reads like a card number is quoted, answered and echoed intact', async () => {
    // This seed's first initial payment gets F361828620308F3: 12 digits that pass the card check, as 1 in 10 of Visa's
    // 15-digit ids do. Neither the client nor the gateway may mask it: a repeat quoting a masked id is refused.
    const seeded = await startSandbox({ port: 0, quiet: true, idSeed: 'cit-26' });
    try {
      const { client, recorder } = clientFor(seeded);
      const saved = savedCardOf(await client.payments.create(cardPayment({ createRegistration: true, standingInstruction: saveForLater() })));
      assert.equal(saved.initialTransactionId, 'F361828620308F3');
      const later = await client.registrations.createPayment(saved.registrationId, { ...charge, standingInstruction: repeatOf(saved) });
      assert.equal(later.standingInstruction?.initialTransactionId, saved.initialTransactionId);
      assert.equal(new URLSearchParams(recorder.posts().at(-1)!.body).get('standingInstruction.initialTransactionId'), saved.initialTransactionId);
    } finally {
      await seeded.close();
    }
  });

  test('a repeat with another id is refused by the gateway (GatewayValidationError naming the field)', async () => {
    const { client } = clientFor(context.sandbox);
    const saved = savedCardOf(await client.payments.create(cardPayment({ createRegistration: true, standingInstruction: saveForLater() })));
    const error = await client.registrations.createPayment(saved.registrationId, { ...charge, standingInstruction: repeatOf({ ...saved, initialTransactionId: 'ABCDEF0123456789' }) }).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError, String(error));
    assert.deepEqual(error.parameterErrors.map((problem) => problem.name), ['standingInstruction.initialTransactionId']);
  });

  test('a card stored with registrations.create: first a CIT on it, then repeats', async () => {
    const { client } = clientFor(context.sandbox);
    const registration = await client.registrations.create({ paymentBrand: 'VISA', card: card() });
    const first = await client.registrations.createPayment(registration.id, { ...charge, standingInstruction: saveForLater() });
    const saved = savedCardOf(first, registration.id);
    const later = await client.registrations.createPayment(saved.registrationId, { ...charge, standingInstruction: repeatOf(saved) });
    assert.equal(later.result.code, RESULT_CODES.approvedIntegratorTest);
  });

  test('savedCardOf refuses a payment that saved nothing', async () => {
    const { client } = clientFor(context.sandbox);
    const plain = await client.payments.create(cardPayment());
    assert.throws(() => savedCardOf(plain), GatewayValidationError);
  });

  test('a declining saved card declines its merchant-initiated charge: GatewayDeclinedError', async () => {
    const { client } = clientFor(context.sandbox);
    const registration = await client.registrations.create({ paymentBrand: 'VISA', card: card(CARDS.declined) });
    const error = await client.registrations.createPayment(registration.id, { ...charge, standingInstruction: saveForLater() }).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayDeclinedError, String(error));
  });

  test('the type checks compile', () => {
    assert.ok(typeChecks.length > 5);
  });
});

describe('a registration answered without its id', () => {
  test('an approval naming no registration (no id, or not a text) is a GatewayNetworkError, never a card without a token', async () => {
    for (const id of [undefined, '', 42]) {
      const { client } = standInClient(() => ({
        status: 200,
        body: answer('000.100.110', { id, paymentBrand: 'VISA', card: { bin: '420000', last4Digits: '0000' } }),
      }));
      const error = await client.registrations.create({ paymentBrand: 'VISA', card: card() }).catch((caught: unknown) => caught);
      assert.ok(error instanceof GatewayNetworkError, `${String(id)}: ${String(error)}`);
      assert.match(error.message, /names no registration id/);
    }
  });
});
