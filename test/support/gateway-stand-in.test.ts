/**
 * The gateway stand-in itself: the model runs and the unit tests trust that a
 * fault does what its name says (whether the gateway processed the request
 * before the answer went wrong), that scripts answer the paths they name, and
 * that its platform part answers as the platform does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANSWER_MAX_BYTES, CHECKOUT_LIFETIME_MS } from '../../src/contract/limits.js';
import { describeResult, NO_PAYMENT_SESSION_DESCRIPTION, RESULT_CODES } from '../../src/contract/result-codes.js';
import { answer, ENTITY, GatewayStandIn, type Fault } from './gateway-stand-in.js';

const BASE = 'https://gateway.test';
const checkoutForm = (fields: Record<string, string> = {}) =>
  new URLSearchParams({ entityId: ENTITY, amount: '10.00', currency: 'EUR', paymentType: 'DB', integrity: 'true', ...fields });

async function createCheckout(gateway: GatewayStandIn, fields: Record<string, string> = {}): Promise<string> {
  const response = await gateway.fetch(`${BASE}/v1/checkouts`, { method: 'POST', body: checkoutForm(fields) });
  const body = (await response.json()) as { id: string; result: { code: string } };
  assert.equal(body.result.code, RESULT_CODES.checkoutCreated);
  return body.id;
}

const readStatus = async (gateway: GatewayStandIn, id: string, entityId = ENTITY) => {
  const response = await gateway.fetch(`${BASE}/v1/checkouts/${id}/payment?entityId=${entityId}`);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

describe('gateway stand-in: faults', () => {
  const processedBy: Record<Fault, boolean> = {
    drop: false,
    outage: false,
    hang: false,
    lose: true,
    'bad-gateway': true,
    huge: true,
    endless: true,
    malformed: true,
    'mixed-up': true,
  };
  for (const [fault, processed] of Object.entries(processedBy) as [Fault, boolean][]) {
    test(`${fault}: the checkout is ${processed ? '' : 'not '}made`, async () => {
      const gateway = new GatewayStandIn().fault(fault);
      const controller = new AbortController();
      const outcome = gateway
        .fetch(`${BASE}/v1/checkouts`, { method: 'POST', body: checkoutForm(), signal: controller.signal })
        .then(async (response) => ({ status: response.status, response }))
        .catch((error: unknown) => ({ error }));
      if (fault === 'hang') setTimeout(() => controller.abort(new Error('time limit')), 5);
      const settled = await outcome;
      assert.equal(gateway.platform.checkouts.size, processed ? 1 : 0);
      assert.equal(gateway.calls.length, 1);
      // With no transaction answered before, a mixed-up answer is a lost one.
      if (fault === 'drop' || fault === 'lose' || fault === 'mixed-up') assert.ok('error' in settled && settled.error instanceof TypeError);
      if (fault === 'hang') assert.ok('error' in settled && (settled.error as Error).message === 'time limit');
      if (fault === 'outage') assert.ok('status' in settled && settled.status === 503);
      if (fault === 'bad-gateway') assert.ok('status' in settled && settled.status === 502);
      if (fault === 'huge') {
        assert.ok('response' in settled);
        assert.ok((await settled.response.arrayBuffer()).byteLength > ANSWER_MAX_BYTES);
      }
      if (fault === 'endless') {
        assert.ok('response' in settled);
        const reader = settled.response.body!.getReader();
        let bytes = 0;
        while (bytes <= 4 * ANSWER_MAX_BYTES) bytes += (await reader.read()).value!.byteLength;
        await reader.cancel();
      }
      if (fault === 'malformed') {
        assert.ok('response' in settled);
        const text = await settled.response.text();
        assert.throws(() => JSON.parse(text));
      }
      // A fault is for one call: the next is answered.
      const next = await gateway.fetch(`${BASE}/v1/checkouts`, { method: 'POST', body: checkoutForm() });
      assert.equal(next.status, 200);
    });
  }

  test("mixed-up: processed, and answered with the last transaction answered to another path (another request's)", async () => {
    const gateway = new GatewayStandIn();
    const first = await createCheckout(gateway);
    gateway.fault('mixed-up');
    // Nothing answered to another path yet: lost, after processing.
    await assert.rejects(gateway.fetch(`${BASE}/v1/checkouts`, { method: 'POST', body: checkoutForm() }), TypeError);
    assert.equal(gateway.platform.checkouts.size, 2);
    gateway.fault('mixed-up');
    const read = await readStatus(gateway, first);
    // The second checkout's creation (the last transaction answered to another path), answered to the first's status read.
    assert.deepEqual(read.body.id, [...gateway.platform.checkouts.keys()][1]);
    assert.notEqual(read.body.id, first);
  });

  test('a fault waits for the call its method and path name', async () => {
    const gateway = new GatewayStandIn().fault('outage', { method: 'GET', path: /^\/v3\/query/ });
    const id = await createCheckout(gateway);
    assert.equal((await readStatus(gateway, id)).status, 200);
    const report = await gateway.fetch(`${BASE}/v3/query?entityId=${ENTITY}&merchantTransactionId=none`);
    assert.equal(report.status, 503);
    assert.equal(gateway.faults.length, 0);
  });
});

describe('gateway stand-in: scripts and recorded requests', () => {
  test('a script for a method and path comes before the stand-in script; every request is recorded', async () => {
    const gateway = new GatewayStandIn({ script: () => ({ status: 200, body: answer(RESULT_CODES.approved) }) });
    gateway.on('GET', '/v1/payments/x1', () => ({ raw: 'not json', status: 500 }));
    const scripted = await gateway.fetch(`${BASE}/v1/payments/x1?entityId=${ENTITY}`, { headers: { authorization: 'Bearer t' } });
    assert.equal(await scripted.text(), 'not json');
    const other = await gateway.fetch(`${BASE}/v1/payments/x10`, { method: 'POST', body: 'amount=1.00' });
    assert.deepEqual(await other.json(), answer(RESULT_CODES.approved));
    assert.deepEqual(
      gateway.calls.map(({ method, path, params, entityId, authorization }) => ({ method, path, params, entityId, authorization })),
      [
        { method: 'GET', path: '/v1/payments/x1', params: { entityId: ENTITY }, entityId: ENTITY, authorization: 'Bearer t' },
        { method: 'POST', path: '/v1/payments/x10', params: { amount: '1.00' }, entityId: undefined, authorization: '' },
      ],
    );
    assert.equal(gateway.posts().length, 1);
  });

  test("answer() writes the contract's description of a code, and the platform's envelope", () => {
    const written = answer(RESULT_CODES.throttled);
    assert.equal(written.result.description, describeResult(RESULT_CODES.throttled));
    assert.match(written.buildNumber, /^[0-9a-f]{40}@\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000$/);
    assert.match(written.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    assert.match(written.ndc, /^[A-Za-z0-9]{32}_[0-9a-f]{32}$/);
  });
});

describe("gateway stand-in: the platform's part", () => {
  test('a paid checkout answers its payment once, then no payment session; its report entry has no ndc', async () => {
    const clock = { now: 1_800_000_000_000 };
    const gateway = new GatewayStandIn({ now: () => clock.now });
    const id = await createCheckout(gateway, { merchantTransactionId: 'order-1', 'customParameters[note]': 'kept' });
    assert.match(id, /^[0-9A-F]{32}\.[a-z0-9]+-vm-tx\d{2}$/);
    assert.equal((await readStatus(gateway, id)).body.result.code, RESULT_CODES.pending);
    assert.equal((await readStatus(gateway, id, '8ac7a4c97d3a11e4017d3b3bd5f712a5')).status, 403);
    const paid = gateway.platform.pay(id)!;
    const first = await readStatus(gateway, id);
    assert.equal(first.body.id, paid.id);
    assert.equal(first.body.ndc, id);
    const again = await readStatus(gateway, id);
    assert.equal(again.status, 400);
    assert.equal(again.body.result.description, NO_PAYMENT_SESSION_DESCRIPTION);
    const report = await gateway.fetch(`${BASE}/v3/query?entityId=${ENTITY}&merchantTransactionId=order-1`);
    const { payments } = (await report.json()) as { payments: Record<string, unknown>[] };
    assert.equal(payments.length, 1);
    assert.equal(payments[0]!.ndc, undefined);
    assert.deepEqual(payments[0]!.customParameters, { note: 'kept' });
  });

  test("an unpaid checkout ends after the contract's lifetime; an open 3-D Secure attempt times out after its own", async () => {
    const clock = { now: 1_800_000_000_000 };
    const gateway = new GatewayStandIn({ now: () => clock.now });
    const unpaid = await createCheckout(gateway);
    const challenged = await createCheckout(gateway);
    gateway.platform.pay(challenged, 'challenge');
    clock.now += CHECKOUT_LIFETIME_MS;
    assert.equal((await readStatus(gateway, unpaid)).body.result.description, NO_PAYMENT_SESSION_DESCRIPTION);
    assert.equal(gateway.platform.ofCheckout(challenged)[0]!.code, RESULT_CODES.pendingTimedOut);
  });
});
