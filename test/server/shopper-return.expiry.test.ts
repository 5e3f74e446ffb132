/**
 * What decides "expired" in `handleShopperReturn`, case by case over the gateway
 * stand-in: after "no payment session found" the checkout's transactions are
 * looked up by the remembered merchantTransactionId, and only one provably the
 * checkout's (its reference, type, amount, currency) is its answer. "Expired"
 * (GatewayNotFoundError) when nothing of it is found; one still open is
 * CheckoutPendingError when the store saw every read of the checkout, else
 * StatusUnknownError, as is anything without proof either way. Which failed
 * reads count as unanswered is decided here too, and what an answer is: its
 * own type, never the shopper's path, and the entity it was read on.
 */
import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { STATUS_CALL_WINDOW_MS } from '../../src/contract/limits.js';
import { NO_PAYMENT_SESSION_DESCRIPTION, RESULT_CODES } from '../../src/contract/result-codes.js';
import {
  CheckoutPendingError,
  createMemoryStatusStore,
  GatewayDeclinedError,
  GatewayNetworkError,
  GatewayNotFoundError,
  GatewayThrottledError,
  StatusStoreUnavailableError,
  outcomeOf,
  StatusUnknownError,
  GatewayValidationError,
  type StatusStore,
} from '../../src/server/index.js';
import { answer, ENTITY, standInClient, type ScriptedAnswer, type GatewayRequest } from '../support/gateway-stand-in.js';

const CHECKOUT = 'ABCDEF0123456789ABCDEF0123456789.uat01-vm-tx01';
const OTHER = '0123456789ABCDEF0123456789ABCDEF.uat01-vm-tx01';
const PATH = `/v1/checkouts/${CHECKOUT}/payment`;
const ORDER = 'order-5005';
const T0 = 1_800_000_000_000;
/** The kit's reference of the checkout, as remembered at creation and echoed by the platform in its transactions. */
const REFERENCE = '6f1c2b0e-1d2a-4c3b-9e8f-0a1b2c3d4e5f';
const HOUR = 60 * 60 * 1000;
/** The status store's key of a read: the entity it is sent to, then the path. */
const keyOf = (path: string, entityId = ENTITY) => `status:${entityId}:${path}`;

const noSession: ScriptedAnswer = { status: 400, body: answer('200.300.404', {}, NO_PAYMENT_SESSION_DESCRIPTION) };
const payment = (code: string, fields: Record<string, unknown> = {}) => ({
  ...answer(code, {
    id: '8ac7a4a17000000000000000000000f1',
    paymentType: 'DB',
    amount: '10.00',
    currency: 'EUR',
    merchantTransactionId: ORDER,
    ndc: CHECKOUT,
    customParameters: { GW_REFERENCE: REFERENCE },
    ...fields,
  }),
});
/** A report entry of the checkout's payment: the platform's carry no ndc, and echo the checkout's custom parameters. */
const entry = (code: string, fields: Record<string, unknown> = {}) => payment(code, { ndc: undefined, ...fields });
const list = (payments: unknown[]): ScriptedAnswer => ({ status: 200, body: answer('000.000.100', { payments }) });
const REGISTRATION_PATH = `/v1/checkouts/${CHECKOUT}/registration`;
const isStatusRead = (call: GatewayRequest) => call.url.pathname === PATH || call.url.pathname === REGISTRATION_PATH;
const isLookUp = (call: GatewayRequest) => call.url.pathname === '/v3/query';

/** The clock of the client and its store: a case moves it past the status limit's window when it reads more than twice. */
const clock = { now: T0 };

/** A memory store that does not say when its data began (a claim answers no `since`), as a store may. */
function storeWithoutSince(): StatusStore {
  const memory = createMemoryStatusStore({ now: () => clock.now });
  return {
    ...memory,
    read: memory.read,
    settle: memory.settle,
    renew: memory.renew,
    claim: async (key, request) => {
      const { since: _, ...rest } = (await memory.claim(key, request)) as { since?: number };
      return rest as Awaited<ReturnType<StatusStore['claim']>>;
    },
  };
}

/** A client on a memory store whose status reads answer `reads` in turn and whose look-ups answer `lookUp`. */
function returning(
  reads: ((call: GatewayRequest) => ScriptedAnswer | Promise<ScriptedAnswer>)[],
  lookUp: (call: GatewayRequest) => ScriptedAnswer = () => list([]),
  store: StatusStore = createMemoryStatusStore({ now: () => clock.now }),
) {
  // What the case creates comes after the store's data began, as on any clock that moves.
  clock.now += 1;
  let read = 0;
  const stub = standInClient(() => ({ status: 200, body: answer(RESULT_CODES.checkoutCreated, { id: CHECKOUT }) }), {
    statusStore: store,
    now: () => clock.now,
  });
  const statusRead = (call: GatewayRequest) => reads[Math.min(read++, reads.length - 1)]!(call);
  stub.gateway.on('GET', PATH, statusRead).on('GET', REGISTRATION_PATH, statusRead).on('GET', '/v3/query', lookUp);
  const shopperReturns = () => stub.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH });
  return {
    ...stub,
    store,
    shopperReturns,
    lookUps: () => stub.calls.filter(isLookUp).length,
    reads: () => stub.calls.filter(isStatusRead).length,
  };
}

/** Remembers the checkout as the client does when it creates it: after the store's data began (the clock's next ms). */
const MADE = { made: 'payment', merchantTransactionId: ORDER, reference: REFERENCE, paymentType: 'DB', amount: '10.00', currency: 'EUR' };
const created = (store: StatusStore, record: unknown = MADE) =>
  store.settle(`checkout:${CHECKOUT}`, 'created', {
    value: typeof record === 'string' ? record : JSON.stringify({ createdAt: clock.now + 1, ...(record as object) }),
    final: true,
  });

