/** Checkouts and the shopper's return: creation, status, resourcePath checks, the status store and the 2-a-minute limit. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/index.js';
import {
  createMemoryStatusStore,
  GatewayDeclinedError,
  GatewayNotFoundError,
  GatewayThrottledError,
  GatewayValidationError,
  GatewayVerificationError,
  isApproved,
  RESULT_CODES,
  STATUS_CALLS_PER_MINUTE,
  verifyPayment,
} from '../../../src/server/index.js';
import { CARDS, cardPayment, clientFor, control, creditSender, orderId, payInWidget, recipient, useSandbox } from '../fixtures.js';

const context = useSandbox();

/** A test clock for the client-side limit, moved together with the sandbox's. */
function clocks(sandbox: Sandbox) {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    async advance(seconds: number) {
      offset += seconds * 1000;
      await control(sandbox, 'clock', { advance: String(seconds) });
    },
  };
}

const returnOf = (checkoutId: string) => ({ id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` });

describe('checkouts.create', () => {
  test('asks for the integrity hash by default and returns id and integrity', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({
      amount: '92.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: orderId(),
      customer: { email: 'jane@example.com' },
    });
    assert.equal(checkout.result.code, RESULT_CODES.checkoutCreated);
    assert.match(checkout.id, /^[A-Za-z0-9.-]+$/);
    assert.match(checkout.integrity ?? '', /^sha384-/);
    assert.equal(new URLSearchParams(recorder.posts()[0]!.body).get('integrity'), 'true');
    const without = await client.checkouts.create({ amount: '1.00', currency: 'EUR', paymentType: 'PA', integrity: false });
    assert.equal(without.integrity, undefined);
  });

  test('an account funding checkout carries recipient, credit sender, F code and standing instruction with registration', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({
      programme: 'accountFunding',
      amount: '250.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchant: { city: 'Berlin' },
      recipient,
      customParameters: { ...creditSender, TransactionTypeIdentifier: 'F52' },
      threeDSecure: { challengeIndicator: '04' },
      createRegistration: true,
      standingInstruction: { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' },
    });
    assert.equal(checkout.result.code, RESULT_CODES.checkoutCreated);
    const body = new URLSearchParams(recorder.posts()[0]!.body);
    assert.equal(body.get('customParameters[TransactionTypeIdentifier]'), 'F52');
    assert.equal(body.get('recipient.accountNumberType'), 'IBAN');
    assert.equal(body.get('standingInstruction.type'), 'UNSCHEDULED');
    assert.equal(body.get('programme'), null, 'the TypeScript discriminator is never sent');
  });

  test('a funding checkout without its recipient is refused before sending', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const request = {
      programme: 'accountFunding',
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchant: { city: 'Berlin' },
      customParameters: { ...creditSender, TransactionTypeIdentifier: 'F07' },
    };
    const error = await client.checkouts.create(request as never).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.deepEqual(
      error.parameterErrors
        .filter((problem) => problem.name.startsWith('recipient.'))
        .map((problem) => problem.name)
        .sort(),
      ['recipient.accountNumber', 'recipient.accountNumberType', 'recipient.givenName', 'recipient.surname'],
    );
    assert.equal(recorder.calls.length, 0);
  });
});

describe('handleShopperReturn', () => {
  test('reads the status once and answers later returns from the store; the gateway itself would no longer answer', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ amount: '92.00', currency: 'EUR', paymentType: 'DB' });
    await payInWidget(context.sandbox, checkout.id);
    const payment = await client.handleShopperReturn(returnOf(checkout.id));
    assert.ok(isApproved(payment.result.code));
    assert.equal(payment.ndc, checkout.id);
    const reads = () => recorder.calls.filter((call) => call.method === 'GET').length;
    assert.equal(reads(), 1);
    const again = await client.handleShopperReturn(returnOf(checkout.id));
    assert.deepEqual(again, payment);
    assert.equal(reads(), 1, 'a reload costs no status call');
    const consumed = await client.checkouts.getPayment(checkout.id).catch((caught: unknown) => caught);
    assert.ok(consumed instanceof GatewayNotFoundError, String(consumed));
    assert.equal(consumed.resultCode, RESULT_CODES.invalidParameter);
  });

  test('no third status call within a minute: the client throws throttled without sending; a minute later it reads again', async () => {
    const clock = clocks(context.sandbox);
    const { client, recorder } = clientFor(context.sandbox, { now: clock.now });
    const checkout = await client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB' });
    for (let call = 0; call < STATUS_CALLS_PER_MINUTE; call++) {
      const pending = await client.handleShopperReturn(returnOf(checkout.id));
      assert.equal(pending.result.code, RESULT_CODES.pending, 'not paid yet');
    }
    const sent = recorder.calls.length;
    const error = await client.handleShopperReturn(returnOf(checkout.id)).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayThrottledError, String(error));
    assert.ok(error.retryAfterSeconds! > 0 && error.retryAfterSeconds! <= 60);
    assert.equal(recorder.calls.length, sent, 'nothing was sent');
    await payInWidget(context.sandbox, checkout.id);
    await clock.advance(61);
    const paid = await client.handleShopperReturn(returnOf(checkout.id));
    assert.ok(isApproved(paid.result.code));
  });

  test('a declined attempt is thrown and not remembered: the shopper retries on the same checkout and the approval is returned', async () => {
    const { client } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB' });
    await payInWidget(context.sandbox, checkout.id, CARDS.declined);
    const declined = await client.handleShopperReturn(returnOf(checkout.id)).catch((caught: unknown) => caught);
    assert.ok(declined instanceof GatewayDeclinedError, String(declined));
    await payInWidget(context.sandbox, checkout.id);
    const approved = await client.handleShopperReturn(returnOf(checkout.id));
    assert.ok(isApproved(approved.result.code));
  });

  test("resourcePath must be one of the gateway's two paths with the same id: nothing else is ever fetched", async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const id = '8ac7a4a17000000000000000000000ff';
    const bad: Record<string, unknown>[] = [
      { id, resourcePath: `https://evil.example/v1/checkouts/${id}/payment` },
      { id, resourcePath: `/v1/checkouts/${id}/payment/../../../__sandbox/reset` },
      { id, resourcePath: `/v1/checkouts/${id}/payment?entityId=other` },
      { id, resourcePath: '/v1/checkouts/../payment' },
      { id, resourcePath: `/v3/query/${id}` },
      { id: 'another', resourcePath: `/v1/checkouts/${id}/payment` },
      { id },
    ];
    for (const query of bad) {
      const error = await client.handleShopperReturn(query).catch((caught: unknown) => caught);
      assert.ok(error instanceof GatewayValidationError, JSON.stringify(query));
      assert.equal(error.parameterErrors[0]?.name, 'resourcePath');
    }
    assert.equal(recorder.calls.length, 0);
  });

  test('a server-to-server return (/v1/payments/{id}) reads the payment; concurrent returns share one call', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const debit = await client.payments.create(cardPayment());
    const query = { resourcePath: `/v1/payments/${debit.id}` };
    const [first, second] = await Promise.all([client.handleShopperReturn(query), client.handleShopperReturn(query)]);
    assert.equal(first.id, debit.id);
    assert.equal(second, first);
    assert.equal(recorder.calls.filter((call) => call.method === 'GET').length, 1);
  });

  test('a store shared by two server instances: the second answers from it without a status call', async () => {
    const statusStore = createMemoryStatusStore();
    const first = clientFor(context.sandbox, { statusStore });
    const second = clientFor(context.sandbox, { statusStore });
    const checkout = await first.client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB' });
    await payInWidget(context.sandbox, checkout.id);
    const payment = await first.client.handleShopperReturn(returnOf(checkout.id));
    assert.deepEqual(await second.client.handleShopperReturn(returnOf(checkout.id)), payment);
    assert.equal(second.recorder.calls.length, 0);
  });

  test('an expired checkout is GatewayNotFoundError', async () => {
    const { client } = clientFor(context.sandbox);
    const checkout = await client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB' });
    await control(context.sandbox, 'clock', { advance: String(31 * 60) });
    const error = await client.handleShopperReturn(returnOf(checkout.id)).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayNotFoundError, String(error));
  });
});

