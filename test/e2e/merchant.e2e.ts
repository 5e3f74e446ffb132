/**
 * The demo merchant back end over HTTP against a real sandbox, no browser:
 * what it refuses, how it reports gateway failures and declines, that the
 * call log it returns is masked, and that the token never leaves it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMerchant, type RunningMerchant } from '../../demo/server/merchant.js';
import type { GatewayCall } from '../../demo/server/call-recorder.js';
import { startSandbox, CARDS, type Sandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
let merchant: RunningMerchant;

before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  merchant = await startMerchant({
    port: 0,
    gateway: { baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! },
    advanceGatewayClock: (seconds) => sandbox.clock.advance(seconds),
  });
});

after(async () => {
  await merchant?.close();
  await sandbox?.close();
});

interface Answer {
  status: number;
  text: string;
  body: Record<string, any> & { calls?: GatewayCall[]; error?: string };
}

async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  raw?: string,
  idempotencyKey?: string,
): Promise<Answer & { replayed: boolean }> {
  const response = await fetch(`${merchant.url}${path}`, {
    method,
    headers: {
      ...(body === undefined && raw === undefined ? {} : { 'content-type': 'application/json' }),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  assert.ok(!sandbox.tokens.some((token) => text.includes(token)), `the access token left the merchant server (${method} ${path})`);
  return { status: response.status, text, body: JSON.parse(text) as Answer['body'], replayed: response.headers.has('idempotent-replayed') };
}

const espresso = { lines: [{ sku: 'espresso-beans', quantity: 2 }] };

/** The transactions the sandbox holds under a preauthorisation's order reference, read at the sandbox. */
async function paymentsOfPreauthorization(id: string): Promise<{ paymentType: string; referencedId?: string }[]> {
  const read = await fetch(`${sandbox.url}/v1/payments/${id}?entityId=${sandbox.entities[0]}`, {
    headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
  });
  const { merchantTransactionId } = (await read.json()) as { merchantTransactionId: string };
  const report = await fetch(`${sandbox.url}/v3/query?entityId=${sandbox.entities[0]}&merchantTransactionId=${merchantTransactionId}`, {
    headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
  });
  return ((await report.json()) as { payments?: { paymentType: string }[] }).payments ?? [];
}

