/**
 * The client's request/response hooks against the real sandbox: one event pair
 * per attempt of every gateway call (checkouts, payments, a lost answer and its
 * look-ups, a retried GET), never a secret in any event, and nothing a hook
 * does (throw, reject, try to edit the event) changes what is sent or the outcome.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { loggedClient } from '../../docs/examples/server/call-log.js';
import { isApproved, outcomeOf, type GatewayRequestEvent, type GatewayResponseEvent } from '../../src/server/index.js';
import { card, CARDS, cardPayment, clientFor, control, orderId, payInWidget, useSandbox } from './fixtures.js';

const context = useSandbox();

/** A client whose hooks record every event. */
function observedClient(options: Parameters<typeof clientFor>[1] = {}) {
  const requests: GatewayRequestEvent[] = [];
  const responses: GatewayResponseEvent[] = [];
  const made = clientFor(context.sandbox, {
    onRequest: (event) => void requests.push(event),
    onResponse: (event) => void responses.push(event),
    ...options,
  });
  return { ...made, requests, responses };
}

const summary = (events: readonly GatewayResponseEvent[]) =>
  events.map(({ method, path, attempt, httpStatus, resultCode, failure }) => ({ method, path, attempt, httpStatus, resultCode, failure }));

describe('request/response hooks', () => {
  test('a checkout: its creation and its status read, each one attempt with status, result code and duration', async () => {
    const { client, requests, responses } = observedClient();
    const created = await client.checkouts.create({
      amount: '12.00',
      currency: 'EUR',
      paymentType: 'DB',
      merchantTransactionId: orderId('hooked'),
    });
    await payInWidget(context.sandbox, created.id);
    const payment = await client.checkouts.getPayment(created.id);
    assert.deepEqual(summary(responses), [
      { method: 'POST', path: '/v1/checkouts', attempt: 1, httpStatus: 200, resultCode: created.result.code, failure: undefined },
      {
        method: 'GET',
        path: `/v1/checkouts/${created.id}/payment`,
        attempt: 1,
        httpStatus: 200,
        resultCode: payment.result.code,
        failure: undefined,
      },
    ]);
    assert.deepEqual(
      requests,
      responses.map(({ method, path, attempt, params }) => ({ method, path, attempt, params })),
    );
    assert.equal(requests[0]!.params.amount, '12.00');
    assert.equal(requests[0]!.params.entityId, context.sandbox.entities[0]);
    for (const event of responses) assert.ok(event.durationMs >= 0 && Number.isFinite(event.durationMs));
  });

  test('a payment: the card number masked, the security code and the token absent', async () => {
    const { client, responses } = observedClient();
    const payment = await client.payments.create(cardPayment({ merchantTransactionId: orderId('hooked') }));
    assert.equal(responses.length, 1);
    const [event] = responses;
    assert.equal(event!.resultCode, payment.result.code);
    assert.equal(event!.params['card.number'], '420000******0000');
    assert.equal(event!.params['card.cvv'], '***');
    assert.equal(event!.params['card.holder'], 'Jane Jones');
    assert.doesNotMatch(JSON.stringify(event), new RegExp(`${CARDS.approved}|${context.sandbox.tokens[0]}`));
  });

  test('a lost answer: the failed POST, then the look-ups that reconcile it', async () => {
    const { client, responses } = observedClient();
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
    const merchantTransactionId = orderId('hooked-drop');
    const payment = await client.payments.create(cardPayment({ merchantTransactionId }));
    assert.ok(isApproved(payment.result.code));
    const [post, ...lookups] = responses;
    assert.deepEqual(summary([post!]), [
      { method: 'POST', path: '/v1/payments', attempt: 1, httpStatus: undefined, resultCode: undefined, failure: 'GatewayNetworkError' },
    ]);
    assert.ok(lookups.length >= 1);
    for (const lookup of lookups) {
      assert.equal(lookup.path, '/v3/query');
      assert.equal(lookup.params.merchantTransactionId, merchantTransactionId);
      assert.equal(lookup.params['card.number'], undefined);
    }
    assert.ok(isApproved(lookups.at(-1)!.resultCode ?? ''), 'the last look-up found the payment');
  });

  test('a retried GET: one event per attempt, numbered', async () => {
    const { client, recorder, responses } = observedClient();
    const payment = await client.payments.create(cardPayment({ merchantTransactionId: orderId('hooked-get') }));
    responses.length = 0;
    recorder.failNext(1);
    await client.payments.get(payment.id);
    assert.deepEqual(summary(responses), [
      {
        method: 'GET',
        path: `/v1/payments/${payment.id}`,
        attempt: 1,
        httpStatus: undefined,
        resultCode: undefined,
        failure: 'GatewayNetworkError',
      },
      {
        method: 'GET',
        path: `/v1/payments/${payment.id}`,
        attempt: 2,
        httpStatus: 200,
        resultCode: payment.result.code,
        failure: undefined,
      },
    ]);
  });

  test('a throwing, rejecting or editing hook changes neither what is sent nor the outcome', async () => {
    let calls = 0;
    const hostile = {
      onRequest(event: GatewayRequestEvent) {
        calls++;
        (event.params as Record<string, string>)['card.number'] = '4000000000000002';
        throw new Error('logging is down');
      },
      async onResponse() {
        calls++;
        throw new Error('metrics are down');
      },
    };
    const cases = [CARDS.approved, CARDS.declined, CARDS.uncertain];
    for (const number of cases) {
      const quiet = clientFor(context.sandbox);
      const loud = clientFor(context.sandbox, hostile);
      const [plain, hooked] = await Promise.all(
        [quiet, loud].map(({ client }) =>
          client.payments.create(cardPayment({ merchantTransactionId: orderId('hostile'), card: card(number) })).then(outcomeOf, outcomeOf),
        ),
      );
      assert.equal(hooked!.kind, plain!.kind, number);
      assert.equal(hooked!.resultCode, plain!.resultCode, number);
      const sent = new URLSearchParams(loud.recorder.posts()[0]!.body);
      assert.equal(sent.get('card.number'), number, 'the hook could not edit the sent form');
    }
    assert.ok(calls >= cases.length * 2);
  });
});