async function failure(promise: Promise<unknown>) {
  return promise.then(
    (value) => assert.fail(`expected an error, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

async function unknown(promise: Promise<unknown>, why: RegExp): Promise<StatusUnknownError> {
  const error = await failure(promise);
  assert.ok(error instanceof StatusUnknownError, String(error));
  assert.match(error.message, why);
  assert.match(error.message, /Do not treat it as expired/);
  assert.equal(error.retryAfterSeconds, 60);
  return error;
}

describe('"no payment session found" is believed only with proof', () => {
  test('created through this client and never read unanswered: expired once the look-up finds nothing of it', async () => {
    const subject = returning([() => noSession]);
    await subject.client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB', merchantTransactionId: ORDER });
    const error = await failure(subject.shopperReturns());
    assert.ok(error instanceof GatewayNotFoundError, String(error));
    // A checkout paid and never read answers "no session" too once it ends: the look-up tells them apart.
    assert.equal(subject.lookUps(), 1);
    // Released, not marked: the next return reads again and believes again.
    await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
    assert.equal(subject.reads(), 2);
    assert.equal(await markLeft(subject.store), false);
  });

  test('created through this client, paid and never read: its payment, found by the reference the checkout carried', async () => {
    let reference = '';
    const subject = returning([() => noSession], () => list([entry('000.100.110', { customParameters: { GW_REFERENCE: reference } })]));
    await subject.client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB', merchantTransactionId: ORDER });
    reference = new URLSearchParams(subject.calls[0]!.body).get('customParameters[GW_REFERENCE]') ?? '';
    assert.match(reference, /^[0-9a-f-]{36}$/);
    assert.equal((await subject.shopperReturns()).result.code, '000.100.110');
  });

  test('a checkout created without a merchantTransactionId gets one, so it can be looked up', async () => {
    const subject = returning([() => noSession]);
    await subject.client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB' });
    assert.match(new URLSearchParams(subject.calls[0]!.body).get('merchantTransactionId') ?? '', /^[0-9a-f-]{36}$/);
    await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
    assert.equal(subject.lookUps(), 1);
  });

  test('a checkout created with an empty merchantTransactionId gets one too: paid and never read, its payment is found', async () => {
    const subject = returning([() => noSession], (call) =>
      list([
        entry('000.100.110', {
          merchantTransactionId: call.url.searchParams.get('merchantTransactionId'),
          customParameters: { GW_REFERENCE: reference },
        }),
      ]),
    );
    await subject.client.checkouts.create({ amount: '10.00', currency: 'EUR', paymentType: 'DB', merchantTransactionId: '' });
    const sent = new URLSearchParams(subject.calls[0]!.body);
    const reference = sent.get('customParameters[GW_REFERENCE]');
    assert.match(sent.get('merchantTransactionId') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal((await subject.shopperReturns()).result.code, '000.100.110');
    assert.equal(subject.lookUps(), 1);
  });

  test('a checkout the store does not know: unknown, without a look-up, and it stays unknown', async () => {
    const subject = returning([() => noSession]);
    const error = await unknown(subject.shopperReturns(), /does not know it from its creation/);
    assert.equal(error.merchantTransactionId, '');
    assert.ok(error.cause instanceof GatewayNotFoundError);
    assert.equal(subject.lookUps(), 0);
    await unknown(subject.shopperReturns(), /does not know it/);
  });

  for (const [what, record] of [
    ['not JSON', '{"merchantTransactionId":'],
    ['not an object', '"order-5005"'],
    ['null', 'null'],
    ['a merchantTransactionId that is not a string', { merchantTransactionId: 5005 }],
    ['an entityId that is not a string', { merchantTransactionId: ORDER, entityId: 5 }],
    ['a creation time that is not a number', { merchantTransactionId: ORDER, createdAt: 'yesterday' }],
    ['a kind the kit never writes', { ...MADE, made: 'refund' }],
    ['a reference that is not a string', { ...MADE, reference: 5 }],
    ['an amount that is not a string', { ...MADE, amount: 10 }],
    ['a type that is not a string', { ...MADE, paymentType: ['DB'] }],
    ['a currency that is not a string', { ...MADE, currency: null }],
  ] as const) {
    test(`a created record that is ${what}: the store failing, typed, and nothing is sent`, async () => {
      const subject = returning([() => noSession]);
      await created(subject.store, record);
      const error = await failure(subject.shopperReturns());
      assert.ok(error instanceof StatusStoreUnavailableError, String(error));
      assert.match(error.message, /^The status store holds (an unreadable record|a record that is not the kit's)$/);
      assert.equal(subject.reads(), 0);
    });
  }

  test('a created record without a merchantTransactionId: pending while an attempt may complete, then unknown (paid and never read looks the same); unknown after a lost read', async () => {
    const subject = returning([() => noSession]);
    await created(subject.store, {});
    // Known from its creation and never read, but a 3-D Secure attempt may outlive it by 30 minutes: pending until then.
    const error = await failure(subject.shopperReturns());
    assert.ok(error instanceof CheckoutPendingError, String(error));
    // Created at the clock's next ms (see `created`).
    assert.equal(error.decidedAt, clock.now + 1 + HOUR);
    assert.equal(error.retryAfterSeconds, 60);
    assert.match(error.message, /is not paid yet, and an attempt of it may still complete .*Do not offer a new checkout/);
    clock.now += HOUR - 29_999;
    assert.equal(((await failure(subject.shopperReturns())) as CheckoutPendingError).retryAfterSeconds, 30);
    clock.now += 30_000;
    await unknown(subject.shopperReturns(), /has no merchantTransactionId to look it up by/);
    assert.equal(subject.lookUps(), 0);
    // After a read that went unanswered it cannot be proved either way.
    const lost = returning([() => ({ status: 502, raw: 'Bad Gateway' }), () => noSession]);
    await created(lost.store, {});
    await failure(lost.shopperReturns());
    await unknown(lost.shopperReturns(), /has no merchantTransactionId to look it up by/);
  });

  test("a creation record no younger than the store's data (a copy that outlived a loss, or an old record without its time): unknown", async () => {
    for (const age of [1, 60_000, undefined]) {
      const subject = returning([() => noSession], () => list([]));
      // The store's data began at the clock's previous ms: a record from then or earlier proves nothing.
      await created(
        subject.store,
        age === undefined ? '{"merchantTransactionId":"order-5005"}' : { merchantTransactionId: ORDER, createdAt: clock.now - age },
      );
      // Not believed: its payments are looked up (none approved, none open: proven unpaid), and without a reference it is unknown.
      await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
      assert.equal(subject.lookUps(), 1, String(age));
      const bare = returning([() => noSession]);
      await created(bare.store, age === undefined ? '{}' : { createdAt: clock.now - age });
      await unknown(bare.shopperReturns(), /no merchantTransactionId|does not know it/);
    }
  });

  test('a store without read: unknown; one whose read fails: the store failing, nothing sent', async () => {
    const memory = createMemoryStatusStore({ now: () => clock.now });
    await created(memory);
    const withoutRead: StatusStore = { claim: memory.claim, settle: memory.settle, renew: memory.renew };
    await unknown(returning([() => noSession], undefined, withoutRead).shopperReturns(), /does not know it/);
    // A store whose read fails cannot answer: the return fails typed, and nothing is sent.
    const failing: StatusStore = { ...withoutRead, read: () => Promise.reject(new Error('ECONNRESET')) };
    const refused = returning([() => noSession], undefined, failing);
    await assert.rejects(refused.shopperReturns(), StatusStoreUnavailableError);
    assert.equal(refused.reads(), 0);
  });
});

describe('after a read whose answer was lost, the checkout is looked up by its merchantTransactionId', () => {
  /** Created, one status read lost (`lost`), then "no payment session found". */
  async function afterLostRead(
    lookUp: () => ScriptedAnswer,
    lost: () => ScriptedAnswer = () => ({ status: 500, raw: 'Internal Server Error' }),
  ) {
    const subject = returning([lost, () => noSession], lookUp);
    await created(subject.store);
    await failure(subject.shopperReturns());
    return subject;
  }

  test('its approved payment is the answer, and is kept for the next return', async () => {
    const subject = await afterLostRead(() => list([payment('000.100.110')]));
    const paid = await subject.shopperReturns();
    assert.equal(paid.result.code, '000.100.110');
    assert.equal(subject.calls.filter(isLookUp)[0]!.url.searchParams.get('merchantTransactionId'), ORDER);
    const reads = subject.reads();
    assert.equal((await subject.shopperReturns()).id, paid.id);
    assert.equal(subject.reads(), reads, 'answered from the store');
  });

  test("an entry carrying the checkout's reference (or its id as ndc) counts; its order's other transactions never do", async () => {
    assert.equal((await (await afterLostRead(() => list([entry('000.100.110')]))).shopperReturns()).result.code, '000.100.110');
    const byNdc = payment('000.100.110', { customParameters: undefined });
    assert.equal((await (await afterLostRead(() => list([byNdc]))).shopperReturns()).result.code, '000.100.110');
    const others = [
      payment('000.100.110', { ndc: OTHER, customParameters: undefined }), // another checkout of the order
      entry('000.100.110', { customParameters: { GW_REFERENCE: 'another' } }), // another request's reference
      entry('000.100.110', { paymentType: 'RG', amount: undefined, currency: undefined }), // a card saved under the order
      entry('000.100.110', { paymentType: 'RF', amount: '1.00' }), // a refund of the order
      entry('000.100.110', { paymentType: 'PA' }), // another type: a transaction the checkout cannot have made
      entry('000.100.110', { amount: '99.00', customParameters: undefined }), // another amount, without the checkout's proof
      entry('000.100.110', { currency: 'SAR', customParameters: undefined }),
    ];
    for (const other of others) {
      const subject = await afterLostRead(() => list([other, entry('800.100.152')]));
      await assert.rejects(subject.shopperReturns(), GatewayNotFoundError, JSON.stringify(other));
    }
  });

  test("an approved entry carrying the checkout's own proof but other, missing, null or malformed terms: unknown, never expired", async () => {
    // The reference is random and the checkout's alone: whatever its terms say, the shopper may have paid through it.
    const odd = [
      entry('000.100.110', { amount: '99.00' }),
      entry('000.100.110', { amount: undefined }),
      entry('000.100.110', { amount: null }),
      entry('000.100.110', { currency: 'SAR' }),
      entry('000.100.110', { currency: null }),
      entry('000.100.110', { amount: '10.001' }),
      entry('000.100.110', { amount: '+10.00' }),
      payment('000.100.110', { customParameters: undefined, amount: '99.00' }), // its id as ndc
    ];
    for (const entryOfIt of odd) {
      const subject = await afterLostRead(() => list([entryOfIt, entry('800.100.152')]));
      await unknown(subject.shopperReturns(), /may be its payment/);
    }
  });

  test("an empty or null ndc is no ndc: an entry with the reference is still the checkout's own", async () => {
    for (const ndc of [null, ''])
      assert.equal((await (await afterLostRead(() => list([entry('000.100.110', { ndc })]))).shopperReturns()).result.code, '000.100.110');
  });

  test('the amount is compared in cents: 10, 10.0 and 10.00 are the same', async () => {
    for (const amount of ['10', '10.0', '10.00'])
      assert.equal((await (await afterLostRead(() => list([entry('000.100.110', { amount })]))).shopperReturns()).amount, amount);
  });

  test('a record without one of the terms it was created with (an earlier version) proves no entry its own: unknown', async () => {
    for (const missing of ['paymentType', 'amount', 'currency']) {
      const subject = returning([() => ({ status: 500, raw: 'Internal Server Error' }), () => noSession], () =>
        list([entry('000.100.110')]),
      );
      await created(subject.store, { ...MADE, [missing]: undefined });
      await failure(subject.shopperReturns());
      await unknown(subject.shopperReturns(), /may be its payment/);
    }
  });

  test('a record without a reference: an entry without one is not proved its own; one with a reference is another request', async () => {
    for (const [customParameters, other] of [
      [undefined, false],
      [{ GW_REFERENCE: REFERENCE }, true],
    ] as const) {
      const subject = returning([() => ({ status: 500, raw: 'Internal Server Error' }), () => noSession], () =>
        list([entry('000.100.110', { customParameters })]),
      );
      await created(subject.store, { ...MADE, reference: undefined });
      await failure(subject.shopperReturns());
      if (other) await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
      else await unknown(subject.shopperReturns(), /may be its payment/);
    }
  });

  test('a saved card carrying the reference is never money, even for a record without the terms', async () => {
    const card = entry('000.100.110', { paymentType: 'RG', amount: undefined, currency: undefined });
    const subject = returning([() => ({ status: 500, raw: 'Internal Server Error' }), () => noSession], () => list([card]));
    await created(subject.store, { made: 'payment', merchantTransactionId: ORDER, reference: REFERENCE });
    await failure(subject.shopperReturns());
    await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
  });

  test('an approved entry with neither its reference nor its id, on its terms: it may be its payment, unknown', async () => {
    const subject = await afterLostRead(() => list([entry('000.100.110', { customParameters: undefined })]));
    await unknown(subject.shopperReturns(), /may be its payment, but nothing proves it is/);
  });

  test('a record without the terms it was created with (an earlier version): nothing proves an entry is its own, unknown', async () => {
    const subject = returning([() => ({ status: 500, raw: 'Internal Server Error' }), () => noSession], () => list([entry('000.100.110')]));
    await created(subject.store, { merchantTransactionId: ORDER, reference: REFERENCE });
    await failure(subject.shopperReturns());
    await unknown(subject.shopperReturns(), /may be its payment/);
  });

  test('nothing approved and nothing open: proven unpaid (expired), but the next return checks again', async () => {
    const subject = await afterLostRead(() => list([payment('800.100.152')]));
    await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
    const lookUps = subject.lookUps();
    clock.now += STATUS_CALL_WINDOW_MS;
    await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
    assert.equal(subject.lookUps(), lookUps + 1, 'the mark stays');
  });

  for (const code of ['000.200.000', '800.400.500', '900.100.300', '123.456.789']) {
    test(`a payment of it still open (${code}): unknown`, async () => {
      const subject = await afterLostRead(() => list([payment('800.100.152'), payment(code)]));
      const error = await unknown(subject.shopperReturns(), /a payment of it is not final yet/);
      assert.equal(error.merchantTransactionId, ORDER);
    });
  }

  test('every read known and the look-up fails: pending while an attempt may complete, then unknown', async () => {
    const subject = returning([() => noSession], () => ({ status: 500, body: answer('900.100.300', {}, 'timeout') }));
    await created(subject.store);
    const error = await failure(subject.shopperReturns());
    assert.ok(error instanceof CheckoutPendingError, String(error));
    assert.match(error.message, /looking up whether an attempt of it is still open failed/);
    // Created at the clock's next ms (see `created`): an hour and a ms later nothing of it can complete.
    clock.now += HOUR + 1;
    await unknown(subject.shopperReturns(), /looking it up by its merchantTransactionId failed/);
  });

  test('a look-up that fails: unknown, with the look-up failure as cause', async () => {
    const subject = await afterLostRead(() => ({ status: 401, body: answer('800.900.300', {}, 'user authorization failed') }));
    const error = await unknown(subject.shopperReturns(), /looking it up by its merchantTransactionId failed/);
    assert.equal((error.cause as { resultCode?: string }).resultCode, '800.900.300');
  });
});

describe('which failed status reads leave the checkout unproven', () => {
  for (const [what, first, lost] of [
    [
      'a dropped connection',
      () => {
        throw new TypeError('fetch failed');
      },
      true,
    ],
    ['an HTTP 500 carrying a result code', () => ({ status: 500, body: answer('800.100.152', {}, 'declined') }), true],
    ['an uncertain result code', () => ({ status: 200, body: answer('900.100.300', {}, 'timeout, uncertain result') }), true],
    ["a body that is not the gateway's", () => ({ status: 400, raw: '<html>' }), true],
    ['a throttled read without a result code (kept as unanswered: nothing proves it was not read)', () => ({ status: 429, raw: '' }), true],
    ['a decline (the gateway answered)', () => ({ status: 400, body: answer('800.100.152', {}, 'declined') }), false],
    [
      'a refusal below 500 (the gateway answered)',
      () => ({ status: 401, body: answer('800.900.300', {}, 'user authorization failed') }),
      false,
    ],
  ] as [string, () => ScriptedAnswer, boolean][]) {
    test(`${what}: ${lost ? 'unanswered, so a later "no session" leaves the mark' : 'answered, so a later "no session" is believed'}`, async () => {
      const subject = returning([first, () => noSession], () => list([entry('000.200.000')]));
      await created(subject.store);
      await failure(subject.shopperReturns());
      // An attempt still open: pending when every read is known, unknown after one went unanswered.
      const error = await failure(subject.shopperReturns());
      assert.ok(
        lost ? !(error instanceof CheckoutPendingError) && error instanceof StatusUnknownError : error instanceof CheckoutPendingError,
        String(error),
      );
      assert.match(
        (error as Error).message,
        lost ? /a payment of it is not final yet/ : /is not paid yet, and an attempt of it is still open/,
      );
      assert.equal(await markLeft(subject.store), lost);
    });
  }

  test('a declined read is not kept: the next return reads again', async () => {
    const subject = returning([() => ({ status: 400, body: answer('800.100.152', {}, 'declined') })]);
    await assert.rejects(subject.shopperReturns(), GatewayDeclinedError);
    await assert.rejects(subject.shopperReturns(), GatewayDeclinedError);
    assert.equal(subject.reads(), 2);
  });

  test('a store record that is not a gateway answer is the store failing, typed', async () => {
    const subject = returning([() => noSession]);
    await subject.store.settle(keyOf(PATH), 'someone', { value: '{"not":"an answer"}', final: true });
    const foreign = await failure(subject.shopperReturns());
    assert.ok(foreign instanceof StatusStoreUnavailableError, String(foreign));
    assert.equal(foreign.message, "The status store holds a record that is not the kit's");
    assert.equal(foreign.retryAfterSeconds, 60);
    await subject.store.settle(keyOf('/v1/payments/8ac7a4a17000000000000000000000f2'), 'someone', { value: 'garbage', final: true });
    const error = await failure(subject.client.handleShopperReturn({ resourcePath: '/v1/payments/8ac7a4a17000000000000000000000f2' }));
    assert.ok(error instanceof StatusStoreUnavailableError, String(error));
    assert.equal(error.message, 'The status store holds an unreadable record');
    assert.equal((error.cause as Error).name, 'SyntaxError');
    assert.equal(error.retryAfterSeconds, 60);
  });
});

describe('the status read itself', () => {
  const pending = () => ({ status: 200, body: payment('000.200.000') });

  test('a third read within the minute is not sent: throttled until the oldest leaves the window', async () => {
    const subject = returning([pending]);
    await subject.shopperReturns();
    clock.now += 20_000;
    await subject.shopperReturns();
    const error = await failure(subject.shopperReturns());
    assert.ok(error instanceof GatewayThrottledError, String(error));
    assert.equal(error.message, `Status of checkout ${CHECKOUT} was read 2 times this minute (the gateway's limit); not sent`);
    assert.equal(error.retryAfterSeconds, 40);
    assert.equal(subject.reads(), 2);
  });

  test('a read another request holds past waitMs is not sent: throttled until its claim lapses', async () => {
    const store = createMemoryStatusStore({ now: () => clock.now, waitMs: 1 });
    await store.claim(keyOf(PATH), { token: 'elsewhere', now: clock.now, until: clock.now + 4_500 });
    const subject = returning([pending], undefined, store);
    const error = await failure(subject.shopperReturns());
    assert.ok(error instanceof GatewayThrottledError, String(error));
    assert.equal(error.message, `Status of checkout ${CHECKOUT} is being read by another request that has not answered yet; not sent`);
    assert.equal(error.retryAfterSeconds, 5);
  });

  test('a payment read held elsewhere is named as a payment', async () => {
    const paymentPath = '/v1/payments/8ac7a4a17000000000000000000000f3';
    const store = createMemoryStatusStore({ now: () => clock.now, waitMs: 1 });
    await store.claim(keyOf(paymentPath), { token: 'elsewhere', now: clock.now, until: clock.now + 1_000 });
    const error = await failure(returning([pending], undefined, store).client.handleShopperReturn({ resourcePath: paymentPath }));
    assert.equal(
      (error as Error).message,
      'Payment 8ac7a4a17000000000000000000000f3 is being read by another request that has not answered yet; not sent',
    );
  });

  test('every caller left while the claim was being granted: nothing is sent, the claim is released', async () => {
    const memory = createMemoryStatusStore({ now: () => clock.now });
    let grant = () => {};
    const granted = new Promise<void>((resolve) => (grant = resolve));
    const store: StatusStore = {
      ...memory,
      claim: async (key, request) => (await granted, memory.claim(key, request)),
      settle: memory.settle,
      renew: memory.renew,
      read: memory.read,
    };
    const subject = returning([pending], undefined, store);
    const controller = new AbortController();
    const leaving = failure(subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { signal: controller.signal }));
    controller.abort(new Error('shopper closed the tab'));
    assert.match(((await leaving) as Error).message, /aborted by its caller/);
    grant();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(subject.reads(), 0, 'nothing sent');
    assert.equal(
      (await memory.claim(keyOf(PATH), { token: 'next', now: clock.now, until: clock.now + 1_000 })).status,
      'claimed',
      'released',
    );
  });

  test('a caller leaving a read already sent does not cancel it: the next return joins it', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const subject = returning([() => answered.then(() => ({ status: 200, body: payment('000.100.110') })) as unknown as ScriptedAnswer]);
    const controller = new AbortController();
    const leaving = failure(subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { signal: controller.signal }));
    while (subject.reads() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort(new Error('shopper closed the tab'));
    await leaving;
    const joined = subject.shopperReturns();
    answer();
    assert.equal((await joined).result.code, '000.100.110');
    assert.equal(subject.reads(), 1, 'one status read for both');
  });

  test("the read goes to the caller's channel", async () => {
    const channel = '8a8294174b7ecb28014b9699220015cb';
    const subject = returning([pending]);
    await subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { entityId: channel });
    assert.equal(subject.calls.find(isStatusRead)!.url.searchParams.get('entityId'), channel);
  });

  test("when the store already holds an approved answer (a lapsed holder's late one), that answer is returned", async () => {
    const memory = createMemoryStatusStore({ now: () => clock.now });
    const earlierId = '8ac7a4a17000000000000000000000f9';
    const earlier = payment('000.100.110', { id: earlierId });
    const store: StatusStore = {
      ...memory,
      claim: memory.claim,
      renew: memory.renew,
      read: memory.read,
      settle: async (key, token, settlement) => (await memory.settle(key, token, settlement), JSON.stringify(earlier)),
    };
    const subject = returning([() => ({ status: 200, body: payment('000.100.110') })], undefined, store);
    assert.equal((await subject.shopperReturns()).id, earlierId);
  });
});

