import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID } from '../../../src/sandbox/index.js';
import { STC_PAY_OTPS, WALLET_TOKENS } from '../../../src/sandbox/gateway/wallets.js';
import { browserCall, useSandbox } from '../support.js';

const handle = useSandbox();
const { call } = handle;

async function createCheckout(entityId: string, paymentType = 'DB'): Promise<string> {
  const answer = await call('POST', '/v1/checkouts', { entityId, amount: '92.00', currency: 'SAR', paymentType, integrity: 'true' });
  assert.equal(answer.body.result.code, RESULT_CODES.checkoutCreated);
  return answer.body.id;
}

const pay = (checkoutId: string, fields: Record<string, string>) =>
  browserCall(handle.sandbox, 'POST', `/v1/checkouts/${checkoutId}/widget/payments`, fields);
const status = (checkoutId: string, entityId: string) => call('GET', `/v1/checkouts/${checkoutId}/payment`, { entityId });

beforeEach(() => handle.sandbox.reset());

describe('wallet payments from the widget', () => {
  for (const [brand, entityId, field] of [
    ['APPLEPAY', DEFAULT_MADA_ENTITY_ID, 'applePay.paymentToken'],
    ['APPLEPAYTKN', DEFAULT_MADA_ENTITY_ID, 'applePay.paymentToken'],
    ['GOOGLEPAY', DEFAULT_ENTITY_ID, 'googlePay.paymentToken'],
  ] as const) {
    it(`${brand}: the stand-in's approve token makes a payment reported with the wallet as brand, the checkout's type, and no card`, async () => {
      const id = await createCheckout(entityId, 'PA');
      const answer = await pay(id, { paymentBrand: brand, [field]: WALLET_TOKENS.approved });
      assert.equal(answer.body.result.code, RESULT_CODES.approvedIntegratorTest);
      const read = await status(id, entityId);
      assert.equal(read.body.id, answer.body.id);
      assert.equal(read.body.paymentBrand, brand);
      assert.equal(read.body.paymentType, 'PA');
      assert.equal(read.body.card, undefined);
      assert.ok(!JSON.stringify(read.body).includes(WALLET_TOKENS.approved), 'the token is never kept');
    });
  }

  it('the decline token is a bank decline; another checkout payment can follow; a token no stand-in sends is refused without being quoted', async () => {
    const id = await createCheckout(DEFAULT_MADA_ENTITY_ID);
    const declined = await pay(id, { paymentBrand: 'APPLEPAY', 'applePay.paymentToken': WALLET_TOKENS.declined });
    assert.equal(declined.body.result.code, RESULT_CODES.declinedByAuthorization);
    assert.match(declined.body.id, /^[0-9a-f]{32}$/);
    const forged = await pay(id, { paymentBrand: 'APPLEPAY', 'applePay.paymentToken': '{"paymentData":"secret-ish"}' });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.result.code, RESULT_CODES.invalidParameter);
    assert.deepEqual(
      forged.body.result.parameterErrors.map((error: { name: string }) => error.name),
      ['applePay.paymentToken'],
    );
    assert.ok(!JSON.stringify(forged.body).includes('secret-ish'));
    const approved = await pay(id, { paymentBrand: 'APPLEPAY', 'applePay.paymentToken': WALLET_TOKENS.approved });
    assert.equal(approved.body.result.code, RESULT_CODES.approvedIntegratorTest);
    const again = await pay(id, { paymentBrand: 'APPLEPAY', 'applePay.paymentToken': WALLET_TOKENS.approved });
    assert.equal(again.body.result.code, RESULT_CODES.invalidParameter, 'a paid checkout is never paid twice');
  });

  it('a wallet the entity lacks is refused with 600.200.201, no payment made', async () => {
    const id = await createCheckout(DEFAULT_ENTITY_ID);
    const answer = await pay(id, { paymentBrand: 'APPLEPAY', 'applePay.paymentToken': WALLET_TOKENS.approved });
    assert.equal(answer.body.result.code, RESULT_CODES.brandNotConfigured);
    const read = await status(id, DEFAULT_ENTITY_ID);
    assert.equal(read.body.id, undefined);
  });
});

describe("STC Pay from the widget (the sandbox's stand-in flow)", () => {
  it('a Saudi mobile and the approving one-time password: approved, the mobile echoed, the password never', async () => {
    const id = await createCheckout(DEFAULT_MADA_ENTITY_ID);
    const answer = await pay(id, { paymentBrand: 'STC_PAY', 'customer.mobile': '0512345678', 'stcPay.otp': STC_PAY_OTPS.approved });
    assert.equal(answer.body.result.code, RESULT_CODES.approvedIntegratorTest);
    const read = await status(id, DEFAULT_MADA_ENTITY_ID);
    assert.equal(read.body.paymentBrand, 'STC_PAY');
    assert.equal(read.body.customer.mobile, '0512345678');
    assert.ok(!JSON.stringify(read.body).includes('stcPay'));
  });

  it('the declining password declines; a wrong password or a non-Saudi number is refused with parameterErrors', async () => {
    const id = await createCheckout(DEFAULT_MADA_ENTITY_ID);
    const declined = await pay(id, { paymentBrand: 'STC_PAY', 'customer.mobile': '+966512345678', 'stcPay.otp': STC_PAY_OTPS.declined });
    assert.equal(declined.body.result.code, RESULT_CODES.declinedByAuthorization);
    const wrong = await pay(id, { paymentBrand: 'STC_PAY', 'customer.mobile': '0151234567', 'stcPay.otp': '999999' });
    assert.equal(wrong.body.result.code, RESULT_CODES.invalidParameter);
    assert.deepEqual(
      wrong.body.result.parameterErrors.map((error: { name: string; value: string | null }) => [error.name, error.value]),
      [
        ['customer.mobile', '0151234567'],
        ['stcPay.otp', '***'],
      ],
    );
  });
});
