/**
 * Reconciliation rule by rule, deterministically, over the gateway stand-in (no
 * network, no sleeps): each case holds one rule of `src/server/reconcile.ts`
 * that takes — or refuses to take — a report entry for a payment whose answer
 * was lost. These are the fixed cases beside the reconciliation property in
 * test/adversarial/client-reconcile.test.ts, and what the mutation run of
 * reconcile.ts (stryker/targets.mjs) measures.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REQUEST_REFERENCE } from '../../src/contract/reference.js';
import { movePayment, queryPayments } from '../../src/server/reconcile.js';
import { createTransport } from '../../src/server/request.js';
import {
  GatewayAuthenticationError,
  GatewayDeclinedError,
  GatewayNetworkError,
  GatewayThrottledError,
  outcomeOf,
  StrandedPaymentError,
  UncertainOutcomeError,
  type Payment,
} from '../../src/server/index.js';
import {
  answer,
  ENTITY,
  GatewayStandIn,
  standInClient,
  TOKEN,
  type GatewayRequest,
  type ScriptedAnswer,
} from '../support/gateway-stand-in.js';
import { billing, card, CARDS, cardPayment } from './fixtures.js';

const REFERENCE_FIELD = `customParameters[${REQUEST_REFERENCE}]`;
const APPROVED = '000.100.110';
const REFERENCE_ID = '8ac7a4a17000000000000000000000aa';

/** A report entry agreeing with every field of the POST `post`, without the reference unless asked; `fields` override. */
function entry(id: string, post: GatewayRequest, fields: Record<string, unknown> = {}, withReference = false): Record<string, unknown> {
  const number = post.form.get('card.number') ?? '';
  const optional = (name: string) => (post.form.has(name) ? { [name]: post.form.get(name) } : {});
  return {
    id,
    paymentType: post.form.get('paymentType'),
    ...optional('paymentBrand'),
    ...optional('amount'),
    ...optional('currency'),
    merchantTransactionId: post.form.get('merchantTransactionId'),
    result: { code: APPROVED, description: 'Request successfully processed' },
    ...(number ? { card: { bin: number.slice(0, 6), last4Digits: number.slice(-4) } } : {}),
    ...(withReference ? { customParameters: { [REQUEST_REFERENCE]: post.form.get(REFERENCE_FIELD) } } : {}),
    timestamp: '2026-11-23 10:00:00.000+0000',
    ...fields,
  };
}

const list = (payments: unknown[]): ScriptedAnswer => ({ status: 200, body: answer('000.000.100', { payments }) });
const notFound: ScriptedAnswer = { status: 400, body: answer('700.400.580', {}, 'cannot find transaction') };
const dropped = (): never => {
  throw new TypeError('fetch failed');
};
const id = (n: number) => `8ac7a4a170000000000000000000${String(n).padStart(4, '0')}`;

/**
 * A client whose POST is lost (dropped, or answered by `postAnswer`), and whose
 * look-ups are answered in turn by `lookups` (the last one repeats).
 */