describe('an answer is what its own type says, on the entity it was read on', () => {
  const registration = answer('000.100.110', { id: '8ac7a4a17000000000000000000000f4', paymentType: 'RG', ndc: CHECKOUT } as Record<
    string,
    unknown
  >);
  const registrationId = '8ac7a4a17000000000000000000000f4';

  test('a payment read answered with a registration is refused, typed, never money; the next read reconciles', async () => {
    for (const card of [registration, { ...registration, paymentType: undefined }, { ...registration, paymentType: null, amount: null }]) {
      const subject = returning([() => ({ status: 200, body: card }), () => noSession], () => list([]));
      await created(subject.store, { ...MADE, made: undefined });
      const error = await failure(subject.shopperReturns());
      assert.ok(error instanceof GatewayValidationError, String(error));
      assert.equal(error.parameterErrors[0]!.name, 'resourcePath');
      assert.match(error.parameterErrors[0]!.message, /is a registration-only checkout's \(the gateway answered it with a/);
      assert.equal(await markLeft(subject.store), true);
    }
  });

  test('a registration read answered with money is refused, typed, never a saved card', async () => {
    for (const [money, type] of [
      [payment('000.100.110'), 'DB'],
      [payment('000.100.110', { paymentType: undefined }), 'transaction'],
      [payment('000.200.000'), 'DB'],
    ] as const) {
      const subject = returning([() => ({ status: 200, body: money })]);
      const error = await failure(
        subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: REGISTRATION_PATH }, { expect: 'registration' }),
      );
      assert.ok(error instanceof GatewayValidationError, String(error));
      assert.equal(
        error.parameterErrors[0]!.message,
        `is a payment checkout's (the gateway answered it with a ${type}): read it without { expect: 'registration' }`,
      );
    }
  });

  test("a status read answered with another request's payment is never the checkout's, nor kept: the next read reconciles", async () => {
    for (const [what, fields] of [
      ['another checkout', { ndc: OTHER }],
      ['another reference', { customParameters: { GW_REFERENCE: 'another-request' } }],
      ['another amount', { amount: '1.00' }],
      ['another currency', { currency: 'USD' }],
      ['another type', { paymentType: 'PA' }],
    ] as const) {
      const subject = returning([() => ({ status: 200, body: payment('000.100.110', fields) }), () => noSession], () =>
        list([entry('000.100.110')]),
      );
      await created(subject.store);
      const error = await failure(subject.shopperReturns());
      // The read's own answer is lost: whether the shopper paid is unknown (never "failed", which would make a new payment safe).
      assert.ok(error instanceof StatusUnknownError, `${what}: ${String(error)}`);
      assert.equal(outcomeOf(error).retryable, false, what);
      assert.ok(error.cause instanceof GatewayNetworkError && /is another request's/.test(error.cause.message), what);
      assert.equal(await markLeft(subject.store), true, `${what}: the read is marked unanswered`);
      // The checkout's own payment, found by its reference, is the answer from then on.
      assert.equal((await subject.shopperReturns()).amount, '10.00', what);
    }
  });

  test('nulls in an answer are fields the platform did not fill: an unpaid checkout is pending, not another kind', async () => {
    const subject = returning([
      () => ({ status: 200, body: answer('000.200.000', { id: null, paymentType: null, amount: null, ndc: CHECKOUT }) }),
    ]);
    assert.equal((await subject.shopperReturns()).result.code, '000.200.000');
  });

  test('the result alone (nothing made yet) is either kind; a saved card is a registration', async () => {
    const bare = returning([() => ({ status: 200, body: answer('000.200.000', { ndc: CHECKOUT }) })]);
    assert.equal((await bare.shopperReturns()).result.code, '000.200.000');
    const card = returning([() => ({ status: 200, body: registration })]);
    const saved = await card.client.handleShopperReturn({ id: CHECKOUT, resourcePath: REGISTRATION_PATH }, { expect: 'registration' });
    assert.equal(saved.id, registrationId);
  });

  test('a checkout created for the other kind is refused before anything is sent', async () => {
    const subject = returning([() => ({ status: 200, body: registration })]);
    await created(subject.store, { ...MADE, made: 'registration' });
    const error = await failure(subject.shopperReturns());
    assert.ok(error instanceof GatewayValidationError, String(error));
    assert.match(
      error.parameterErrors[0]!.message,
      /registration-only checkout's \(it was created so\): read it with \{ expect: 'registration' \}/,
    );
    const paying = returning([() => ({ status: 200, body: payment('000.100.110') })]);
    await created(paying.store, { ...MADE, made: 'payment' });
    const card = paying.client.handleShopperReturn({ id: CHECKOUT, resourcePath: REGISTRATION_PATH }, { expect: 'registration' });
    await assert.rejects(card, /is a payment checkout's \(it was created so\)/);
    assert.equal(subject.reads() + paying.reads(), 0);
  });

  test("an answer remembered on one entity is not another entity's: that read goes to the gateway", async () => {
    const other = '8a8294174b7ecb28014b9699220015c3';
    const subject = returning([
      () => ({ status: 200, body: payment('000.100.110') }),
      () => ({ status: 403, body: answer('800.900.301', {}) }),
    ]);
    await created(subject.store, { ...MADE, entityId: ENTITY });
    assert.equal((await subject.shopperReturns()).result.code, '000.100.110');
    await assert.rejects(subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { entityId: other }));
    assert.equal(subject.reads(), 2);
    assert.equal(subject.calls.filter(isStatusRead)[1]!.url.searchParams.get('entityId'), other);
    assert.equal((await subject.shopperReturns()).result.code, '000.100.110');
    assert.equal(subject.reads(), 2, 'its own entity still answers from the store');
  });
});

