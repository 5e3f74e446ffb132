/**
 * `handleShopperReturn` against the sandbox over loopback: an answer is the
 * checkout's only when it provably is (the sandbox's report entries are the
 * platform's shape: no `ndc`, the checkout's custom parameters echoed, the
 * kit's reference among them; an order's other checkouts are never taken for
 * this one; a 3-D Secure challenge still open after its checkout's 30 minutes
 * is "pending", never "expired"), and saved cards through the widget (a
 * registration-only checkout's return answers the card; a one-click
 * checkout's return answers the payment). What decides "expired", case by case
 * over the gateway stand-in, is `shopper-return.expiry.test.ts`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  CheckoutPendingError,
  createMemoryStatusStore,
  GatewayDeclinedError,
  GatewayNotFoundError,
  GatewayValidationError,
  isApproved,
  RESULT_CODES,
  StatusUnknownError,
  type CheckoutRegistration,
  type Payment,
} from '../../src/server/index.js';
import { CARDS, card, clientFor, control, orderId, payInWidget, payWithSavedCardInWidget, saveInWidget, useSandbox } from './fixtures.js';

const context = useSandbox();
const SAVE_FOR_ONE_CLICK = { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' } as const;
const registrationReturn = (id: string) => ({ id, resourcePath: `/v1/checkouts/${id}/registration` });

/** A card saved through a registration-only checkout's widget, read back on the shopper's return. */
async function saveCard(
  client: ReturnType<typeof clientFor>['client'],
  number: string = CARDS.approved,
  brand = 'VISA',
): Promise<CheckoutRegistration> {
  const checkout = await client.checkouts.create({ createRegistration: true, standingInstruction: SAVE_FOR_ONE_CLICK });
  const saved = await saveInWidget(context.sandbox, checkout.id, number, brand);
  assert.ok(isApproved(saved.result.code), saved.result.code);
  return client.handleShopperReturn(registrationReturn(checkout.id), { expect: 'registration' });
}