function lostPost(
  lookups: (post: GatewayRequest) => ScriptedAnswer[],
  postAnswer: (post: GatewayRequest) => ScriptedAnswer = dropped,
  delays: number[] = [0, 0],
) {
  let post: GatewayRequest | undefined;
  let looked = 0;
  const stub = standInClient(
    (call) => {
      if (call.method === 'POST') {
        post = call;
        return postAnswer(call);
      }
      const answers = lookups(post!);
      return answers[Math.min(looked++, answers.length - 1)]!;
    },
    { reconcileDelaysMs: delays },
  );
  return { ...stub, lookups: () => looked };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    (value) => assert.fail(`expected an error, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );

async function uncertain(promise: Promise<unknown>): Promise<UncertainOutcomeError> {
  const error = await failure(promise);
  assert.ok(error instanceof UncertainOutcomeError, String(error));
  return error;
}

test('a movement whose signal is aborted before it is sent sends nothing, looks nothing up, and says so', async () => {
  const { client, calls } = lostPost(() => [list([])]);
  const error = await failure(client.payments.create(cardPayment(), { signal: AbortSignal.abort() }));
  assert.ok(error instanceof GatewayNetworkError && !(error instanceof UncertainOutcomeError), String(error));
  assert.match(error.message, /^The call was aborted before it was sent: nothing was sent/);
  assert.equal(calls.length, 0);
  assert.equal(outcomeOf(error).retryable, true);
});

describe('several transactions could be the lost one: UncertainOutcomeError, never the first', () => {
  test('two entries matching by fields under a generated merchantTransactionId', async () => {
    const { client } = lostPost((post) => [list([entry(id(1), post), entry(id(2), post)])]);
    const error = await uncertain(client.payments.create(cardPayment()));
    assert.deepEqual(
      error.candidates?.map((payment) => payment.id),
      [id(1), id(2)],
    );
    assert.match(error.message, /2 transactions/);
    assert.ok(error.cause instanceof GatewayNetworkError, 'the lost answer is the cause');
    assert.match(error.merchantTransactionId, /^[0-9a-f-]{36}$/);
  });

  test('two entries both carrying the reference (a platform that duplicated the entry)', async () => {
    const { client } = lostPost((post) => [list([entry(id(3), post, {}, true), entry(id(4), post, {}, true)])]);
    const error = await uncertain(client.payments.create(cardPayment({ merchantTransactionId: 'order-1' })));
    assert.equal(error.candidates?.length, 2);
    assert.equal(error.merchantTransactionId, 'order-1');
  });

  test('an empty merchantTransactionId is none: a key is generated, sent, and the lost payment found by it', async () => {
    const { client, calls } = lostPost((post) => [list([entry(id(7), post)])]);
    assert.equal((await client.payments.create(cardPayment({ merchantTransactionId: '' }))).id, id(7));
    const [post, lookUp] = calls;
    assert.match(post!.form.get('merchantTransactionId') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(lookUp!.url.searchParams.get('merchantTransactionId'), post!.form.get('merchantTransactionId'));
  });

  test('one of two entries matching is taken; the one that differs does not count', async () => {
    const { client } = lostPost((post) => [list([entry(id(5), post, { amount: '1.00' }), entry(id(6), post)])]);
    assert.equal((await client.payments.create(cardPayment())).id, id(6));
  });
});

describe('the amount is compared, in cents', () => {
  for (const [listed, requested, taken] of [
    ['25.00', '50.00', false],
    ['50.01', '50.00', false],
    ['50', '50.00', true],
    ['50.0', '50.00', true],
    ['50.000', '50.00', false],
    ['-50.00', '50.00', false],
    ['50.00 ', '50.00', false],
    [undefined, '50.00', false],
  ] as const) {
    test(`an entry of ${JSON.stringify(listed)} for a request of ${requested}: ${taken ? 'taken' : 'uncertain'}`, async () => {
      const { client } = lostPost((post) => [list([entry(id(10), post, { amount: listed })])]);
      const request = client.payments.create(cardPayment({ amount: requested }));
      if (taken) assert.equal((await request).id, id(10));
      else await uncertain(request);
    });
  }
});

describe('the other fields the request determined', () => {
  const cases: [string, Record<string, unknown>, boolean][] = [
    ['another currency', { currency: 'USD' }, false],
    ['no currency', { currency: undefined }, false],
    ['another brand', { paymentBrand: 'MASTER' }, false],
    ['no brand (optional in a report entry)', { paymentBrand: undefined }, true],
    ['another bin', { card: { bin: '400000', last4Digits: CARDS.approved.slice(-4) } }, false],
    ['other last digits', { card: { bin: CARDS.approved.slice(0, 6), last4Digits: '9999' } }, false],
    ['no card details', { card: undefined }, true],
    ['another payment type', { paymentType: 'PA' }, false],
    ['another merchantTransactionId', { merchantTransactionId: 'someone-else' }, false],
    ['a referenced payment (the request named none, so there is nothing to differ from)', { referencedId: REFERENCE_ID }, true],
    ['a registration the request did not name', { registrationId: id(99) }, true],
  ];
  for (const [what, fields, taken] of cases) {
    test(`an entry without the reference with ${what}: ${taken ? 'taken' : 'uncertain'}`, async () => {
      const { client } = lostPost((post) => [list([entry(id(20), post, fields)])]);
      const request = client.payments.create(cardPayment({ card: card(CARDS.approved) }));
      if (taken) assert.equal((await request).id, id(20));
      else await uncertain(request);
    });
  }

  test('the reference decides, but not across payment types', async () => {
    const { client } = lostPost((post) => [list([entry(id(21), post, { paymentType: 'PA' }, true)])]);
    await uncertain(client.payments.create(cardPayment({ merchantTransactionId: 'order-2' })));
  });

  test('a payment against a registration: an entry for another registration is not it; one for this registration is', async () => {
    const registrationId = id(98);
    for (const [listed, taken] of [
      [id(97), false],
      [registrationId, true],
      [undefined, true],
    ] as const) {
      const { client } = lostPost((post) => [list([entry(id(22), post, { registrationId: listed })])]);
      const request = client.registrations.createPayment(registrationId, { amount: '10.00', currency: 'EUR', paymentType: 'DB' });
      if (taken) assert.equal((await request).id, id(22), String(listed));
      else await uncertain(request);
    }
  });
});

/** movePayment over a transport on the gateway stand-in, for movements the resources never build without a merchantTransactionId (see below). */
function transportFor(handler: (post: GatewayRequest) => ScriptedAnswer) {
  let post: GatewayRequest | undefined;
  // The POST is lost; every look-up after it is answered from what it sent.
  const gateway = new GatewayStandIn({
    script: (call) => {
      if (call.method !== 'POST') return handler(post!);
      post = call;
      return dropped();
    },
  });
  return createTransport({
    baseUrl: 'https://gateway.test',
    accessToken: TOKEN,
    entityId: ENTITY,
    timeoutMs: 2000,
    testMode: undefined,
    userAgent: 'test',
    maxNetworkRetries: 0,
    reconcileDelaysMs: [0],
    now: Date.now,
    fetch: gateway.fetch,
  });
}

describe('a movement on a referenced payment under a generated merchantTransactionId (defence in depth)', () => {
  // The client's captures always carry the payment's merchantTransactionId (so the field rules never apply to
  // them); movePayment still refuses, on its own, to take the referenced payment or a sibling for the lost one.
  const movement = {
    path: `/v1/payments/${REFERENCE_ID}`,
    operation: 'reference' as const,
    request: { paymentType: 'CP', amount: '10.00', currency: 'EUR' },
    referencedId: REFERENCE_ID,
  };
  for (const [what, fields, taken] of [
    ['the referenced payment itself', { id: REFERENCE_ID, referencedId: undefined }, false],
    ['a capture of another payment', { referencedId: id(50) }, false],
    ['a capture of this payment', { referencedId: REFERENCE_ID }, true],
    ['an entry that does not say which payment it captures (absent cannot disprove)', { referencedId: undefined }, true],
  ] as const) {
    test(`${what}: ${taken ? 'taken' : 'uncertain'}`, async () => {
      const transport = transportFor((post) => list([entry(id(51), post, fields)]));
      const request = movePayment(transport, movement);
      if (taken) assert.equal((await request).id, id(51));
      else await uncertain(request);
    });
  }
});

test('a reversal names no amount: an entry of any amount may be it', async () => {
  const reversal = {
    path: `/v1/payments/${REFERENCE_ID}`,
    operation: 'reference' as const,
    request: { paymentType: 'RV' },
    referencedId: REFERENCE_ID,
  };
  const transport = transportFor((post) => list([entry(id(52), post, { amount: '10.00', currency: 'EUR', referencedId: REFERENCE_ID })]));
  assert.equal((await movePayment(transport, reversal)).id, id(52));
});

test('a transport that fails a look-up with something not typed: the look-up failure is typed, the outcome uncertain', async () => {
  const transport = transportFor(() => list([]));
  const odd = {
    ...transport,
    send: (call: Parameters<typeof transport.send>[0]) =>
      call.method === 'GET' ? Promise.reject(new TypeError('boom')) : transport.send(call),
  } as typeof transport;
  const error = await uncertain(movePayment(odd, { path: '/v1/payments', operation: 'payment', request: cardPayment() }));
  assert.ok(error.cause instanceof GatewayNetworkError, String(error.cause));
  assert.equal(error.cause.message, 'The look-up failed');
  assert.equal((error.cause as GatewayNetworkError).merchantTransactionId, error.merchantTransactionId);
  assert.match(error.message, /the look-up failed: The look-up failed/);
});

describe('a refused look-up is "unknown", never "nothing there"', () => {
  const refusals: [string, ScriptedAnswer, new (...args: never[]) => Error][] = [
    ['401', { status: 401, body: answer('800.900.300', {}, 'user authorization failed') }, GatewayAuthenticationError],
    ['500', { status: 500, raw: 'Internal Server Error' }, GatewayNetworkError],
    ['throttled', { status: 429, body: answer('800.120.100', {}, 'Rejected by Throttling.') }, GatewayThrottledError],
    ['a report without payments', list(undefined as never), GatewayNetworkError],
    ['a report listing something that is not a payment', list([{ id: 'x' }]), GatewayNetworkError],
    ["a body that is not the gateway's", { status: 200, body: { hello: 'world' } }, GatewayNetworkError],
  ];
  for (const [what, refusal, kind] of refusals) {
    test(`${what}: UncertainOutcomeError whose cause is the look-up's failure`, async () => {
      const { client, lookups } = lostPost(() => [refusal]);
      const error = await uncertain(client.payments.create(cardPayment()));
      assert.ok(error.cause instanceof kind, `${String(error.cause)} is a ${kind.name}`);
      assert.match(error.message, /the look-up failed/);
      assert.equal(lookups(), 2, 'every look-up was made');
      assert.deepEqual(error.candidates, []);
      assert.equal(error.payment, undefined);
    });
  }

  test('a look-up refused once, then answered: the payment found the second time', async () => {
    const { client } = lostPost((post) => [{ status: 500, raw: 'Internal Server Error' }, list([entry(id(30), post)])]);
    assert.equal((await client.payments.create(cardPayment())).id, id(30));
  });

  test('"cannot find transaction" is an empty report, and the next look-up may still find it', async () => {
    const { client, lookups } = lostPost((post) => [notFound, list([entry(id(31), post)])]);
    assert.equal((await client.payments.create(cardPayment())).id, id(31));
    assert.equal(lookups(), 2);
  });

  test('nothing found after every look-up: UncertainOutcomeError with the lost answer as cause', async () => {
    const { client, lookups } = lostPost(() => [notFound], dropped, [0, 0, 0]);
    const error = await uncertain(client.payments.create(cardPayment()));
    assert.equal(lookups(), 3);
    assert.match(error.message, /no transaction that is certainly it was found/);
    assert.ok(error.cause instanceof GatewayNetworkError);
    assert.deepEqual(error.candidates, []);
  });

  test('queryPayments answers an empty list for "cannot find transaction" and throws for a refusal', async () => {
    const transport = transportFor(() => notFound);
    assert.deepEqual((await queryPayments(transport, { merchantTransactionId: 'order-3' }, 'order-3')).payments, []);
    const refusing = transportFor(() => ({ status: 401, body: answer('800.900.300') }));
    const refused = await failure(queryPayments(refusing, { merchantTransactionId: 'order-3' }, 'order-3'));
    assert.ok(refused instanceof GatewayAuthenticationError, String(refused));
    assert.equal(refused.merchantTransactionId, 'order-3');
    const odd = transportFor(() => list([{ ...answer(APPROVED), id: id(32) }, { id: id(33) }]));
    const error = await failure(queryPayments(odd, { merchantTransactionId: 'order-3' }, 'order three'));
    assert.ok(error instanceof GatewayNetworkError);
    assert.match(error.message, /order three has no readable list of payments \(HTTP 200\)/);
    assert.equal(error.httpStatus, 200);
    assert.equal(error.resultCode, '000.000.100');
    assert.equal(error.merchantTransactionId, 'order-3');
  });
});