describe('what an answer is, by its own type', () => {
  const registrationRead = (body: unknown) =>
    returning([() => ({ status: 200, body: body as never })]).client.handleShopperReturn(
      { id: CHECKOUT, resourcePath: REGISTRATION_PATH },
      { expect: 'registration' },
    );
  const paymentRead = (body: unknown) => returning([() => ({ status: 200, body: body as never })]).shopperReturns();
  const card = { id: '8ac7a4a17000000000000000000000f4', ndc: CHECKOUT };

  test('a saved card has no amount and no type but RG', async () => {
    assert.equal((await registrationRead(answer('000.100.110', card))).id, card.id);
    await assert.rejects(registrationRead(answer('000.100.110', { ...card, paymentType: 'DB' })), GatewayValidationError);
  });

  test('money has a type other than RG, or an amount; a null is a field not filled, never another kind', async () => {
    await assert.rejects(paymentRead(answer('000.100.110', { ...card, paymentType: 'RG', amount: '10.00' })), GatewayValidationError);
    const neither = await failure(paymentRead(answer('000.100.110', { ...card, paymentType: null, amount: null })));
    assert.ok(neither instanceof GatewayValidationError, String(neither));
    assert.match(neither.message, /^The checkout was read, and is another kind than expected: resourcePath is a registration-only/);
    assert.equal((await paymentRead(payment('000.100.110'))).amount, '10.00');
    assert.equal((await paymentRead(payment('000.100.110', { paymentType: null }))).amount, '10.00');
    assert.equal((await paymentRead(payment('000.100.110', { amount: null }))).paymentType, 'DB');
    assert.equal((await paymentRead(answer('000.100.110', { ...card, amount: '10.00' }))).amount, '10.00');
  });
});