/** Pays a checkout as the widget does, straight at the sandbox (card data never passes the merchant). */
async function payCheckout(checkoutId: string, cardNumber: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/v1/checkouts/${checkoutId}/widget/payments`, {
    method: 'POST',
    body: new URLSearchParams({
      paymentBrand: 'VISA',
      'card.number': cardNumber,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '12',
      'card.expiryYear': String(new Date().getFullYear() + 2),
      'card.cvv': '123',
    }),
  });
  await response.body?.cancel();
}

describe('demo merchant back end', () => {
  test('prices the cart itself and opens a checkout; the answer lists the call, masked and without the token', async () => {
    const { status, body } = await call('POST', '/api/orders', { lines: [{ sku: 'espresso-beans', quantity: 2, priceCents: 1 }] });
    assert.equal(status, 200);
    assert.equal(body.order.amount, '49.80', 'a price sent by the browser is ignored');
    assert.equal(body.calls?.length, 1);
    assert.equal(body.calls?.[0]?.method, 'POST');
    assert.equal(body.calls?.[0]?.path, '/v1/checkouts');
    assert.equal(body.calls?.[0]?.resultCode, '000.200.100');
    assert.equal(body.calls?.[0]?.params.amount, '49.80');
  });

  test('one client serves every request, yet each answer lists only the calls its own request caused', async () => {
    const quantities = [1, 2, 3, 4, 5, 6];
    const answers = await Promise.all(
      quantities.map((quantity) => call('POST', '/api/orders', { lines: [{ sku: 'espresso-beans', quantity }] })),
    );
    for (const [index, { body }] of answers.entries()) {
      assert.equal(body.calls?.length, 1, `order ${index} lists one call`);
      assert.equal(body.calls?.[0]?.params.merchantTransactionId, body.order.id, `order ${index} lists its own checkout`);
      assert.equal(body.calls?.[0]?.params.amount, body.order.amount);
    }
  });

  test('refuses what the browser gets wrong with 400 (404 for what it never had) and a message, before any gateway call', async () => {
    for (const [path, payload, expected, message] of [
      ['/api/orders', { lines: [{ sku: 'tea', quantity: 1 }] }, 400, /lines\.0\.sku is not a product of this shop/],
      ['/api/orders', { lines: [] }, 400, /lines is empty/],
      ['/api/orders', { lines: [{ sku: 'espresso-beans', quantity: 0 }] }, 400, /lines\.0\.quantity must be 1 to 20/],
      ['/api/orders', [], 400, /the body must be a JSON object/],
      ['/api/card-payments', { cardNumber: CARDS.approved, amount: '12.5' }, 400, /^amount must /],
      ['/api/card-payments', { cardNumber: '1234', amount: '12.50' }, 400, /^cardNumber must /],
      ['/api/card-payments', { cardNumber: '6011000990139424', amount: '12.50' }, 400, /VISA and Mastercard/],
      ['/api/payouts', { registrationId: 'nope', amount: '5.00' }, 404, /no saved card/],
      ['/api/reservations/unknown/captures', { amount: '5.00' }, 404, /no such preauthorisation/],
    ] as const) {
      const { status, body } = await call('POST', path, payload);
      assert.equal(status, expected, `${path} ${JSON.stringify(payload)}`);
      assert.match(body.error ?? '', message);
      assert.equal(body.calls, undefined, 'no gateway call was made');
    }
    const { body: references } = await call('GET', '/api/references');
    assert.ok(
      !references.references.some((reference: { merchantTransactionId: string }) => reference.merchantTransactionId.startsWith('card-')),
      'a refused request leaves no reference behind',
    );
    assert.equal((await call('POST', '/api/orders', undefined, '{not json')).status, 400);
    assert.equal((await call('GET', '/api/nowhere')).status, 404);
  });

  test("a return for another checkout than the order's is refused; a forged resourcePath is never fetched", async () => {
    const { body } = await call('POST', '/api/orders', espresso);
    const order = body.order;
    const other = await call(
      'GET',
      `/api/orders/${order.id}/payment?id=0123456789abcdef&resourcePath=/v1/checkouts/0123456789abcdef/payment`,
    );
    assert.equal(other.status, 400);
    const forged = await call(
      'GET',
      `/api/orders/${order.id}/payment?id=${order.checkoutId}&resourcePath=${encodeURIComponent('/v1/payments/../../v3/query')}`,
    );
    assert.equal(forged.body.outcome, 'invalid');
    assert.deepEqual(forged.body.calls, [], 'nothing was sent to the gateway');
  });

  test('a money POST sent again with its Idempotency-Key gets its first answer and calls the gateway once; the key with another request is refused', async () => {
    const hold = { cardNumber: CARDS.approved, amount: '50.00' };
    const { body } = await call('POST', '/api/reservations', hold, undefined, 'hold-key-0001');
    const id = body.reservation.preauthorization.id as string;
    const capture = (key: string, amount = '10.00') => call('POST', `/api/reservations/${id}/captures`, { amount }, undefined, key);
    // A double submission: both at once, then once more after the answer.
    const [first, second] = await Promise.all([capture('capture-key-0001'), capture('capture-key-0001')]);
    const again = await capture('capture-key-0001');
    const answered = [first, second].filter((answer) => answer.status === 200);
    assert.ok(answered.length >= 1, 'one of the two is answered');
    for (const other of [first, second].filter((answer) => answer.status !== 200)) assert.equal(other.status, 409);
    assert.equal(again.status, 200);
    assert.equal(again.replayed, true);
    assert.equal(again.body.payment.id, answered[0]!.body.payment.id, 'the same capture, not a second one');
    assert.deepEqual(again.body.calls, answered[0]!.body.calls, 'the first answer, its calls listed as they were');
    const captures = (await paymentsOfPreauthorization(id)).filter((payment) => payment.paymentType === 'CP');
    assert.equal(captures.length, 1, 'the gateway was asked to capture once');
    assert.equal((await capture('capture-key-0001', '20.00')).status, 422, 'the same key with another amount');
    assert.equal((await capture('x')).status, 400, 'a malformed key');
    assert.equal((await capture('capture-key-0002')).body.payment.paymentType, 'CP', 'a new key is a new capture');
  });

  test("the wallets page's return reads only a checkout that page made: an order's checkout, paid, is refused unread", async () => {
    const { body } = await call('POST', '/api/orders', espresso);
    const { checkoutId } = body.order;
    await payCheckout(checkoutId, CARDS.approved);
    const query = `id=${checkoutId}&resourcePath=${encodeURIComponent(`/v1/checkouts/${checkoutId}/payment`)}`;
    const wallet = await call('GET', `/api/wallets/payment?${query}`);
    assert.equal(wallet.status, 404);
    assert.deepEqual(wallet.body.calls ?? [], [], 'nothing was read from the gateway');
  });

  test('declined, then approved on the same checkout: the result reads each, and the approval lists both attempts', async () => {
    const { body } = await call('POST', '/api/orders', espresso);
    const { id, checkoutId } = body.order;
    const query = `id=${checkoutId}&resourcePath=${encodeURIComponent(`/v1/checkouts/${checkoutId}/payment`)}`;
    await payCheckout(checkoutId, CARDS.declined);
    const declined = await call('GET', `/api/orders/${id}/payment?${query}`);
    assert.equal(declined.body.outcome, 'declined');
    assert.equal(declined.body.payment.resultCode, '800.100.152');
    await payCheckout(checkoutId, CARDS.approved);
    const approved = await call('GET', `/api/orders/${id}/payment?${query}`);
    assert.equal(approved.body.outcome, 'approved');
    assert.equal(approved.body.order.status, 'paid');
    assert.deepEqual(
      approved.body.order.attempts.map((attempt: { kind: string }) => attempt.kind),
      ['declined', 'approved'],
    );
    // A reload is answered from what the server remembered: no third status call inside the gateway's limit.
    const reload = await call('GET', `/api/orders/${id}/payment?${query}`);
    assert.equal(reload.body.outcome, 'approved');
    assert.ok(!reload.body.calls?.some((entry) => entry.path.startsWith(`/v1/checkouts/${checkoutId}`)));
  });

  test('an expired checkout reads as expired, and "start again" opens a new checkout for the same order', async () => {
    const { body } = await call('POST', '/api/orders', espresso);
    const { id, checkoutId } = body.order;
    assert.equal((await call('POST', '/api/sandbox/expire-checkouts')).status, 200);
    const expired = await call(
      'GET',
      `/api/orders/${id}/payment?id=${checkoutId}&resourcePath=${encodeURIComponent(`/v1/checkouts/${checkoutId}/payment`)}`,
    );
    assert.equal(expired.body.outcome, 'expired');
    const again = await call('POST', `/api/orders/${id}/checkout`);
    assert.notEqual(again.body.order.checkoutId, checkoutId);
    assert.equal(again.body.order.status, 'awaiting_payment');
  });

  test('a card payment shows the card number masked and the security code hidden in the call log', async () => {
    const { body } = await call('POST', '/api/card-payments', { cardNumber: CARDS.approved, amount: '10.00' });
    assert.equal(body.outcome, 'approved');
    // The payment POST, whatever look-ups surround it (a caller-chosen merchantTransactionId is looked up before sending).
    const params = body.calls?.find((entry) => entry.method === 'POST')?.params ?? {};
    assert.equal(params['card.number'], '420000******0000');
    assert.equal(params['card.cvv'], '***');
  });

  test('an uncertain outcome is reconciled through the report, never retried, and the log shows how', async () => {
    const { body } = await call('POST', '/api/card-payments', { cardNumber: CARDS.uncertain, amount: '10.00' });
    assert.equal(body.outcome, 'approved');
    const paths = (body.calls ?? []).map((entry) => `${entry.method} ${entry.path.split('?')[0]}`);
    assert.equal(paths.filter((path) => path === 'POST /v1/payments').length, 1, 'the payment was sent once');
    assert.ok(paths.includes('GET /v3/query'), 'the outcome was looked up by merchantTransactionId');
  });

  test("a capture above what is still held is answered as refused with the gateway's code", async () => {
    const held = await call('POST', '/api/reservations', { cardNumber: CARDS.approved, amount: '20.00' });
    const id = held.body.reservation.preauthorization.id;
    const refused = await call('POST', `/api/reservations/${id}/captures`, { amount: '25.00' });
    assert.equal(refused.body.outcome, 'invalid');
    // The platform answers a refused capture as a CP transaction of its own: the page gets it, with the gateway's code.
    assert.equal(refused.body.payment.paymentType, 'CP');
    assert.equal(refused.body.payment.resultCode, '700.400.100');
    assert.equal(refused.body.reservation.capturedAmount, '0.00');
  });

  test('when the gateway cannot be reached, the page gets a 502 with the message and the unanswered call', async () => {
    const unreachable = await startMerchant({
      port: 0,
      gateway: { baseUrl: 'http://127.0.0.1:9', accessToken: 'token', entityId: sandbox.entities[0]! },
    });
    try {
      const response = await fetch(`${unreachable.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(espresso),
      });
      const body = (await response.json()) as Answer['body'];
      assert.equal(response.status, 502);
      assert.match(body.error ?? '', /connection to the gateway failed/);
      assert.equal(body.calls?.[0]?.resultKind, 'no_answer');
    } finally {
      await unreachable.close();
    }
  });
});
