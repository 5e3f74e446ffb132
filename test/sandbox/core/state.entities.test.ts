/**
 * Several entities per token, each with its brands: the default set-up has a
 * card entity and a MADA entity, and a brand an entity lacks is refused with
 * 600.200.201 at HTTP 400, as the platform refuses it, on checkouts, payments
 * and the widget's payment.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RESULT_CODES, RESULT_DESCRIPTIONS } from '../../../src/contract/result-codes.js';
import { DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID, startSandbox } from '../../../src/sandbox/index.js';
import { call, CARDS, cardPayment, useSandbox } from '../support.js';

const context = useSandbox();
const merchant = context.call;

const checkout = (brand?: string) => ({
  amount: '10.00',
  currency: 'SAR',
  paymentType: 'DB',
  integrity: 'true',
  ...(brand ? { paymentBrand: brand } : {}),
});
const mada = (overrides: Record<string, string> = {}) =>
  cardPayment({ paymentBrand: 'MADA', 'card.number': CARDS.mada, currency: 'SAR', ...overrides });

function assertNotConfigured(answer: { status: number; body: any }) {
  assert.equal(answer.status, 400);
  assert.equal(answer.body.result.code, RESULT_CODES.brandNotConfigured);
  assert.equal(answer.body.result.description, RESULT_DESCRIPTIONS['600.200.201']);
  assert.equal(answer.body.id, undefined, 'nothing was created');
}

describe('the default set-up', () => {
  test('has a card entity and a MADA entity, with their brands', () => {
    assert.deepEqual(context.sandbox.entities, [DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID]);
    assert.ok(context.sandbox.entityBrands[1]!.brands!.includes('MADA') && !context.sandbox.entityBrands[0]!.brands!.includes('MADA'));
  });

  test('a MADA payment is approved on the MADA entity and refused on the card entity, which makes no payment', async () => {
    const approved = await merchant('POST', '/v1/payments', mada(), { entityId: DEFAULT_MADA_ENTITY_ID });
    assert.equal(approved.status, 200);
    assert.equal(approved.body.paymentBrand, 'MADA');
    assert.deepEqual([approved.body.card.type, approved.body.card.country], ['DEBIT', 'SA'], 'a Saudi debit card');
    const before = context.sandbox.stats().payments;
    assertNotConfigured(await merchant('POST', '/v1/payments', mada()));
    assert.equal(context.sandbox.stats().payments, before);
  });

  test('a VISA payment is refused on the MADA entity; a MADA card sent as VISA on the card entity is a VISA payment', async () => {
    assertNotConfigured(await merchant('POST', '/v1/payments', cardPayment(), { entityId: DEFAULT_MADA_ENTITY_ID }));
    const asVisa = await merchant('POST', '/v1/payments', cardPayment({ 'card.number': CARDS.mada }));
    assert.equal(asVisa.status, 200);
    assert.equal(asVisa.body.paymentBrand, 'VISA');
  });

  test('a checkout for a brand the entity lacks is refused; one without a brand is created and its widget payment is refused for that brand', async () => {
    assertNotConfigured(await merchant('POST', '/v1/checkouts', checkout('MADA')));
    assertNotConfigured(await merchant('POST', '/v1/checkouts', checkout('APPLEPAY')));
    assert.equal(
      (await merchant('POST', '/v1/checkouts', checkout('MADA'), { entityId: DEFAULT_MADA_ENTITY_ID })).body.result.code,
      RESULT_CODES.checkoutCreated,
    );
    const created = await merchant('POST', '/v1/checkouts', checkout());
    const pay = (number: string, brand: string) =>
      fetch(`${context.sandbox.url}/v1/checkouts/${created.body.id}/widget/payments`, {
        method: 'POST',
        body: new URLSearchParams({
          paymentBrand: brand,
          'card.number': number,
          'card.holder': 'Test Shopper',
          'card.expiryMonth': '12',
          'card.expiryYear': '2034',
          'card.cvv': '123',
        }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    assertNotConfigured(await pay(CARDS.mada, 'MADA'));
    assert.equal((await pay(CARDS.approved, 'VISA')).body.result.code.startsWith('000.'), true);
  });

  test('a malformed request is refused for its fields first (200.300.404), as before any configuration check', async () => {
    const answer = await merchant('POST', '/v1/payments', mada({ amount: '-1' }));
    assert.equal(answer.body.result.code, RESULT_CODES.invalidParameter);
  });
});

describe('entities given', () => {
  test('a plain id takes every brand, as before; { id, brands } only its own', async () => {
    const open = '0123456789abcdef0123456789abcdef';
    const cards = 'fedcba9876543210fedcba9876543210';
    const own = await startSandbox({ port: 0, quiet: true, entities: [open, { id: cards, brands: ['VISA'] }] });
    try {
      assert.equal((await call(own, 'POST', '/v1/payments', mada(), { entityId: open })).status, 200);
      assert.equal((await call(own, 'POST', '/v1/payments', cardPayment(), { entityId: cards })).status, 200);
      assertNotConfigured(
        await call(own, 'POST', '/v1/payments', cardPayment({ paymentBrand: 'MASTER', 'card.number': CARDS.approvedMaster }), {
          entityId: cards,
        }),
      );
    } finally {
      await own.close();
    }
  });

  test('a malformed id, a repeated one or an unknown brand is refused at start', async () => {
    await assert.rejects(startSandbox({ port: 0, quiet: true, entities: ['short'] }), /AN32/);
    await assert.rejects(startSandbox({ port: 0, quiet: true, entities: [DEFAULT_ENTITY_ID, { id: DEFAULT_ENTITY_ID }] }), /twice/);
    await assert.rejects(
      startSandbox({ port: 0, quiet: true, entities: [{ id: DEFAULT_ENTITY_ID, brands: ['PAYPAL' as 'VISA'] }] }),
      /PAYPAL/,
    );
  });
});