describe('returns in flight', () => {
  test('concurrent returns of two checkouts, or of one checkout on two entities, each get their own read', async () => {
    const other = '8a8294174b7ecb28014b9699220015c3';
    const idOf = (checkoutId: string, entityId: string | null) =>
      `${checkoutId.slice(0, 31)}${entityId === other ? '1' : '0'}`.toLowerCase();
    const { client, calls } = standInClient(
      async (call) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const checkoutId = call.url.pathname.split('/')[3]!;
        return {
          status: 200,
          body: payment('000.200.000', { id: idOf(checkoutId, call.url.searchParams.get('entityId')), ndc: checkoutId }),
        };
      },
      { statusStore: createMemoryStatusStore({ now: () => clock.now }), now: () => clock.now },
    );
    const read = (checkoutId: string, entityId?: string) =>
      client.handleShopperReturn({ id: checkoutId, resourcePath: `/v1/checkouts/${checkoutId}/payment` }, entityId ? { entityId } : {});
    const answers = await Promise.all([read(CHECKOUT), read(OTHER), read(CHECKOUT, other), read(CHECKOUT)]);
    assert.deepEqual(
      answers.map((each) => each.id),
      [idOf(CHECKOUT, null), idOf(OTHER, null), idOf(CHECKOUT, other), idOf(CHECKOUT, null)],
    );
    assert.equal(calls.length, 3, 'the two returns of one checkout on one entity share one read');
  });

  test('a caller leaving before the read is sent leaves it to the others; its own error carries its reason', async () => {
    const memory = createMemoryStatusStore({ now: () => clock.now });
    let grant = () => {};
    const granted = new Promise<void>((resolve) => (grant = resolve));
    const store: StatusStore = {
      ...memory,
      claim: async (key, request) => (await granted, memory.claim(key, request)),
      settle: memory.settle,
      renew: memory.renew,
      read: memory.read,
    };
    const subject = returning([() => ({ status: 200, body: payment('000.100.110') })], undefined, store);
    const controller = new AbortController();
    const removed: string[] = [];
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.removeEventListener = ((type: string, listener: EventListener) => {
      removed.push(type);
      remove(type, listener);
    }) as typeof controller.signal.removeEventListener;
    const reason = new Error('shopper closed the tab');
    const leaving = failure(subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { signal: controller.signal }));
    const stays = subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { signal: new AbortController().signal });
    controller.abort(reason);
    // Its own reason, as a scrubbed copy (a cause that is not the kit's is never kept as it is).
    assert.equal(((await leaving) as { cause: Error }).cause.message, reason.message);
    grant();
    assert.equal((await stays).result.code, '000.100.110');
    assert.equal(subject.reads(), 1);
    const done = new AbortController();
    const tracked: string[] = [];
    const untrack = done.signal.removeEventListener.bind(done.signal);
    done.signal.removeEventListener = ((type: string, listener: EventListener) => {
      tracked.push(type);
      untrack(type, listener);
    }) as typeof done.signal.removeEventListener;
    await subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { signal: done.signal });
    assert.deepEqual(tracked, ['abort'], "no listener is left on the caller's signal");
  });
});