describe('what the found transaction says', () => {
  test('still uncertain after every look-up: UncertainOutcomeError naming its state, the transaction attached', async () => {
    const { client } = lostPost((post) => [
      list([entry(id(40), post, { result: { code: '900.100.300', description: 'timeout, uncertain result' } })]),
    ]);
    const error = await uncertain(client.payments.create(cardPayment()));
    assert.match(error.message, /still/);
    assert.equal(error.payment?.id, id(40));
    assert.equal(error.candidates?.length, 1);
  });

  test('uncertain at first, final later: the final transaction', async () => {
    const { client } = lostPost((post) => [
      list([entry(id(41), post, { result: { code: '900.100.300', description: 'timeout' } })]),
      list([entry(id(41), post)]),
    ]);
    const payment = await client.payments.create(cardPayment());
    assert.equal(payment.result.code, APPROVED);
  });

  test('declined: the decline, typed', async () => {
    const { client } = lostPost((post) => [
      list([entry(id(42), post, { result: { code: '800.100.151', description: 'transaction declined (invalid card)' } })]),
    ]);
    await assert.rejects(client.payments.create(cardPayment()), GatewayDeclinedError);
  });

  test("waiting for the shopper's 3-D Secure step without its redirect: StrandedPaymentError; with it: the pending payment", async () => {
    const pending = { code: '000.200.000', description: 'transaction pending' };
    const threeDs = cardPayment({ shopperResultUrl: 'https://shop.example/return', billing });
    const stranded = lostPost((post) => [list([entry(id(43), post, { result: pending })])]);
    const error = await failure(stranded.client.payments.create(threeDs));
    assert.ok(error instanceof StrandedPaymentError, String(error));
    assert.equal((error as StrandedPaymentError & { payment?: Payment }).payment?.id, id(43));
    assert.match((error as Error).message, /redirect was lost with the answer: the shopper cannot complete it/);
    assert.match((error as Error).message, /Do not ship; a new attempt under a new merchantTransactionId is safe/);
    assert.equal((error as StrandedPaymentError).resultCode, '000.200.000');
    assert.equal((error as StrandedPaymentError).resultKind, 'pending');
    assert.equal((error as StrandedPaymentError).description, 'transaction pending');
    assert.match((error as StrandedPaymentError).merchantTransactionId!, /^[0-9a-f-]{36}$/);
    const actionable = lostPost((post) => [
      list([entry(id(44), post, { result: pending, redirect: { url: 'https://acs.test/3ds', parameters: [] } })]),
    ]);
    assert.equal((await actionable.client.payments.create(threeDs)).id, id(44));
  });

  test('an approval naming no transaction (no id) is no outcome: the look-up finds the payment it made', async () => {
    const { client, posts } = lostPost(
      (post) => [list([entry(id(47), post)])],
      (post) => ({ status: 200, body: { ...entry(id(47), post), id: undefined } }),
    );
    assert.equal((await client.payments.create(cardPayment())).id, id(47));
    assert.equal(posts().length, 1);
  });

  test('pending with no shopper step possible (pending at the acquirer, no result URL to send a shopper to): the pending payment, never "a new attempt is safe"', async () => {
    for (const [code, request] of [
      ['000.200.001', cardPayment({ shopperResultUrl: 'https://shop.example/return', billing })],
      ['000.200.000', cardPayment()],
    ] as const) {
      const result = { code, description: 'Transaction pending for acquirer, the consumer is not present' };
      // Found after a lost answer, and answered at once.
      const found = lostPost((post) => [list([entry(id(45), post, { result })])]);
      const lost = await found.client.payments.create(request);
      assert.deepEqual([lost.id, lost.result.code], [id(45), code]);
      const answered = lostPost(
        () => [notFound],
        (post) => ({ status: 200, body: entry(id(46), post, { result }) }),
      );
      const direct = await answered.client.payments.create(request);
      assert.deepEqual([direct.id, direct.result.code], [id(46), code]);
      assert.equal(outcomeOf(direct).retryable, false);
      assert.equal(answered.posts().length, 1);
    }
  });
});

