/**
 * Issue 19, class 6 (server half): the channel a request goes to is the
 * client's or the call's `options.entityId`, never something in the request
 * data. Against a sandbox with two entities, which keeps each payment on the
 * entity that made it (a read on the other one is refused, 403).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { GatewayPermissionError, GatewayValidationError, isApproved } from '../../src/server/index.js';
import { cardPayment, clientFor, control, orderId, payInWidget } from './fixtures.js';

const MAIN = '8a8294174b7ecb28014b9699220015ca';
const MADA = '8ac7a4c87a5f1b9d017a60a4a7a21d11';
let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, entities: [MAIN, MADA] });
});
after(() => sandbox.close());

const entityOf = (url: URL, body: string) => url.searchParams.get('entityId') ?? new URLSearchParams(body).get('entityId');

describe('request data cannot choose the channel', () => {
  const strays: Record<string, unknown>[] = [
    { entityId: MADA },
    { EntityId: MADA },
    { authentication: { entityId: MADA } },
    { authentication: { userId: 'u', password: 'p' } },
  ];
  for (const stray of strays) {
    test(`${JSON.stringify(stray)} in a payment, a checkout, a capture, a registration: GatewayValidationError, nothing sent`, async () => {
      const { client, recorder } = clientFor(sandbox);
      const attempts = [
        () => client.payments.create({ ...cardPayment(), ...stray }),
        () => client.payments.create({ ...cardPayment({ merchantTransactionId: orderId('stray') }), ...stray }),
        () => client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB', ...stray }),
        () => client.payments.capture('8ac7a4a17000000000000000000000aa', { amount: '1.00', currency: 'EUR', ...stray }),
        () => client.registrations.create({ paymentBrand: 'VISA', card: cardPayment().card, ...stray }),
      ];
      for (const attempt of attempts) {
        const error = await attempt().catch((caught: unknown) => caught);
        assert.ok(error instanceof GatewayValidationError, String(error));
        assert.match(error.message, /nothing was sent/);
        const [owned] = error.parameterErrors;
        assert.match(owned!.name, /entityid|authentication\./i);
        assert.match(owned!.message, /options\.entityId/);
      }
      assert.equal(recorder.calls.length, 0, 'not even the look-up before a payment with a chosen merchantTransactionId');
    });
  }

  test('a request without a stray field is sent on the client entity', async () => {
    const { client, recorder } = clientFor(sandbox);
    const payment = await client.payments.create(cardPayment());
    await client.payments.get(payment.id);
    assert.deepEqual(
      recorder.calls.map((call) => entityOf(call.url, call.body)),
      [MAIN, MAIN],
    );
  });
});

describe('options.entityId: one call on another channel', () => {
  test('a payment, its reads, report and capture on the per-call entity; the client entity cannot read it', async () => {
    const { client, recorder } = clientFor(sandbox);
    const on = { entityId: MADA };
    const merchantTransactionId = orderId('mada');
    const payment = await client.payments.create(cardPayment({ paymentType: 'PA', merchantTransactionId }), on);
    assert.ok(isApproved(payment.result.code));
    assert.equal((await client.payments.get(payment.id, on)).id, payment.id);
    assert.equal((await client.reports.get(payment.id, on)).id, payment.id);
    assert.deepEqual(
      (await client.reports.findByMerchantTransactionId(merchantTransactionId, on)).payments.map((found) => found.id),
      [payment.id],
    );
    const capture = await client.payments.capture(payment.id, { amount: '92.00', currency: 'EUR' }, on);
    assert.equal(capture.referencedId, payment.id);
    assert.ok(
      recorder.calls.every((call) => entityOf(call.url, call.body) === MADA),
      'every call, including the look-up before the chosen merchantTransactionId',
    );
    await assert.rejects(
      client.payments.get(payment.id),
      GatewayPermissionError,
      'the client entity does not see it: the call really went elsewhere',
    );
  });

  test("a checkout's status read and the shopper return use the checkout's entity", async () => {
    const { client } = clientFor(sandbox);
    const on = { entityId: MADA };
    const checkout = await client.checkouts.create({ amount: '12.00', currency: 'EUR', paymentType: 'DB' }, on);
    await payInWidget(sandbox, checkout.id);
    const payment = await client.handleShopperReturn({ id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` }, on);
    assert.ok(isApproved(payment.result.code));
  });

  test('an uncertain payment on the per-call entity is reconciled on that entity', async () => {
    const { client, recorder } = clientFor(sandbox);
    await control(sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
    const payment = await client.payments.create(cardPayment(), { entityId: MADA });
    assert.ok(isApproved(payment.result.code), 'found by its look-up');
    const lookUps = recorder.calls.filter((call) => call.url.pathname === '/v3/query');
    assert.ok(lookUps.length >= 1);
    assert.ok(lookUps.every((call) => entityOf(call.url, call.body) === MADA));
  });

  test('a malformed per-call entity or other option is refused before sending', async () => {
    const { client, recorder } = clientFor(sandbox);
    const bad: unknown[] = [
      { entityId: 'short' },
      { entityId: 42 },
      { entityId: `${MADA}&x=1` },
      { timeoutMs: -1 },
      { timeoutMs: Infinity },
      { signal: 'stop' },
      'options',
    ];
    for (const options of bad) {
      const error = await client.payments.get('8ac7a4a17000000000000000000000aa', options as never).catch((caught: unknown) => caught);
      assert.ok(error instanceof GatewayValidationError, `${JSON.stringify(options)}: ${String(error)}`);
      assert.match(error.parameterErrors[0]!.name, /^options/);
    }
    assert.equal(recorder.calls.length, 0);
  });
});