describe("a return's resourcePath, checked before anything is read", () => {
  const refused = async (query: { id?: unknown; resourcePath?: unknown }, registration = false) => {
    const subject = returning([() => noSession]);
    const error = await failure(
      subject.client.handleShopperReturn(query as never, (registration ? { expect: 'registration' } : {}) as never),
    );
    assert.ok(error instanceof GatewayValidationError, String(error));
    assert.equal(subject.calls.length, 0);
    return error.parameterErrors[0];
  };
  const PAYMENT_RULE = 'must be /v1/checkouts/{id}/payment or /v1/payments/{id}, with the same id as the id parameter';

  test('each refusal names the field, its value (at most 100 characters) and what it must be', async () => {
    const long = `/v1/checkouts/${'A'.repeat(120)}/payment`;
    assert.deepEqual(await refused({ resourcePath: `${long}?` }), {
      name: 'resourcePath',
      value: long.slice(0, 100),
      message: PAYMENT_RULE,
    });
    assert.deepEqual(await refused({ resourcePath: 42 }), { name: 'resourcePath', value: '', message: PAYMENT_RULE });
    assert.deepEqual(await refused({ id: CHECKOUT, resourcePath: REGISTRATION_PATH }), {
      name: 'resourcePath',
      value: REGISTRATION_PATH,
      message: "is a registration-only checkout's: read it with { expect: 'registration' }",
    });
    assert.deepEqual(await refused({ id: CHECKOUT, resourcePath: PATH }, true), {
      name: 'resourcePath',
      value: PATH,
      message: 'must be /v1/checkouts/{id}/registration (a registration-only checkout), with the same id as the id parameter',
    });
  });

  test("a result URL with an id of the shop's own: the gateway's pair, appended last, is read (as Express lists it, too)", async () => {
    for (const query of [
      { id: ['order-1234', CHECKOUT], resourcePath: PATH },
      { id: ['order-1234', CHECKOUT], resourcePath: ['/shop/own', PATH] },
    ]) {
      const subject = returning([() => noSession]);
      await subject.client.handleShopperReturn(query).catch(() => undefined);
      assert.equal(subject.calls.length > 0, true, `read for ${JSON.stringify(query)}`);
    }
    assert.deepEqual(await refused({ id: [CHECKOUT, 'order-1234'], resourcePath: PATH }), {
      name: 'resourcePath',
      value: PATH,
      message: PAYMENT_RULE,
    });
  });
});

