/**
 * Issue 12, classes 1 and 3, as an attacker of the client's reconciliation
 * would try them: after a lost answer the client must never take another
 * transaction for the lost one, and a found payment nobody can finish must be
 * an explicit, typed outcome. Against the real sandbox with its fault controls,
 * and as a property over arbitrary report lists through the gateway stand-in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  GatewayDeclinedError,
  GatewayError,
  isApproved,
  outcomeOf,
  StrandedPaymentError,
  UncertainOutcomeError,
  type Payment,
} from '../../src/server/index.js';
import { card, CARDS, cardPayment, clientFor, control, orderId, useSandbox } from '../server/fixtures.js';
import { answer, PAYMENT_ID, standInClient } from '../support/gateway-stand-in.js';
import { propertyRuns } from '../support/property-runs.js';

const context = useSandbox();

describe('class 1: reconciliation never takes another transaction for the lost one (sandbox)', () => {
  test('a second partial capture under the same merchantTransactionId hangs: the first capture is not its outcome', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const preauthorization = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '100.00' }));
    const merchantTransactionId = orderId('captures');
    const first = await client.payments.capture(preauthorization.id, { amount: '50.00', currency: 'EUR', merchantTransactionId });
    assert.ok(isApproved(first.result.code));
    await control(context.sandbox, 'faults', { path: `/v1/payments/${preauthorization.id}`, mode: 'hang', count: '1' });
    const second = await client.payments
      .capture(preauthorization.id, { amount: '50.00', currency: 'EUR', merchantTransactionId }, { timeoutMs: 150 })
      .catch((caught: unknown) => caught);
    assert.ok(second instanceof UncertainOutcomeError, `the first capture was taken for the second: ${JSON.stringify(second)}`);
    assert.equal(second.merchantTransactionId, merchantTransactionId);
    assert.equal(recorder.posts().length, 3, 'PA and two captures, none re-sent');
    assert.equal(outcomeOf(second).kind, 'uncertain');
  });

  test('the same capture dropped after the gateway recorded it is found: the new capture, not the first', async () => {
    const { client } = clientFor(context.sandbox);
    const preauthorization = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '100.00' }));
    const merchantTransactionId = orderId('captures-drop');
    const first = await client.payments.capture(preauthorization.id, { amount: '50.00', currency: 'EUR', merchantTransactionId });
    await control(context.sandbox, 'faults', { path: `/v1/payments/${preauthorization.id}`, mode: 'drop', count: '1' });
    const second = await client.payments.capture(preauthorization.id, { amount: '50.00', currency: 'EUR', merchantTransactionId });
    assert.notEqual(second.id, first.id);
    assert.equal(second.referencedId, preauthorization.id);
    const { payments } = await client.reports.findByMerchantTransactionId(merchantTransactionId);
    assert.deepEqual(
      payments
        .filter((payment) => payment.paymentType === 'CP')
        .map((payment) => payment.id)
        .sort(),
      [first.id, second.id].sort(),
    );
  });

  test('a debit whose answer was lost, under an id reused from a declined attempt with another card, is not the decline', async () => {
    const { client } = clientFor(context.sandbox);
    const merchantTransactionId = orderId('reused-drop');
    await assert.rejects(client.payments.create(cardPayment({ merchantTransactionId, card: card(CARDS.declined) })), GatewayDeclinedError);
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
    const payment = await client.payments.create(cardPayment({ merchantTransactionId }));
    assert.ok(isApproved(payment.result.code), 'the approved retry is found, not the earlier decline');
    assert.equal(payment.card?.last4Digits, CARDS.approved.slice(-4));
  });
});

describe('class 3: a found payment nobody can finish is explicit', () => {
  test('a 3-D Secure payment whose answer (with the redirect) was dropped: StrandedPaymentError, never a pending Payment', async () => {
    const { client } = clientFor(context.sandbox);
    await control(context.sandbox, 'faults', { path: '/v1/payments', mode: 'drop', count: '1' });
    const merchantTransactionId = orderId('stranded');
    const error = await client.payments
      .create(
        cardPayment({
          merchantTransactionId,
          card: card(CARDS.challenge),
          shopperResultUrl: 'https://shop.example/return',
          billing: { street1: 'Main 1', city: 'Wien', country: 'AT', postcode: '1010' },
        }),
      )
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof StrandedPaymentError, `a pending payment without its redirect came back as ${String(error)}`);
    assert.equal(error.merchantTransactionId, merchantTransactionId);
    assert.match(error.payment.id, /^[0-9a-f]{32}$/);
    assert.match(error.payment.result.code, /^000\.200/);
    const outcome = outcomeOf(error);
    assert.equal(outcome.kind, 'stranded');
    assert.equal(outcome.retryable, true, 'nobody can complete it: a new attempt is safe');
  });

  test("a payment waiting for the shopper's 3-D Secure step without its redirect, from the POST or the look-up, is stranded; with no step possible it is pending", async () => {
    const threeDs = cardPayment({
      shopperResultUrl: 'https://shop.example/return',
      billing: { street1: 'Main 1', city: 'Wien', country: 'AT', postcode: '1010' },
    });
    for (const [lost, request] of [
      [true, threeDs],
      [false, threeDs],
      [true, cardPayment()],
      [false, cardPayment()],
    ] as const) {
      let pending = {};
      const { client } = standInClient((call) => {
        if (call.method === 'POST') {
          pending = answer('000.200.000', {
            id: PAYMENT_ID,
            paymentType: 'DB',
            amount: '92.00',
            currency: 'EUR',
            merchantTransactionId: call.form.get('merchantTransactionId'),
          });
          if (lost) throw new TypeError('fetch failed');
          return { status: 200, body: pending };
        }
        return { status: 200, body: answer('000.000.000', { payments: [pending] }) };
      });
      const outcome = await client.payments.create(request).catch((caught: unknown) => caught);
      if (request === threeDs) assert.ok(outcome instanceof StrandedPaymentError, String(outcome));
      else assert.equal((outcome as Payment).id, PAYMENT_ID, `no shopper step was possible: ${String(outcome)}`);
    }
  });
});

// A lost request, and the arbitrary transactions a report may list around it.
const PA = PAYMENT_ID;
const OTHER = '8ac7a4a17000000000000000000000bb';
const KNOWN_CARD = CARDS.approved;
const codes = fc.constantFrom('000.000.000', '000.100.110', '800.100.152', '000.200.000', '900.100.300', '100.400.500', '999.999.999');
const kinds = ['capture', 'refund', 'reverse', 'debit', 'registration'] as const;
type Kind = (typeof kinds)[number];
const typeOf: Record<Kind, string> = { capture: 'CP', refund: 'RF', reverse: 'RV', debit: 'DB', registration: 'DB' };

const transaction = (merchantTransactionId: string) =>
  fc.record(
    {
      paymentType: fc.constantFrom('DB', 'PA', 'CP', 'RF', 'RV'),
      amount: fc.constantFrom('50.00', '50.0', '25.00', undefined),
      currency: fc.constantFrom('EUR', 'USD', undefined),
      referencedId: fc.constantFrom(PA, OTHER, undefined),
      registrationId: fc.constantFrom(PA, OTHER, undefined),
      card: fc.constantFrom(
        { bin: KNOWN_CARD.slice(0, 6), last4Digits: KNOWN_CARD.slice(-4) },
        { bin: '400000', last4Digits: '0002' },
        undefined,
      ),
      merchantTransactionId: fc.constantFrom(merchantTransactionId, 'someone-else'),
      code: codes,
    },
    { requiredKeys: ['paymentType', 'merchantTransactionId', 'code'] },
  );

let ids = 0;
const nextId = () => (++ids).toString(16).padStart(32, 'c');

function build(fields: Record<string, unknown>): Payment {
  const { code, ...rest } = fields;
  return answer(code as string, {
    id: nextId(),
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
  }) as unknown as Payment;
}

async function send(client: ReturnType<typeof standInClient>['client'], kind: Kind, merchantTransactionId: string | undefined) {
  const reference = { amount: '50.00', currency: 'EUR', ...(merchantTransactionId ? { merchantTransactionId } : {}) };
  switch (kind) {
    case 'capture':
      return client.payments.capture(PA, reference);
    case 'refund':
      return client.payments.refund(PA, reference);
    case 'reverse':
      return client.payments.reverse(PA, merchantTransactionId ? { merchantTransactionId } : {});
    case 'debit':
      return client.payments.create(cardPayment({ amount: '50.00', ...(merchantTransactionId ? { merchantTransactionId } : {}) }));
    case 'registration':
      return client.registrations.createPayment(PA, {
        paymentType: 'DB',
        amount: '50.00',
        currency: 'EUR',
        paymentBrand: 'VISA',
        ...(merchantTransactionId ? { merchantTransactionId } : {}),
      });
  }
}

/** What the lost request determined, as the strictest reading: every determined field present and equal. */
function certainlyIt(payment: Payment, kind: Kind, merchantTransactionId: string, chosen: boolean): boolean {
  const strict = (actual: string | undefined, expected: string) =>
    chosen ? actual === expected : actual === undefined || actual === expected;
  if (payment.merchantTransactionId !== merchantTransactionId || payment.paymentType !== typeOf[kind]) return false;
  if (kind !== 'reverse' && !(payment.amount === '50.00' || payment.amount === '50.0')) return false;
  if (kind !== 'reverse' && payment.currency !== 'EUR') return false;
  if (['capture', 'refund', 'reverse'].includes(kind) && !strict(payment.referencedId, PA)) return false;
  if (kind === 'registration' && !strict(payment.registrationId, PA)) return false;
  if (kind === 'debit' && !(strict(payment.card?.bin, KNOWN_CARD.slice(0, 6)) && strict(payment.card?.last4Digits, KNOWN_CARD.slice(-4))))
    return false;
  return true;
}