describe('an answer with an uncertain code and a payment id', () => {
  const uncertainAnswer = () => () => ({
    status: 200,
    body: answer('900.100.300', { id: id(60), paymentType: 'DB' }, 'timeout, uncertain result'),
  });

  test('the look-up takes the transaction with that id, and no other however well it matches', async () => {
    const found = lostPost((post) => [list([entry(id(61), post, {}, true), entry(id(60), post)])], uncertainAnswer());
    assert.equal((await found.client.payments.create(cardPayment())).id, id(60));
    // That id for another amount is another request's answer under it: not this request's outcome, however well 61 matches.
    const contradicted = lostPost(
      (post) => [list([entry(id(61), post, {}, true), entry(id(60), post, { amount: '1.00' })])],
      uncertainAnswer(),
    );
    await uncertain(contradicted.client.payments.create(cardPayment()));
    const other = lostPost((post) => [list([entry(id(61), post, {}, true)])], uncertainAnswer());
    const error = await uncertain(other.client.payments.create(cardPayment()));
    assert.equal(error.resultCode, '900.100.300', 'the lost answer says what was unknown');
  });

  test('the same id as another payment type is not it', async () => {
    const { client } = lostPost((post) => [list([entry(id(60), post, { paymentType: 'PA' })])], uncertainAnswer());
    await uncertain(client.payments.create(cardPayment()));
  });

  test('an unknown result code is uncertain as well: looked up, not trusted', async () => {
    const { client, posts } = lostPost(
      (post) => [list([entry(id(62), post)])],
      () => ({ status: 200, body: answer('123.456.789', {}, 'who knows') }),
    );
    assert.equal((await client.payments.create(cardPayment())).id, id(62));
    assert.equal(posts().length, 1);
  });

  test('a declined answer is the decline, naming the merchantTransactionId; a request refused before sending is never looked up', async () => {
    const declined = lostPost(
      () => [notFound],
      () => ({ status: 200, body: answer('800.100.151', { id: id(64), paymentType: 'DB' }, 'transaction declined (invalid card)') }),
    );
    const error = await failure(declined.client.payments.create(cardPayment({ merchantTransactionId: 'order-6' })));
    assert.ok(error instanceof GatewayDeclinedError, String(error));
    assert.equal(error.merchantTransactionId, 'order-6');
    const invalid = lostPost(() => [notFound]);
    const refused = await failure(invalid.client.payments.create(cardPayment({ amount: 'ten' })));
    assert.equal((refused as Error).name, 'GatewayValidationError');
    assert.equal(invalid.calls.length, 0);
  });

  test('the lost payment is looked up on the channel it was sent on', async () => {
    const channel = '8a8294174b7ecb28014b9699220015cb';
    const { client, calls } = lostPost((post) => [list([entry(id(65), post)])]);
    await client.payments.create(cardPayment(), { entityId: channel });
    assert.deepEqual(
      calls.map((call) => call.url.searchParams.get('entityId') ?? call.form.get('entityId')),
      [channel, channel],
    );
  });

  test('a known final answer is taken as it is, without a look-up', async () => {
    const { client, calls } = lostPost(
      () => [notFound],
      () => ({ status: 200, body: answer(APPROVED, { id: id(63), paymentType: 'DB' }) }),
    );
    assert.equal((await client.payments.create(cardPayment())).id, id(63));
    assert.equal(calls.length, 1);
  });
});