/** Claims the status key as the next reader would: whether it is told an earlier read's answer is unknown. */
async function markLeft(store: StatusStore, path = PATH): Promise<boolean> {
  const probe = await store.claim(keyOf(path), { token: 'probe', now: clock.now, until: clock.now + 1 });
  assert.equal(probe.status, 'claimed');
  await store.settle(keyOf(path), 'probe', {});
  return probe.status === 'claimed' && probe.unanswered === true;
}

describe('what an unproven "no session" leaves behind', () => {
  test('an id this store never saw created: nothing (a flood of random ids cannot fill it)', async () => {
    const subject = returning([() => noSession]);
    await unknown(subject.shopperReturns(), /does not know it from its creation/);
    assert.equal(await markLeft(subject.store), false);
  });

  test('a checkout it saw created, before its data began, whose look-up failed: the mark, so the next reader reconciles', async () => {
    const subject = returning([() => noSession], () => ({ status: 500, body: answer('900.100.300', {}, 'timeout') }));
    await created(subject.store, { merchantTransactionId: ORDER, createdAt: T0 - 1 });
    await unknown(subject.shopperReturns(), /looking it up by its merchantTransactionId failed/);
    assert.equal(await markLeft(subject.store), true);
  });

  test('a store that does not say when its data began vouches for the creation record: "no session" is believed, no mark', async () => {
    const store = storeWithoutSince();
    const subject = returning([() => noSession], undefined, store);
    await created(store);
    await assert.rejects(subject.shopperReturns(), GatewayNotFoundError);
    assert.equal(await markLeft(store), false);
  });
});

test('a record without its creation time, in a store that vouches for it, and nothing to look it up by: pending for a status window', async () => {
  const store = storeWithoutSince();
  const subject = returning([() => noSession], undefined, store);
  await created(store, '{"made":"payment"}');
  const error = await failure(subject.shopperReturns());
  assert.ok(error instanceof CheckoutPendingError, String(error));
  assert.equal(error.decidedAt, clock.now + 60_000);
  assert.equal(error.retryAfterSeconds, 60);
});