/** A Luhn-valid card number: the shape every scrubbing layer must catch. */
const luhnCard = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 17 }).map((digits) => {
  const body = [4, ...digits];
  const sum = body
    .slice()
    .reverse()
    .reduce((total, digit, index) => total + (index % 2 === 0 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return body.join('') + String((10 - (sum % 10)) % 10);
});

test('the README example logs one safe line per attempt', async () => {
  const lines: string[] = [];
  const observed: GatewayResponseEvent[] = [];
  const { sandbox } = context;
  const client = loggedClient(
    { baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! },
    (line) => lines.push(line),
    (event) => observed.push(event),
  );
  const payment = await client.payments.create(cardPayment({ merchantTransactionId: orderId('logged') }));
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, new RegExp(`^POST /v1/payments #1 → 200 ${payment.result.code.replaceAll('.', '\\.')} in \\d+ ms \\{`));
  assert.ok(lines[0]!.includes('"card.number":"420000******0000"') && !lines[0]!.includes(CARDS.approved));
  assert.equal(observed.length, 1);
});

describe('no secret in any event', () => {
  test('planted card numbers, security codes and tokens never appear, whatever the path (answered, lost and reconciled)', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        luhnCard,
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(n > 999 ? 4 : 3, '0')),
        fc.stringMatching(/^[A-Za-z0-9]{24,48}$/),
        fc.boolean(),
        async (number, cvv, token, lose) => {
          const events: GatewayResponseEvent[] = [];
          const sandboxToken = context.sandbox.tokens[0]!;
          // The client holds the planted token; on its way out it becomes the one the sandbox knows.
          const { client } = clientFor(context.sandbox, {
            accessToken: token,
            onResponse: (event) => void events.push(event),
            fetch: (input, init) =>
              fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${sandboxToken}` } }),
          });
          if (lose) await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
          const request = cardPayment({ merchantTransactionId: orderId('canary'), card: { ...card(number), cvv } });
          await client.payments.create(request).then(outcomeOf, outcomeOf);
          runs++;
          assert.ok(events.length >= 1);
          const text = JSON.stringify(events);
          assert.ok(!text.includes(number), 'card number');
          assert.ok(!text.includes(token), 'token');
          for (const event of events) {
            for (const [name, value] of Object.entries(event.params))
              assert.ok(name === 'card.cvv' ? value === '***' : value !== cvv, `security code in ${name}`);
          }
        },
      ),
      { numRuns: 30 },
    );
    assert.equal(runs, 30);
  });
});