describe("an answer that is another request's leaves the outcome unknown: looked up, never returned, never re-sent", () => {
  const posted = (calls: readonly GatewayRequest[]) => calls.filter((call) => call.method === 'POST').length;

  for (const [what, fields] of [
    ['another reference', { customParameters: { [REQUEST_REFERENCE]: 'another-request' } }],
    ['another type', { paymentType: 'PA' }],
    ['another amount', { amount: '99.00' }],
    ['another currency', { currency: 'USD' }],
  ] as const) {
    test(`${what}: the look-up finds this request's own transaction`, async () => {
      const { client, calls } = lostPost(
        (post) => [list([entry(id(70), post, {}, true)])],
        () => ({ status: 200, body: answer(APPROVED, { id: id(71), paymentType: 'DB', amount: '92.00', currency: 'EUR', ...fields }) }),
      );
      assert.equal((await client.payments.create(cardPayment())).id, id(70));
      assert.equal(posted(calls), 1);
    });
  }

  test("a checkout's answer to a payment: uncertain when the look-up finds nothing certain", async () => {
    const { client, calls } = lostPost(
      () => [list([])],
      () => ({ status: 200, body: answer('000.200.100', { id: id(72) }, 'successfully created checkout') }),
    );
    const error = await uncertain(client.payments.create(cardPayment()));
    assert.match(String((error.cause as Error).message), /is a checkout's \(000\.200\.100\)/);
    assert.equal(posted(calls), 1);
  });

  test('a capture answered for another payment than the one it refers to', async () => {
    const { client } = lostPost(
      (post) => [list([entry(id(73), post, { referencedId: REFERENCE_ID }, true)])],
      () => ({
        status: 200,
        body: answer(APPROVED, { id: id(74), paymentType: 'CP', amount: '5.00', currency: 'EUR', referencedId: id(99) }),
      }),
    );
    assert.equal((await client.payments.capture(REFERENCE_ID, { amount: '5.00', currency: 'EUR' })).id, id(73));
  });

  test('fields it leaves out, null or empty, or writes in another case or as 92.0, prove nothing: the answer is taken', async () => {
    for (const fields of [
      { amount: undefined, currency: undefined },
      { amount: null, currency: null, customParameters: null },
      { paymentType: '', customParameters: { [REQUEST_REFERENCE]: '' } },
      { amount: '92.0', currency: 'eur' },
      { amount: '92.001' },
    ]) {
      const { client, calls } = lostPost(
        () => [notFound],
        () => ({ status: 200, body: answer(APPROVED, { id: id(75), paymentType: 'DB', amount: '92.00', currency: 'EUR', ...fields }) }),
      );
      assert.equal((await client.payments.create(cardPayment())).id, id(75), JSON.stringify(fields));
      assert.equal(calls.length, 1, 'no look-up');
    }
  });
});

describe('the fallback match reads tolerantly; the look-ups keep to the call', () => {
  test('a null or empty field, or a currency in lower case, proves nothing either way: the entry is still the lost one', async () => {
    for (const fields of [
      { paymentBrand: null },
      { registrationId: null },
      { referencedId: '' },
      { card: { bin: null, last4Digits: null } },
      { currency: 'eur' },
    ]) {
      const { client } = lostPost((post) => [list([entry(id(1), post, fields)])]);
      const payment = await client.payments.create(cardPayment());
      assert.equal(payment.id, id(1), JSON.stringify(fields));
    }
  });

  test('an entry of another currency or card is still not the lost one', async () => {
    for (const fields of [{ currency: 'USD' }, { card: { bin: '411111', last4Digits: '1111' } }]) {
      const { client } = lostPost((post) => [list([entry(id(1), post, fields)])]);
      await uncertain(client.payments.create(cardPayment()));
    }
  });

  test("the caller's abort ends the reconciliation: no look-up after it, and the outcome is unknown", async () => {
    const controller = new AbortController();
    const { client, calls } = lostPost(
      () => [list([])],
      () => {
        controller.abort(new Error('the shopper left'));
        throw new TypeError('fetch failed');
      },
      [0, 0, 0],
    );
    const error = await uncertain(client.payments.create(cardPayment(), { signal: controller.signal }));
    assert.match(error.message, /aborted/);
    assert.deepEqual(
      calls.map((call) => call.method),
      ['POST'],
      'nothing was read for an aborted call',
    );
  });
});
