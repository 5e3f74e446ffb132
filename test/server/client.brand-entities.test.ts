/**
 * Issue 22 (server half): one client serves a KSA merchant's entities. The
 * `entities` map sends each brand to its entity, a checkout is created on the
 * entity of its widget's brands and read on the same one later, and brands on
 * two entities never share a checkout. Against the sandbox's default set-up
 * (a card entity and a MADA entity), which refuses a brand an entity lacks
 * with 600.200.201: a call on the wrong entity cannot pass unnoticed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RESULT_CODES } from '../../src/contract/result-codes.js';
import { DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID } from '../../src/sandbox/index.js';
import {
  createGatewayClient,
  GatewayError,
  GatewayValidationError,
  isApproved,
  repeatOf,
  saveForLater,
  savedCardOf,
} from '../../src/server/index.js';
import { card, CARDS, cardPayment, clientFor, control, orderId, payInWidget, useSandbox } from './fixtures.js';

const context = useSandbox();
const ENTITIES = { MADA: DEFAULT_MADA_ENTITY_ID, APPLEPAY: DEFAULT_MADA_ENTITY_ID, STC_PAY: DEFAULT_MADA_ENTITY_ID } as const;
const ksaClient = () => clientFor(context.sandbox, { entityId: DEFAULT_ENTITY_ID, entities: ENTITIES });
const entityOf = (call: { url: URL; body: string }) =>
  call.url.searchParams.get('entityId') ?? new URLSearchParams(call.body).get('entityId');
const madaPayment = (merchantTransactionId = orderId('mada')) =>
  cardPayment({ paymentBrand: 'MADA', card: card(CARDS.mada), currency: 'SAR', merchantTransactionId });

describe('the entities map', () => {
  test('a MADA payment goes to the MADA entity, a VISA one to the client entity; reads by brand follow', async () => {
    const { client, recorder } = ksaClient();
    const mada = await client.payments.create(madaPayment());
    const visa = await client.payments.create(cardPayment());
    assert.ok(isApproved(mada.result.code) && isApproved(visa.result.code));
    assert.deepEqual(recorder.calls.map(entityOf), [DEFAULT_MADA_ENTITY_ID, DEFAULT_ENTITY_ID]);
    assert.equal((await client.payments.get(mada.id, { brands: ['MADA'] })).id, mada.id);
    assert.deepEqual(
      (await client.reports.findByMerchantTransactionId(mada.merchantTransactionId!, { brands: ['MADA'] })).payments.map(
        (found) => found.id,
      ),
      [mada.id],
    );
  });

  test('without the map, the MADA payment reaches the card entity and the gateway refuses it (600.200.201)', async () => {
    const { client } = clientFor(context.sandbox);
    const error = await client.payments.create(madaPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.brandNotConfigured);
  });

  test('an uncertain MADA payment is looked up on the MADA entity', async () => {
    const { client, recorder } = ksaClient();
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
    const payment = await client.payments.create(madaPayment());
    assert.ok(isApproved(payment.result.code), 'found by its look-up');
    const lookUps = recorder.calls.filter((call) => call.url.pathname === '/v3/query');
    assert.ok(lookUps.length >= 1);
    assert.ok(recorder.calls.every((call) => entityOf(call) === DEFAULT_MADA_ENTITY_ID));
  });
});

describe('checkouts: one per entity', () => {
  test('a page with a VISA/MASTER form and a MADA form: two checkouts on two entities, each read on its own by the shopper return', async () => {
    const { client, recorder } = ksaClient();
    const order = { amount: '30.00', currency: 'SAR', paymentType: 'DB' as const };
    const cards = await client.checkouts.create(order, { brands: ['VISA', 'MASTER'] });
    const mada = await client.checkouts.create(order, { brands: ['MADA', 'APPLEPAY'] });
    assert.deepEqual(recorder.calls.map(entityOf), [DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID]);
    await payInWidget(context.sandbox, mada.id, CARDS.mada, 'MADA');
    // No entity given: the client remembers the checkout's.
    const paid = await client.handleShopperReturn({ id: mada.id, resourcePath: `/v1/checkouts/${mada.id}/payment` });
    assert.ok(isApproved(paid.result.code));
    assert.equal(paid.paymentBrand, 'MADA');
    assert.equal(entityOf(recorder.calls.at(-1)!), DEFAULT_MADA_ENTITY_ID);
    await payInWidget(context.sandbox, cards.id);
    assert.ok(isApproved((await client.checkouts.getPayment(cards.id)).result.code));
    assert.equal(entityOf(recorder.calls.at(-1)!), DEFAULT_ENTITY_ID);
  });

  test("a checkout's paymentBrand picks its entity like options.brands", async () => {
    const { client, recorder } = ksaClient();
    await client.checkouts.create({ amount: '5.00', currency: 'SAR', paymentType: 'DB', paymentBrand: 'MADA' });
    assert.equal(entityOf(recorder.calls[0]!), DEFAULT_MADA_ENTITY_ID);
  });

  test('brands on two entities in one call are refused before sending', async () => {
    const { client, recorder } = ksaClient();
    const error = await client.checkouts
      .create({ amount: '5.00', currency: 'SAR', paymentType: 'DB' }, { brands: ['VISA', 'MADA'] })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError, String(error));
    assert.equal(error.parameterErrors[0]!.name, 'options.brands');
    const mismatch = await client.payments.create(madaPayment(), { brands: ['VISA'] }).catch((caught: unknown) => caught);
    assert.ok(mismatch instanceof GatewayValidationError, String(mismatch));
    assert.equal(mismatch.parameterErrors[0]!.name, 'paymentBrand');
    const unknown = await client.payments
      .get('8ac7a4a17000000000000000000000aa', { brands: ['PAYPAL' as 'VISA'] })
      .catch((caught: unknown) => caught);
    assert.ok(unknown instanceof GatewayValidationError);
    assert.equal(recorder.calls.length, 0);
  });

  test('options.entityId still wins over the map', async () => {
    const { client, recorder } = ksaClient();
    await client.checkouts.create(
      { amount: '5.00', currency: 'SAR', paymentType: 'DB' },
      { brands: ['MADA'], entityId: DEFAULT_MADA_ENTITY_ID },
    );
    await assert.rejects(
      client.payments.create(madaPayment(), { entityId: DEFAULT_ENTITY_ID }),
      (error: GatewayError) => error.resultCode === RESULT_CODES.brandNotConfigured,
    );
    assert.deepEqual(recorder.calls.map(entityOf), [DEFAULT_MADA_ENTITY_ID, DEFAULT_ENTITY_ID]);
  });
});

test('a malformed map is refused when the client is built', () => {
  const base = { baseUrl: context.sandbox.url, accessToken: 'token', entityId: DEFAULT_ENTITY_ID };
  for (const entities of [{ MADA: 'short' }, { PAYPAL: DEFAULT_MADA_ENTITY_ID }, [DEFAULT_MADA_ENTITY_ID], 'MADA']) {
    assert.throws(
      () => createGatewayClient({ ...base, entities: entities as never }),
      (error: GatewayValidationError) => error.parameterErrors[0]!.name === 'entities',
      JSON.stringify(entities),
    );
  }
});

describe('cards saved on a brand entity', () => {
  const madaFirst = () => ({ ...madaPayment(), createRegistration: true, standingInstruction: saveForLater() });

  test('the saved card names its brand: repeats and its deletion go to the entity it was saved on', async () => {
    const { client, recorder } = ksaClient();
    const saved = savedCardOf(await client.payments.create(madaFirst()));
    assert.equal(saved.paymentBrand, 'MADA');
    const repeat = await client.registrations.createPayment(saved, {
      paymentType: 'DB',
      amount: '9.99',
      currency: 'SAR',
      standingInstruction: repeatOf(saved),
    });
    assert.ok(isApproved(repeat.result.code), repeat.result.code);
    await client.registrations.delete(saved);
    assert.deepEqual(recorder.calls.map(entityOf), [DEFAULT_MADA_ENTITY_ID, DEFAULT_MADA_ENTITY_ID, DEFAULT_MADA_ENTITY_ID]);
    // A saved card kept as JSON (the customer's record) reads the same.
    const kept = JSON.parse(JSON.stringify(saved)) as typeof saved;
    await assert.rejects(
      client.registrations.delete(kept),
      (error: GatewayError) => error.resultCode === RESULT_CODES.registrationDeregistered,
    );
  });

  test("the call's own options still choose: an entity, or brands; a bare id goes to the client's entity", async () => {
    const { client, recorder } = ksaClient();
    const saved = savedCardOf(await client.payments.create(madaFirst()));
    const repeat = { paymentType: 'DB', amount: '1.00', currency: 'SAR', standingInstruction: repeatOf(saved) } as const;
    await assert.rejects(
      client.registrations.createPayment(saved, repeat, { entityId: DEFAULT_ENTITY_ID }),
      (error: GatewayError) => error.resultCode === RESULT_CODES.forbidden,
    );
    await assert.rejects(
      client.registrations.createPayment(saved.registrationId, repeat),
      (error: GatewayError) => error.resultCode === RESULT_CODES.forbidden,
    );
    assert.deepEqual(recorder.calls.slice(1).map(entityOf), [DEFAULT_ENTITY_ID, DEFAULT_ENTITY_ID]);
  });

  test('a saved card whose brand is not one the client knows is refused before sending', async () => {
    const { client, recorder } = ksaClient();
    const forged = { registrationId: '8ac7a4a17000000000000000000000aa', paymentBrand: 'PAYPAL' } as never;
    for (const call of [
      () => client.registrations.delete(forged),
      () => client.registrations.createPayment(forged, { paymentType: 'DB', amount: '1.00', currency: 'SAR' }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      assert.ok(error instanceof GatewayValidationError, String(error));
      assert.equal(error.parameterErrors[0]!.name, 'savedCard.paymentBrand');
    }
    assert.equal(recorder.calls.length, 0);
  });
});