describe("the look-up goes to the checkout's entity", () => {
  const CREATED_ON = '8a8294174b7ecb28014b9699220015c1';
  const CHOSEN = '8a8294174b7ecb28014b9699220015c2';
  for (const [what, record, options, expected] of [
    ['the entity it was created on', { entityId: CREATED_ON }, {}, CREATED_ON],
    ["the caller's entity, when named", { entityId: CREATED_ON }, { entityId: CHOSEN }, CHOSEN],
    ["the client's entity for the caller's brands, when named", { entityId: CREATED_ON }, { brands: ['VISA'] }, ENTITY],
    ["the client's entity, when the record names none", {}, {}, ENTITY],
  ] as [string, object, { entityId?: string; brands?: string[] }, string][]) {
    test(what, async () => {
      const subject = returning([() => noSession]);
      await created(subject.store, { merchantTransactionId: ORDER, createdAt: T0 - 1, ...record });
      await failure(subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, options as never));
      const lookUp = subject.calls.find(isLookUp)!;
      assert.equal(lookUp.url.searchParams.get('entityId'), expected);
    });
  }
});

describe('a registration-only checkout\'s "no session"', () => {
  const registering = () => {
    const subject = returning([() => noSession]);
    const readCard = () =>
      subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: REGISTRATION_PATH }, { expect: 'registration' });
    return {
      ...subject,
      readCard,
      registrationReads: () => subject.calls.filter((call) => call.url.pathname === REGISTRATION_PATH).length,
    };
  };

  test('unseen: whether a card was saved is unknown (no money moved), under the remembered merchantTransactionId, and the mark is left', async () => {
    const subject = registering();
    await created(subject.store, { merchantTransactionId: ORDER, createdAt: T0 - 1 });
    const error = await failure(subject.readCard());
    assert.ok(error instanceof StatusUnknownError, String(error));
    assert.match(error.message, /^Whether checkout \S+ saved a card is unknown: .*No money moved/);
    assert.equal(error.merchantTransactionId, ORDER);
    assert.equal(error.retryAfterSeconds, 60);
    assert.ok(error.cause instanceof GatewayNotFoundError);
    assert.equal(subject.registrationReads(), 1);
    assert.equal(await markLeft(subject.store, REGISTRATION_PATH), true);
  });

  test('never seen created: unknown without a merchantTransactionId, and nothing left behind', async () => {
    const subject = registering();
    const error = await failure(subject.readCard());
    assert.ok(error instanceof StatusUnknownError, String(error));
    assert.equal(error.merchantTransactionId, '');
    assert.equal(await markLeft(subject.store, REGISTRATION_PATH), false);
  });
});

describe("the caller's options on the shared read", () => {
  test("timeoutMs bounds the status read: a hung read ends at the caller's limit, not the client's", async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const hung = (call: GatewayRequest) =>
        new Promise<ScriptedAnswer>((_, reject) => call.signal?.addEventListener('abort', () => reject(call.signal!.reason)));
      const subject = returning([hung]);
      let outcome: unknown;
      const returned = subject.client.handleShopperReturn({ id: CHECKOUT, resourcePath: PATH }, { timeoutMs: 50 }).then(
        (value) => (outcome = value),
        (error: unknown) => (outcome = error),
      );
      const settle = async () => {
        for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      };
      await settle();
      assert.equal(subject.reads(), 1, 'the read was sent');
      mock.timers.tick(49);
      await settle();
      const early = outcome;
      mock.timers.tick(1);
      await settle();
      assert.equal(early, undefined, "still waiting before the caller's 50 ms");
      assert.ok(outcome instanceof Error, `ended at 50 ms (the client's own limit is 2000 ms): ${String(outcome)}`);
      mock.timers.tick(5_000);
      await returned;
    } finally {
      mock.timers.reset();
    }
  });
});

describe('a read whose answer was lost, or that could not be made, never tells a paid shopper that a new payment is safe', () => {
  test('no answer, a gateway error page, a cut body or a timeout: unknown (not failed), and the paid checkout is found next', async () => {
    for (const [what, lost] of [
      ['dropped', () => Promise.reject(new TypeError('fetch failed'))],
      ['a proxy page', () => ({ status: 502, raw: 'Bad Gateway' })],
      ['a cut body', () => ({ status: 200, raw: '{"result":{"code":"000.1' })],
      ['a system error', () => ({ status: 500, body: answer('900.100.300', {}, 'timeout') })],
    ] as const) {
      const subject = returning([lost as () => ScriptedAnswer, () => noSession], () => list([entry('000.100.110')]));
      await created(subject.store);
      const error = await failure(subject.shopperReturns());
      assert.ok(error instanceof StatusUnknownError, `${what}: ${String(error)}`);
      const outcome = outcomeOf(error);
      assert.equal(outcome.kind, 'uncertain', what);
      assert.equal(outcome.retryable, false, what);
      assert.equal((await subject.shopperReturns()).amount, '10.00', `${what}: the paid checkout is found by its reference`);
    }
  });

  test('a read not sent (the limit, another read under way, the store failing) is throttled, but never retryable', async () => {
    // Declined twice: the gateway's 2 status reads a minute are spent, and the third is refused before sending.
    const declined = () => ({ status: 200, body: answer('800.100.152', { ndc: CHECKOUT }) });
    const subject = returning([declined]);
    await created(subject.store);
    for (let read = 0; read < 2; read++) await assert.rejects(subject.shopperReturns(), GatewayDeclinedError);
    const limited = await failure(subject.shopperReturns());
    assert.ok(limited instanceof GatewayThrottledError, String(limited));
    assert.equal(subject.reads(), 2);
    assert.equal(outcomeOf(limited).retryable, false);
    const unavailable = new StatusStoreUnavailableError('the store is down');
    assert.equal(outcomeOf(unavailable).kind, 'throttled');
    assert.equal(outcomeOf(unavailable).retryable, false);
    // A throttle of a request that moves no money yet (the gateway's 429 on a creation) may be tried again.
    assert.equal(outcomeOf(new GatewayThrottledError('slow down')).retryable, true);
  });
});