describe('class 1, as a property: whatever the report lists, the client answers the lost transaction or UncertainOutcomeError', () => {
  test('arbitrary transactions before and after the lost request, caller-chosen or generated merchantTransactionId', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...kinds),
        fc.boolean(),
        fc.constantFrom('network', 'uncertain-code', 'garbage'),
        fc.array(transaction('chosen-id'), { maxLength: 3 }),
        fc.array(transaction('chosen-id'), { maxLength: 3 }),
        async (kind, chosen, loss, existing, created) => {
          let sentId = '';
          const before = existing.map(build);
          let after: Payment[] = [];
          const { client, posts } = standInClient((call) => {
            if (call.method === 'POST') {
              sentId = call.form.get('merchantTransactionId')!;
              // Generated ids are fresh: only transactions this request made can carry them.
              after = created.map((fields) =>
                build({ ...fields, merchantTransactionId: fields.merchantTransactionId === 'chosen-id' ? sentId : 'someone-else' }),
              );
              if (loss === 'network') throw new TypeError('fetch failed');
              if (loss === 'garbage') return { raw: '<html>502 Bad Gateway</html>', status: 502 };
              return { status: 504, body: answer('900.100.300') };
            }
            const listed = [...(chosen ? before : []), ...after].filter(
              (payment) => payment.merchantTransactionId === call.url.searchParams.get('merchantTransactionId'),
            );
            return listed.length
              ? { status: 200, body: answer('000.000.000', { payments: listed }) }
              : { status: 400, body: answer('700.400.580') };
          });
          const result = await send(client, kind, chosen ? 'chosen-id' : undefined).catch((caught: unknown) => caught);
          assert.equal(posts().length, 1, 'sent once');
          if (result instanceof UncertainOutcomeError) return;
          const taken = result instanceof GatewayError ? result.payment : (result as Payment);
          assert.ok(result instanceof GatewayError || !(result instanceof Error), `untyped ${String(result)}`);
          assert.ok(taken, 'a decided outcome names its transaction');
          assert.ok(
            after.some((payment) => payment.id === taken.id),
            `took a transaction that existed before the request: ${taken.id}`,
          );
          assert.ok(
            certainlyIt(taken, kind, sentId, chosen),
            `took a transaction that does not match the request: ${JSON.stringify(taken)}`,
          );
          assert.equal(
            after.filter((payment) => certainlyIt(payment, kind, sentId, chosen)).length,
            1,
            'decided although another transaction could be it',
          );
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
