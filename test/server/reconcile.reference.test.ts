/**
 * One round trip per payment, and reconciliation by the request's own
 * reference: every money-moving request carries `customParameters[GW_REFERENCE]`
 * (a random id the platform returns in report entries), nothing is read before
 * sending, and after a lost answer the report entry carrying that reference is
 * the lost transaction. Entries without it fall back to the field rules, which
 * can prove an entry new only under a merchantTransactionId the client generated.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REQUEST_REFERENCE } from '../../src/contract/reference.js';
import { isApproved, UncertainOutcomeError, type Payment } from '../../src/server/index.js';
import { answer, standInClient, type GatewayRequest } from '../support/gateway-stand-in.js';
import { card, CARDS, cardPayment } from './fixtures.js';

const REFERENCE_FIELD = `customParameters[${REQUEST_REFERENCE}]`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A report entry as the platform lists it: the request's fields, its custom parameters, a result. */
function entry(
  id: string,
  post: GatewayRequest,
  fields: Partial<Payment> = {},
  customParameters?: Record<string, string>,
): Record<string, unknown> {
  const number = post.form.get('card.number') ?? '';
  return {
    id,
    paymentType: post.form.get('paymentType'),
    paymentBrand: post.form.get('paymentBrand'),
    amount: post.form.get('amount'),
    currency: post.form.get('currency'),
    merchantTransactionId: post.form.get('merchantTransactionId'),
    result: { code: '000.100.110', description: "Request successfully processed in 'Merchant in Integrator Test Mode'" },
    card: { bin: number.slice(0, 6), last4Digits: number.slice(-4) },
    ...(customParameters ? { customParameters } : {}),
    timestamp: '2026-11-23 10:00:00.000+0000',
    ...fields,
  };
}

const list = (payments: unknown[]) => ({ status: 200, body: answer('000.000.100', { payments }, 'successful request') });
const notFound = { status: 400, body: answer('700.400.580', {}, 'cannot find transaction') };
const dropped = () => {
  throw new TypeError('fetch failed');
};

describe('one round trip per payment', () => {
  test('a payment with a merchant-chosen merchantTransactionId is one request, carrying a fresh reference', async () => {
    const { client, calls } = standInClient((call) => ({
      status: 200,
      body: answer('000.100.110', entry('8ac7a4a17000000000000000000000b1', call)),
    }));
    await client.payments.create(cardPayment({ merchantTransactionId: 'order-1001' }));
    await client.payments.create(cardPayment({ merchantTransactionId: 'order-1001' }));
    assert.deepEqual(
      calls.map((call) => call.method),
      ['POST', 'POST'],
      'no report read before sending',
    );
    const [first, second] = calls.map((call) => call.form.get(REFERENCE_FIELD) ?? '');
    assert.match(first!, UUID);
    assert.match(second!, UUID);
    assert.notEqual(first, second, 'each request its own reference');
  });

  test("a caller's own GW_REFERENCE is replaced: the reference is always the client's fresh one", async () => {
    const { client, calls } = standInClient((call) => ({
      status: 200,
      body: answer('000.100.110', entry('8ac7a4a17000000000000000000000b2', call)),
    }));
    await client.payments.create(cardPayment({ customParameters: { [REQUEST_REFERENCE]: 'reused' } }));
    assert.match(calls[0]!.form.get(REFERENCE_FIELD)!, UUID);
  });
});