describe("verifyPayment (the API reference's merchant rule)", () => {
  test('returns a matching payment; lists every mismatch otherwise', async () => {
    const { client } = clientFor(context.sandbox);
    const merchantTransactionId = orderId('verify');
    const payment = await client.payments.create(cardPayment({ merchantTransactionId }));
    assert.equal(
      verifyPayment(payment, {
        id: payment.id,
        merchantTransactionId,
        amount: '92.00',
        currency: 'EUR',
        paymentBrand: 'VISA',
        paymentType: 'DB',
      }),
      payment,
    );
    const error = (() => {
      try {
        client.verifyPayment(payment, { amount: '9.20', currency: 'USD', paymentBrand: 'VISA', paymentType: 'PA' });
      } catch (caught) {
        return caught;
      }
    })();
    assert.ok(error instanceof GatewayVerificationError);
    assert.deepEqual(error.mismatches, [
      { field: 'amount', expected: '9.20', actual: '92.00' },
      { field: 'currency', expected: 'USD', actual: 'EUR' },
      { field: 'paymentType', expected: 'PA', actual: 'DB' },
    ]);
    assert.match(error.message, /amount is 92\.00, expected 9\.20/);
  });

  test('compares amounts as money: "92" is "92.00", "92.01" is not', async () => {
    const { client } = clientFor(context.sandbox);
    const payment = await client.payments.create(cardPayment({ merchantTransactionId: orderId('verify-amount') }));
    assert.equal(verifyPayment(payment, { amount: '92', currency: 'EUR' }), payment);
    assert.equal(verifyPayment(payment, { amount: '92.0', currency: 'EUR' }), payment);
    assert.throws(() => verifyPayment(payment, { amount: '92.01', currency: 'EUR' }), GatewayVerificationError);
    assert.throws(() => verifyPayment(payment, { amount: 'not an amount', currency: 'EUR' }), GatewayVerificationError);
    // Text that names no amount matches none, not even the cents it starts with.
    for (const amount of ['92.001', '92.009', '0x5c', ' 92.00', '9.2e1', '+92.00'])
      assert.throws(() => verifyPayment(payment, { amount, currency: 'EUR' }), GatewayVerificationError, amount);
    assert.throws(() => verifyPayment({ ...payment, amount: '92.009' }, { amount: '92.00', currency: 'EUR' }), GatewayVerificationError);
  });
});
