/**
 * The shopper return against the sandbox (issue 28): an answer is the
 * checkout's only when it provably is. The sandbox's report entries are the
 * platform's shape (no `ndc`; the checkout's custom parameters echoed, the
 * kit's reference among them), an order's other checkouts are never taken for
 * this one, and a 3-D Secure challenge still open after its checkout's 30
 * minutes is "pending", never "expired".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sandbox } from '../../src/sandbox/index.js';
import { CheckoutPendingError, createMemoryStatusStore, GatewayNotFoundError, isApproved } from '../../src/server/index.js';
import { CARDS, clientFor, control, orderId, payInWidget, useSandbox } from './fixtures.js';

const context = useSandbox();

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