describe('reconciliation: exact by reference, fields only as the fallback', () => {
  test('exact: among identical transactions under a caller-chosen id, the one carrying the reference is the lost one', async () => {
    let post: GatewayRequest | undefined;
    const { client, calls } = standInClient((call) => {
      if (call.method === 'POST') {
        post = call;
        return dropped();
      }
      // An earlier attempt with the same fields under the same id (another reference), and the lost one.
      return list([
        entry(
          '8ac7a4a17000000000000000000000c1',
          post!,
          {},
          { [REQUEST_REFERENCE]: 'd2a1c6a4-0000-4000-8000-000000000001', CTPE_DESCRIPTOR_TEMPLATE: '' },
        ),
        entry(
          '8ac7a4a17000000000000000000000c2',
          post!,
          {},
          { [REQUEST_REFERENCE]: post!.form.get(REFERENCE_FIELD)!, CTPE_DESCRIPTOR_TEMPLATE: '' },
        ),
      ]);
    });
    const payment = await client.payments.create(cardPayment({ merchantTransactionId: 'order-2002' }));
    assert.equal(payment.id, '8ac7a4a17000000000000000000000c2');
    assert.ok(isApproved(payment.result.code));
    assert.equal(calls.length, 2, 'the POST and one look-up');
  });

  test('exact: an entry with another reference is never taken, however well its fields match', async () => {
    let post: GatewayRequest | undefined;
    const { client } = standInClient((call) => {
      if (call.method === 'POST') {
        post = call;
        return dropped();
      }
      return list([entry('8ac7a4a17000000000000000000000c3', post!, {}, { [REQUEST_REFERENCE]: 'd2a1c6a4-0000-4000-8000-000000000002' })]);
    });
    // A generated merchantTransactionId would let the field rules match; the foreign reference overrules them.
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof UncertainOutcomeError, String(error));
  });

  test('exact: the entry carrying the reference but other terms (amount, currency) is not taken as this payment', async () => {
    for (const terms of [{ amount: '50.00' }, { currency: 'USD' }, { amount: '0.01', currency: 'JPY' }] as Partial<Payment>[]) {
      let post: GatewayRequest | undefined;
      const { client } = standInClient((call) => {
        if (call.method === 'POST') {
          post = call;
          // The answer itself carries the reference and the other terms: refused as another request's, then looked up.
          return {
            status: 200,
            body: entry('8ac7a4a17000000000000000000000c5', call, terms, { [REQUEST_REFERENCE]: call.form.get(REFERENCE_FIELD)! }),
          };
        }
        return list([entry('8ac7a4a17000000000000000000000c5', post!, terms, { [REQUEST_REFERENCE]: post!.form.get(REFERENCE_FIELD)! })]);
      });
      const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
      assert.ok(error instanceof UncertainOutcomeError, `${JSON.stringify(terms)}: ${String(error)}`);
    }
  });

  test('fallback: an entry without the reference, under a generated merchantTransactionId, is matched by its fields', async () => {
    let post: GatewayRequest | undefined;
    const { client } = standInClient((call) => {
      if (call.method === 'POST') {
        post = call;
        return dropped();
      }
      return list([entry('8ac7a4a17000000000000000000000c4', post!)]);
    });
    const payment = await client.payments.create(cardPayment());
    assert.equal(payment.id, '8ac7a4a17000000000000000000000c4');
  });

  test('fallback: an entry without the reference that differs in a field is not the lost one', async () => {
    let post: GatewayRequest | undefined;
    const { client } = standInClient((call) => {
      if (call.method === 'POST') {
        post = call;
        return dropped();
      }
      return list([entry('8ac7a4a17000000000000000000000c5', post!, { amount: '99.99' })]);
    });
    const error = await client.payments.create(cardPayment({ card: card(CARDS.approved) })).catch((caught: unknown) => caught);
    assert.ok(error instanceof UncertainOutcomeError, String(error));
  });

  test('fallback: under a caller-chosen merchantTransactionId an entry without the reference cannot be proved new: uncertain', async () => {
    let post: GatewayRequest | undefined;
    const { client } = standInClient((call) => {
      if (call.method === 'POST') {
        post = call;
        return dropped();
      }
      return list([entry('8ac7a4a17000000000000000000000c6', post!)]);
    });
    const error = await client.payments.create(cardPayment({ merchantTransactionId: 'order-3003' })).catch((caught: unknown) => caught);
    assert.ok(error instanceof UncertainOutcomeError, String(error));
    assert.equal(error.merchantTransactionId, 'order-3003');
  });

  test('captures carry their own reference, so a second partial capture is never taken for the first', async () => {
    let post: GatewayRequest | undefined;
    const { client } = standInClient((call) => {
      if (call.method === 'POST') {
        post = call;
        return dropped();
      }
      if (!post) return notFound;
      const first = entry(
        '8ac7a4a17000000000000000000000d1',
        post,
        { referencedId: '8ac7a4a17000000000000000000000aa' },
        { [REQUEST_REFERENCE]: 'd2a1c6a4-0000-4000-8000-000000000003' },
      );
      const lost = entry(
        '8ac7a4a17000000000000000000000d2',
        post,
        { referencedId: '8ac7a4a17000000000000000000000aa' },
        { [REQUEST_REFERENCE]: post.form.get(REFERENCE_FIELD)! },
      );
      return list([first, lost]);
    });
    const capture = await client.payments.capture('8ac7a4a17000000000000000000000aa', {
      amount: '50.00',
      currency: 'EUR',
      merchantTransactionId: 'order-4004',
    });
    assert.equal(capture.id, '8ac7a4a17000000000000000000000d2');
  });
});