describe('registration-only checkout', () => {
  test('is created with createRegistration and no paymentType, and its return answers the saved card (RG)', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ createRegistration: true, standingInstruction: SAVE_FOR_ONE_CLICK });
    const sent = new URLSearchParams(recorder.posts().at(-1)!.body);
    assert.equal(sent.get('createRegistration'), 'true');
    assert.equal(sent.get('paymentType'), null);
    assert.equal(sent.get('amount'), null);
    const saved = await saveInWidget(context.sandbox, checkout.id);
    const registration = await client.handleShopperReturn(registrationReturn(checkout.id), { expect: 'registration' });
    assert.equal(registration.id, saved.id);
    assert.match(registration.id, /^[0-9a-f]{32}$/);
    assert.equal(registration.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(registration.paymentType, 'RG');
    assert.equal(registration.paymentBrand, 'VISA');
    assert.equal(registration.card?.last4Digits, '0000');
    assert.deepEqual(registration.standingInstruction, SAVE_FOR_ONE_CLICK);
    // The answer is kept: a second return is answered from the store, without a third read.
    const again = await client.handleShopperReturn(registrationReturn(checkout.id), { expect: 'registration' });
    assert.equal(again.id, registration.id);
  });

  test('a declining card saves nothing and leaves the form open; a good card then saves', async () => {
    const { client } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ createRegistration: true });
    const declined = await saveInWidget(context.sandbox, checkout.id, CARDS.declined);
    assert.equal(declined.result.code, RESULT_CODES.declinedByAuthorization);
    assert.equal(declined.id, undefined);
    const saved = await saveInWidget(context.sandbox, checkout.id);
    assert.ok(isApproved(saved.result.code));
    const again = await saveInWidget(context.sandbox, checkout.id);
    assert.equal(again.result.code, RESULT_CODES.invalidParameter, 'a checkout saves one card');
  });

  test('the two returns are told apart: a payment path is never read as a card, nor a registration path as a payment', async () => {
    const { client } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ createRegistration: true });
    await assert.rejects(client.handleShopperReturn(registrationReturn(checkout.id)), GatewayValidationError);
    await assert.rejects(
      client.handleShopperReturn({ id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` }, { expect: 'registration' }),
      GatewayValidationError,
    );
    // And at compile time: what a registration return answers has no amount to mistake for money taken.
    const read = () => client.handleShopperReturn(registrationReturn(checkout.id), { expect: 'registration' });
    const noAmount: 'amount' extends keyof Awaited<ReturnType<typeof read>> ? never : true = true;
    assert.ok(noAmount);
    // Before the shopper saves a card, the read answers pending, as a payment checkout's does.
    assert.equal((await read()).result.code, RESULT_CODES.pending);
  });

  test('a registration-only checkout takes no payment in the widget', async () => {
    const { client } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ createRegistration: true });
    const response = await fetch(`${context.sandbox.url}/v1/checkouts/${checkout.id}/widget/payments`, {
      method: 'POST',
      body: new URLSearchParams({ paymentBrand: 'VISA', 'card.number': CARDS.approved }),
    });
    assert.equal(((await response.json()) as Payment).result.code, RESULT_CODES.invalidParameter);
  });

  test('a consumed registration checkout read by another store is unknown, never "no card"', async () => {
    const first = clientFor(context.sandbox).client;
    const checkout = await first.checkouts.create({ createRegistration: true });
    await saveInWidget(context.sandbox, checkout.id);
    await first.checkouts.getRegistration(checkout.id);
    const other = clientFor(context.sandbox).client;
    await assert.rejects(other.handleShopperReturn(registrationReturn(checkout.id), { expect: 'registration' }), StatusUnknownError);
    // Nor for the store that created it: it saw no read go unanswered, but not this one, which went past it.
    await control(context.sandbox, 'clock', { advance: '61' });
    await assert.rejects(first.handleShopperReturn(registrationReturn(checkout.id), { expect: 'registration' }), StatusUnknownError);
  });

  test('a card saved and never read is unknown after the checkout ends, never "no card": it may be chargeable', async () => {
    const { client } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ createRegistration: true });
    await saveInWidget(context.sandbox, checkout.id);
    await control(context.sandbox, 'clock', { advance: String(31 * 60) });
    const error = await client.handleShopperReturn(registrationReturn(checkout.id), { expect: 'registration' }).then(
      () => assert.fail('a card was read after its checkout ended'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof StatusUnknownError, String(error));
    assert.match(error.message, /saved a card is unknown/);
  });
});

describe('one-click checkout', () => {
  test('offers the saved cards and pays with one as a customer-initiated repeat; the return answers the payment', async () => {
    const { client } = clientFor(context.sandbox);
    const saved = await saveCard(client);
    const other = await saveCard(client, CARDS.approvedMaster, 'MASTER');
    const checkout = await client.checkouts.create({
      amount: '25.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: orderId('one-click'),
      registrations: [{ id: saved.id }, { id: other.id }],
    });
    const widget = (await (await fetch(`${context.sandbox.url}/v1/checkouts/${checkout.id}/widget`)).json()) as {
      checkout: { registrations: { id: string; last4Digits: string; paymentBrand: string }[] };
    };
    assert.deepEqual(
      widget.checkout.registrations.map(({ id, paymentBrand, last4Digits }) => ({ id, paymentBrand, last4Digits })),
      [
        { id: saved.id, paymentBrand: 'VISA', last4Digits: '0000' },
        { id: other.id, paymentBrand: 'MASTER', last4Digits: '5454' },
      ],
    );
    const paid = await payWithSavedCardInWidget(context.sandbox, checkout.id, saved.id, '123');
    assert.ok(isApproved(paid.body.result.code), paid.body.result.code);
    const payment = await client.handleShopperReturn({ id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` });
    assert.equal(payment.amount, '25.00');
    assert.equal(payment.card?.last4Digits, '0000');
    assert.deepEqual({ ...payment.standingInstruction }, { source: 'CIT', type: 'UNSCHEDULED', mode: 'REPEATED' });
    // A white label's recorded one-click status names the card it charged: that one, not a newly saved card.
    assert.equal(payment.registrationId, saved.id, 'the status names the saved card charged');
  });

  test('a card not offered, or deleted since, is refused; a declining saved card leaves the checkout open', async () => {
    const { client } = clientFor(context.sandbox);
    const saved = await saveCard(client);
    // Stored server-to-server: the platform stores a card without charging it, and the trigger declines its payments.
    const declining = await client.registrations.create({ paymentBrand: 'VISA', card: card(CARDS.insufficientFunds) });
    const stranger = await saveCard(client);
    const checkout = await client.checkouts.create({
      amount: '5.00',
      currency: 'EUR',
      paymentType: 'DB',
      registrations: [{ id: saved.id }, { id: declining.id }],
    });
    const notOffered = await payWithSavedCardInWidget(context.sandbox, checkout.id, stranger.id);
    assert.deepEqual(
      notOffered.body.result.parameterErrors?.map(({ name }) => name),
      ['registrationId'],
    );
    const declined = await payWithSavedCardInWidget(context.sandbox, checkout.id, declining.id);
    assert.equal(declined.body.result.code, RESULT_CODES.insufficientFunds);
    await client.registrations.delete(saved.id);
    const deleted = await payWithSavedCardInWidget(context.sandbox, checkout.id, saved.id);
    assert.deepEqual(
      deleted.body.result.parameterErrors?.map(({ name }) => name),
      ['registrationId'],
    );
    await assert.rejects(
      client.handleShopperReturn({ id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` }),
      GatewayDeclinedError,
    );
  });

  test('registrations[n].id is checked as a registration id before anything is sent', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    await assert.rejects(
      client.checkouts.create({ amount: '5.00', currency: 'EUR', paymentType: 'DB', registrations: [{ id: 'not-a-registration' }] }),
      GatewayValidationError,
    );
    assert.equal(recorder.calls.length, 0);
  });
});

/** A client whose clock moves with the sandbox's, on its own memory store. */
function shop(sandbox: Sandbox) {
  let offset = 0;
  const now = () => Date.now() + offset;
  const { client, recorder } = clientFor(sandbox, { now, statusStore: createMemoryStatusStore({ now }) });
  const advance = async (seconds: number) => {
    offset += seconds * 1000;
    await control(sandbox, 'clock', { advance: String(seconds) });
  };
  return { client, recorder, advance };
}

const returnOf = (checkoutId: string) => ({ id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` });
const referenceSent = (body: string) => new URLSearchParams(body).get('customParameters[GW_REFERENCE]');

describe('a return is bound to its checkout, against the sandbox', () => {
  test("an order's other checkout, paid, is never this checkout's payment after its status answer was lost", async () => {
    const { client, recorder, advance } = shop(context.sandbox);
    const order = orderId('two-checkouts');
    const paid = await client.checkouts.create({ amount: '99.00', currency: 'EUR', paymentType: 'DB', merchantTransactionId: order });
    await payInWidget(context.sandbox, paid.id);
    const unpaid = await client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB', merchantTransactionId: order });
    context.sandbox.fault(`/v1/checkouts/${unpaid.id}/payment`, 'drop');
    await assert.rejects(client.handleShopperReturn(returnOf(unpaid.id)));
    await advance(31 * 60);
    await assert.rejects(client.handleShopperReturn(returnOf(unpaid.id)), GatewayNotFoundError);

    // The report entries are the platform's: no ndc, the checkout's reference echoed.
    const { payments } = await client.reports.findByMerchantTransactionId(order);
    assert.equal(payments.length, 1);
    assert.equal(payments[0]!.ndc, undefined);
    const sent = recorder.posts().filter((call) => call.url.pathname === '/v1/checkouts');
    assert.equal(payments[0]!.customParameters?.GW_REFERENCE, referenceSent(sent[0]!.body));
    assert.notEqual(referenceSent(sent[0]!.body), referenceSent(sent[1]!.body));

    // The paid checkout, never read before its session ended, is found by its own reference.
    const own = await client.handleShopperReturn(returnOf(paid.id));
    assert.ok(isApproved(own.result.code));
    assert.equal(own.amount, '99.00');
  });

  test('a 3-D Secure challenge still open after the checkout ended: pending with when to ask again, never expired', async () => {
    const { client, advance } = shop(context.sandbox);
    const checkout = await client.checkouts.create({
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: orderId('late-challenge'),
      shopperResultUrl: 'https://shop.example/result',
    });
    // The shopper starts the challenge in the checkout's 20th minute; it stays open 30 minutes from then.
    await advance(20 * 60);
    await payInWidget(context.sandbox, checkout.id, CARDS.challenge);
    await advance(11 * 60);
    const error = await client.handleShopperReturn(returnOf(checkout.id)).catch((caught: unknown) => caught);
    assert.ok(error instanceof CheckoutPendingError, String(error));
    assert.ok(error.retryAfterSeconds > 0 && error.retryAfterSeconds <= 60);
    // Once the challenge's own 30 minutes are over it has timed out: nothing of the checkout can complete.
    await advance(20 * 60);
    await assert.rejects(client.handleShopperReturn(returnOf(checkout.id)), GatewayNotFoundError);
  });
});
