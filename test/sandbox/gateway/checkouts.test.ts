import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import { NO_PAYMENT_SESSION_DESCRIPTION, RESULT_CODES } from '../../../src/contract/result-codes.js';
import { widgetScriptBytes } from '../../../src/sandbox/node/widget-bundle.js';
import { browserCall, CARDS, useSandbox, widgetCard } from '../support.js';

const handle = useSandbox();
const { call } = handle;

const checkoutFields = { amount: '92.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' };

async function createCheckout(extra: Record<string, string> = {}): Promise<string> {
  const answer = await call('POST', '/v1/checkouts', { ...checkoutFields, ...extra });
  assert.equal(answer.body.result.code, RESULT_CODES.checkoutCreated);
  return answer.body.id;
}

const pay = (checkoutId: string, number: string = CARDS.approved) =>
  browserCall(handle.sandbox, 'POST', `/v1/checkouts/${checkoutId}/widget/payments`, widgetCard(number));

beforeEach(() => handle.sandbox.reset());

describe('POST /v1/checkouts', () => {
  it('creates a checkout (000.200.100) whose integrity is the sha384 of the exact widget bytes served', async () => {
    const answer = await call('POST', '/v1/checkouts', checkoutFields);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.result.code, RESULT_CODES.checkoutCreated);
    assert.match(answer.body.id, /^[A-F0-9]{32}\.[a-z0-9]+-vm-tx\d{2}$/);
    assert.equal(answer.body.ndc, answer.body.id);
    const script = await fetch(`${handle.sandbox.url}/v1/paymentWidgets.js?checkoutId=${answer.body.id}`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type')!, /^application\/javascript/);
    assert.equal(script.headers.get('access-control-allow-origin'), '*');
    assert.match(script.headers.get('cache-control')!, /no-cache/);
    const bytes = Buffer.from(await script.arrayBuffer());
    assert.deepEqual(bytes, widgetScriptBytes());
    assert.equal(answer.body.integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`);
  });

  it('answers no integrity when not asked for it (also when integrity is not sent, as production does), and validates the body', async () => {
    const plain = await call('POST', '/v1/checkouts', { ...checkoutFields, integrity: 'false' });
    assert.equal(plain.body.integrity, undefined);
    const { amount, currency, paymentType } = checkoutFields;
    const unsent = await call('POST', '/v1/checkouts', { amount, currency, paymentType });
    assert.equal(unsent.status, 200);
    assert.equal(unsent.body.result.code, RESULT_CODES.checkoutCreated);
    assert.equal(unsent.body.integrity, undefined);
    const bad = await call('POST', '/v1/checkouts', { amount: '-20.20', currency: 'eur', paymentType: 'CD' });
    assert.equal(bad.status, 400);
    const names = bad.body.result.parameterErrors.map((error: { name: string }) => error.name).sort();
    assert.deepEqual(names, ['amount', 'currency', 'paymentType']);
  });
});

describe('the widget endpoints (no Bearer, CORS *)', () => {
  it('GET /v1/checkouts/{id}/widget describes a live checkout', async () => {
    const id = await createCheckout();
    const answer = await browserCall(handle.sandbox, 'GET', `/v1/checkouts/${id}/widget`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    assert.equal(answer.body.checkout.id, id);
    assert.equal(answer.body.checkout.amount, '92.00');
    assert.equal(answer.body.checkout.currency, 'EUR');
    assert.equal(answer.body.checkout.paymentType, 'DB');
    assert.equal(Date.parse(answer.body.checkout.expiresAt) - handle.sandbox.clock.now().getTime() <= 30 * 60_000, true);
  });

  it('answers the CORS preflight', async () => {
    const id = await createCheckout();
    const preflight = await fetch(`${handle.sandbox.url}/v1/checkouts/${id}/widget/payments`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);
  });

  it('an unknown or expired checkout answers HTTP 400 200.300.404', async () => {
    const unknown = await browserCall(handle.sandbox, 'GET', '/v1/checkouts/ffffffffffffffffffffffffffffffff/widget');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.result.code, RESULT_CODES.invalidParameter);
    const id = await createCheckout();
    handle.sandbox.clock.advance(30 * 60);
    const expired = await browserCall(handle.sandbox, 'GET', `/v1/checkouts/${id}/widget`);
    assert.equal(expired.status, 400);
    assert.equal((await pay(id)).status, 400);
  });

  it('validates the card form and masks card data in the errors', async () => {
    const id = await createCheckout();
    const answer = await browserCall(handle.sandbox, 'POST', `/v1/checkouts/${id}/widget/payments`, {
      ...widgetCard('4200000000000001'),
      'card.cvv': 'x',
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    const values = Object.fromEntries(
      answer.body.result.parameterErrors.map((error: { name: string; value: string }) => [error.name, error.value]),
    );
    assert.deepEqual(values, { 'card.number': '420000******0001', 'card.cvv': '***' });
  });
});

describe('GET /v1/checkouts/{id}/payment', () => {
  it('a card failing the Luhn check is a refused attempt of its own: the status reads it, and the checkout still takes a payment', async () => {
    const id = await createCheckout({ merchantTransactionId: 'co-luhn' });
    const refused = await pay(id, '4200000000000001');
    assert.equal(refused.status, 200);
    assert.equal(refused.body.result.code, RESULT_CODES.invalidCard);
    assert.match(refused.body.id, /^[0-9a-f]{32}$/);
    const status = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(status.body.id, refused.body.id);
    assert.equal(status.body.result.code, RESULT_CODES.invalidCard);
    assert.equal(status.body.card.last4Digits, '0001');
    assert.equal(status.body.amount, undefined, 'a refused transaction shows no money');
    const read = await call('GET', `/v1/payments/${refused.body.id}`);
    assert.equal(read.body.merchantTransactionId, 'co-luhn');
    const approved = await pay(id);
    assert.equal(approved.body.result.code, RESULT_CODES.approvedIntegratorTest);
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'co-luhn' });
    assert.deepEqual(
      report.body.payments.map((payment: { id: string }) => payment.id),
      [refused.body.id, approved.body.id],
    );
  });

  it('failed attempts, then a successful one; the first successful read consumes the checkout', async () => {
    const id = await createCheckout({ merchantTransactionId: 'co-1', 'customParameters[OrderID]': '9' });
    const declined = await pay(id, CARDS.declined);
    assert.equal(declined.status, 200);
    assert.equal(declined.body.result.code, RESULT_CODES.declinedByAuthorization);
    const afterDecline = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(afterDecline.body.result.code, RESULT_CODES.declinedByAuthorization);
    assert.equal(afterDecline.body.id, declined.body.id);
    const approved = await pay(id);
    assert.equal(approved.body.result.code, RESULT_CODES.approvedIntegratorTest);
    const status = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(status.status, 200);
    assert.equal(status.body.id, approved.body.id);
    assert.equal(status.body.ndc, id);
    assert.equal(status.body.amount, '92.00');
    assert.equal(status.body.merchantTransactionId, 'co-1');
    assert.equal(status.body.customParameters.OrderID, '9');
    assert.equal(status.body.card.last4Digits, '0000');
    handle.sandbox.clock.advance(60);
    const again = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(again.status, 400);
    assert.equal(again.body.result.code, RESULT_CODES.invalidParameter);
    assert.equal(again.body.result.description, NO_PAYMENT_SESSION_DESCRIPTION);
    assert.equal((await pay(id)).status, 400, 'a consumed checkout takes no more payments');
  });

  it('card data sent with a checkout is never kept: the widget must send the card', async () => {
    const id = await createCheckout({
      'card.number': CARDS.approved,
      'card.cvv': '123',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
    });
    const answer = await browserCall(handle.sandbox, 'POST', `/v1/checkouts/${id}/widget/payments`, {
      paymentBrand: 'VISA',
      'card.holder': 'Jane Jones',
    });
    assert.equal(answer.status, 400);
    const names = answer.body.result.parameterErrors.map((error: { name: string }) => error.name).sort();
    assert.deepEqual(names, ['card.cvv', 'card.expiryMonth', 'card.expiryYear', 'card.number']);
  });

  it('a checkout with no payment yet reads as pending', async () => {
    const id = await createCheckout();
    const answer = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(answer.body.result.code, RESULT_CODES.pending);
  });

  it('allows 2 status reads a minute per checkout; the third answers HTTP 429 800.120.100', async () => {
    const id = await createCheckout();
    assert.equal((await call('GET', `/v1/checkouts/${id}/payment`)).status, 200);
    assert.equal((await call('GET', `/v1/checkouts/${id}/payment`)).status, 200);
    const third = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(third.status, 429);
    assert.equal(third.body.result.code, RESULT_CODES.throttled);
    const other = await createCheckout();
    assert.equal((await call('GET', `/v1/checkouts/${other}/payment`)).status, 200, 'the limit is per checkout');
    handle.sandbox.clock.advance(61);
    assert.equal((await call('GET', `/v1/checkouts/${id}/payment`)).status, 200);
  });

  it('a checkout expires after 30 minutes', async () => {
    const id = await createCheckout();
    handle.sandbox.clock.advance(29 * 60);
    assert.equal((await browserCall(handle.sandbox, 'GET', `/v1/checkouts/${id}/widget`)).status, 200);
    handle.sandbox.clock.advance(60);
    const answer = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.result.description, NO_PAYMENT_SESSION_DESCRIPTION);
  });

  it('a checkout refuses a second payment once one succeeded', async () => {
    const id = await createCheckout();
    await pay(id);
    const second = await pay(id);
    assert.equal(second.status, 400);
    assert.equal(second.body.result.description, 'checkout already processed');
  });

  it('the uncertain trigger answers 900.100.300 to the widget while the checkout reads approved', async () => {
    const id = await createCheckout();
    const answer = await pay(id, CARDS.uncertain);
    assert.equal(answer.body.result.code, RESULT_CODES.timeoutUncertain);
    const status = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(status.body.result.code, RESULT_CODES.approvedIntegratorTest);
  });
});
