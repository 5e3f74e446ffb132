/**
 * The demo merchant under hostile input and a failing gateway (issue 12): every
 * answer is a JSON object with the right status and no stack, and no card
 * number, security code or access token planted in the input comes back in an
 * answer, in the call log the pages show (the answers' `calls`) or on the
 * merchant's console. Money rule on top: a payment POST is never sent twice
 * for one merchantTransactionId, whatever the faults. The payment pages the
 * merchant renders (HTML with the checkout in it) owe the same, as pages under
 * their Content-Security-Policy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startMerchant, type RunningMerchant } from '../../demo/server/merchant.js';
import { CARDS, startSandbox, type FaultMode, type Sandbox } from '../../src/sandbox/index.js';
import type { StatusStore } from '../../src/server/index.js';
import { holdsCode } from './canaries.js';

/** The merchant's own token, planted in inputs too: it must never come back. */
const TOKEN = 'OGFjN2E0Yzc5Mzk0YmRjODAxOTM5NzM2ZjFhNzA2NDF8ZGVtby1jYW5hcnk=';
/** Card numbers that pass Luhn but are no sandbox test card, so no page shows them legitimately. */
const PANS = ['4111111111111111', '5555555555554444'];
const CVV = '8302';
const CANARIES = [TOKEN, ...PANS];

let sandbox: Sandbox;
let merchant: RunningMerchant;
const consoleLines: string[] = [];
const originalConsoleError = console.error;

/** The merchant's patience, cut short: a hanging gateway costs a fraction of a second, not a minute. */
const PATIENCE = { timeoutMs: 400, maxNetworkRetries: 0, reconcileDelaysMs: [20, 40] } as const;

before(async () => {
  console.error = (...parts: unknown[]) => void consoleLines.push(parts.map(String).join(' '));
  sandbox = await startSandbox({ port: 0, quiet: true, tokens: [TOKEN] });
  merchant = await startMerchant({
    port: 0,
    gateway: { baseUrl: sandbox.url, accessToken: TOKEN, entityId: sandbox.entities[0]! },
    advanceGatewayClock: (seconds) => sandbox.clock.advance(seconds),
    client: PATIENCE,
  });
});

after(async () => {
  console.error = originalConsoleError;
  await merchant?.close();
  await sandbox?.close();
});

interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly body: Record<string, any>;
}

/** Where a secret was found in `text`, if anywhere. */
function leakIn(text: string): string | undefined {
  const found = CANARIES.find((canary) => text.includes(canary));
  if (found) return found;
  // A security code is short: it is searched for standing alone, not inside an id (a call's UUID) or a timestamp.
  return holdsCode(text, CVV) ? CVV : undefined;
}

/** Sends `exchange` and checks what every answer owes: JSON object, sane status, no stack, no secret. */
async function send(exchange: Exchange, allowed: readonly number[]): Promise<Answer> {
  const response = await fetch(`${merchant.url}${exchange.path}`, {
    method: exchange.method,
    ...(exchange.headers ? { headers: exchange.headers } : {}),
    ...(exchange.body === undefined ? {} : { body: exchange.body }),
  });
  const text = await response.text();
  const what = `${exchange.method} ${exchange.path} → ${response.status} ${text.slice(0, 300)}`;
  assert.ok(allowed.includes(response.status), `unexpected status: ${what}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `not JSON: ${what}`);
  const body = JSON.parse(text) as unknown;
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `not a JSON object: ${what}`);
  const answer = body as Record<string, any>;
  if (response.status >= 400) assert.equal(typeof answer.error, 'string', `a failure without a message: ${what}`);
  assert.doesNotMatch(text, /\n\s+at |\.ts:\d+|node_modules|TypeError|ReferenceError/, `a stack or an internal error: ${what}`);
  assert.equal(leakIn(text), undefined, `a secret in the answer (or its call log): ${what}`);
  for (const line of consoleLines) assert.equal(leakIn(line), undefined, `a secret on the console after ${what}: ${line.slice(0, 300)}`);
  return { status: response.status, text, body: answer };
}

const json = (value: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/**
 * A value an attacker or a confused page might send: canaries alone, inside text, in numbers' places, nested.
 * The bare security code is planted only under security-code names (`cvvFields`): four digits typed as a
 * name are a name, and may be shown.
 */
const secretish = fc.oneof(
  fc.constantFrom(...CANARIES, `Jane ${PANS[0]}`, `Bearer ${TOKEN}`, `cvv=${CVV}`, PANS[1]!.replace(/(\d{4})/g, '$1 ').trim()),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    CARDS.approved,
    CARDS.declined,
    CARDS.challenge,
    CARDS.uncertain,
    '12.50',
    '0.00',
    '9999999999.99',
    '05',
    'espresso-beans',
  ),
);
const nested = fc.oneof(
  secretish,
  fc.array(secretish, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('sku', 'quantity', 'number', 'cvv', 'language', 'x'), secretish, { maxKeys: 3 }),
);

/** The fields the routes read, and some they never do, each with hostile values. */
const FIELDS = [
  'lines',
  'cardNumber',
  'holder',
  'amount',
  'challengeWindow',
  'browser',
  'captureId',
  'registrationId',
  'card.cvv',
  'cvv',
  'card',
  'accessToken',
  '__proto__',
  'constructor',
];
const cvvFields = fc.constantFrom({}, { cvv: CVV }, { 'card.cvv': CVV }, { card: { number: PANS[0], cvv: CVV } }, { securityCode: CVV });
const hostileObject = fc
  .tuple(fc.dictionary(fc.constantFrom(...FIELDS), nested, { maxKeys: 6 }), cvvFields)
  .map(([fields, cvv]) => ({ ...fields, ...cvv }));

/** Ids for path parameters: unknown, canaries, odd encodings. */
const pathId = fc.oneof(
  fc.constantFrom('unknown', encodeURIComponent(TOKEN), PANS[0]!, `${PANS[1]}%2F..%2F`, '%E0%A4%A', '%00', '..', 'a'.repeat(300)),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

const ROUTES = [
  ['GET', '/api/config'],
  ['POST', '/api/orders'],
  ['GET', '/api/orders/:id'],
  ['POST', '/api/orders/:id/checkout'],
  ['GET', '/api/orders/:id/payment'],
  ['POST', '/api/orders/:id/reconcile'],
  ['POST', '/api/card-payments'],
  ['GET', '/api/card-payments/return'],
  ['GET', '/api/reservations'],
  ['POST', '/api/reservations'],
  ['POST', '/api/reservations/:id/captures'],
  ['POST', '/api/reservations/:id/refunds'],
  ['GET', '/api/payout-cards'],
  ['POST', '/api/payout-cards'],
  ['POST', '/api/payouts'],
  ['GET', '/api/references'],
  ['GET', '/api/transactions'],
  ['PUT', '/api/orders'],
  ['GET', '/api/:id'],
] as const;

const queryString = fc
  .dictionary(
    fc.constantFrom('id', 'resourcePath', 'merchantTransactionId', 'x', 'card.number'),
    fc.oneof(secretish.map(String), fc.array(secretish.map(String), { minLength: 2, maxLength: 2 })),
    { maxKeys: 3 },
  )
  .map((query) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) for (const item of [value].flat()) search.append(name, item);
    return search.size ? `?${search}` : '';
  });

/** A body in every shape: none, hostile JSON, any JSON, broken JSON quoting a secret, the wrong type, too large, a charset Express refuses. */
const bodyAndHeaders = fc.oneof(
  fc.constant({}),
  hostileObject.map((value) => json(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => json(value)),
  fc.constantFrom(...CANARIES).map((canary) => ({ headers: { 'content-type': 'application/json' }, body: `{"cardNumber": ${canary}` })),
  hostileObject.map((value) => ({
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(
      Object.entries(value).map(([name, item]) => [name, typeof item === 'string' ? item : JSON.stringify(item)]),
    ).toString(),
  })),
  fc.constant({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ holder: `${PANS[0]} `.repeat(5000) }) }),
  hostileObject.map((value) => ({ headers: { 'content-type': 'application/json; charset=latin1' }, body: JSON.stringify(value) })),
  hostileObject.map((value) =>
    json(value, { 'user-agent': `Mozilla ${TOKEN}`, 'x-forwarded-for': `${PANS[0]}, 127.0.0.1`, accept: `text/html;${CVV}` }),
  ),
);

describe('demo merchant under hostile input (fast-check)', () => {
  test('every request, however malformed, gets a well-formed answer without a secret; nothing is a 500', async () => {
    const exchange = fc.record({ route: fc.constantFrom(...ROUTES), id: pathId, query: queryString, extra: bodyAndHeaders });
    await fc.assert(
      fc.asyncProperty(exchange, async ({ route: [method, template], id, query, extra }) => {
        const path = `${template.replace(':id', id)}${query}`;
        await send(
          { method, path, ...(method === 'GET' ? { headers: 'headers' in extra ? extra.headers : {} } : extra) },
          [200, 400, 404, 413, 415, 502],
        );
      }),
      { numRuns: 150 },
    );
  });

  test('a secret in any one field of an otherwise valid request never comes back, wherever the shop would echo it', async () => {
    const order = (await send({ method: 'POST', path: '/api/orders', ...json({ lines: [{ sku: 'espresso-beans', quantity: 1 }] }) }, [200]))
      .body.order;
    const held = await reservation();
    const capture = (await send({ method: 'POST', path: `/api/reservations/${held}/captures`, ...json({ amount: '5.00' }) }, [200])).body
      .reservation.captures[0].id as string;
    const saved = (
      await send({ method: 'POST', path: '/api/payout-cards', ...json({ cardNumber: CARDS.approved, holder: 'Jane Jones' }) }, [200])
    ).body.payoutCard.registrationId as string;
    const browser = { language: 'de-AT', screenWidth: 1280, screenHeight: 800, screenColorDepth: 24, timezone: -60 };
    const checkoutReturn = { id: order.checkoutId, resourcePath: `/v1/checkouts/${order.checkoutId}/payment` };
    /** Valid requests of every route: `params.id` goes into the path, `query` after it, `body` as JSON. */
    const valid: {
      method: string;
      template: string;
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: Record<string, unknown>;
    }[] = [
      { method: 'POST', template: '/api/orders', body: { lines: [{ sku: 'filter-beans', quantity: 2 }] } },
      { method: 'GET', template: '/api/orders/:id', params: { id: order.id } },
      { method: 'GET', template: '/api/orders/:id/payment', params: { id: order.id }, query: checkoutReturn },
      {
        method: 'POST',
        template: '/api/card-payments',
        body: { cardNumber: CARDS.approved, holder: 'Jane Jones', amount: '10.00', challengeWindow: '02', browser },
      },
      { method: 'GET', template: '/api/card-payments/return', query: { id: 'unknown', resourcePath: '/v1/payments/unknown' } },
      { method: 'POST', template: '/api/reservations', body: { cardNumber: CARDS.approved, holder: 'Jane Jones', amount: '20.00' } },
      { method: 'POST', template: '/api/reservations/:id/captures', params: { id: held }, body: { amount: '1.00' } },
      { method: 'POST', template: '/api/reservations/:id/refunds', params: { id: held }, body: { captureId: capture, amount: '1.00' } },
      { method: 'POST', template: '/api/payout-cards', body: { cardNumber: CARDS.approved, holder: 'Jane Jones' } },
      { method: 'POST', template: '/api/payouts', body: { registrationId: saved, amount: '2.00' } },
      { method: 'GET', template: '/api/transactions', query: { merchantTransactionId: order.id } },
    ];
    /** Every leaf of a request as a path into it, e.g. ['body', 'browser', 'language']. */
    const leaves = (value: unknown, path: string[] = []): string[][] =>
      value !== null && typeof value === 'object' ? Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key])) : [path];
    const replaced = (value: any, [head, ...rest]: string[], secret: string): any =>
      head === undefined
        ? secret
        : Array.isArray(value)
          ? value.map((item, index) => (String(index) === head ? replaced(item, rest, secret) : item))
          : { ...value, [head]: replaced(value[head], rest, secret) };
    const secrets = fc.constantFrom(
      ...CANARIES,
      `Jane ${PANS[0]}`,
      `${PANS[1]}`.replace(/(\d{4})(?=\d)/g, '$1 '),
      `Bearer ${TOKEN}`,
      `ref-${PANS[0]}`,
      `cvv=${CVV}`,
    );
    const headerSecrets = fc.option(fc.record({ 'user-agent': secrets, 'x-forwarded-for': secrets, 'accept-language': secrets }), {
      nil: undefined,
    });
    await fc.assert(
      fc.asyncProperty(fc.nat(valid.length - 1), fc.nat(40), secrets, headerSecrets, async (which, leafIndex, secret, headers) => {
        const request = valid[which]!;
        const slots = leaves({ params: request.params ?? {}, query: request.query ?? {}, body: request.body ?? {} });
        const slot = slots[leafIndex % slots.length]!;
        const planted = replaced({ params: request.params ?? {}, query: request.query ?? {}, body: request.body ?? {} }, slot, secret);
        const path = `${request.template.replace(':id', encodeURIComponent(String(planted.params.id ?? '')))}${Object.keys(planted.query).length ? `?${new URLSearchParams(planted.query)}` : ''}`;
        // Every body also carries a security code the shop never asked for.
        const exchange =
          request.method === 'GET'
            ? { method: 'GET', path, headers: { ...headers } }
            : { method: 'POST', path, ...json({ ...planted.body, cvv: CVV, card: { cvv: CVV } }, { ...headers }) };
        await send(exchange, [200, 400, 404, 502]);
      }),
      { numRuns: 200 },
    );
  });

  test('the call log shows what was sent to the gateway, with a card number typed anywhere and the token masked', async () => {
    const { body } = await send(
      {
        method: 'POST',
        path: '/api/card-payments',
        ...json({ cardNumber: PANS[0], holder: `Jane ${PANS[1]}`, amount: '10.00', cvv: CVV }, { 'user-agent': `Mozilla ${TOKEN}` }),
      },
      [200],
    );
    const post = (body.calls as { method: string; params: Record<string, string> }[]).find((call) => call.method === 'POST');
    assert.ok(post, 'the payment was sent and logged');
    assert.equal(post.params['card.number'], '411111******1111');
    assert.equal(post.params['card.cvv'], '***');
    assert.match(post.params['card.holder'] ?? '', /^Jane 555555\*+4444$/);
    assert.ok(!(post.params['customer.browser.userAgent'] ?? '').includes(TOKEN));
  });
});

/** Makes a preauthorisation to capture, refund and pay out against, without faults. */
async function reservation(): Promise<string> {
  const { body } = await send(
    { method: 'POST', path: '/api/reservations', ...json({ cardNumber: CARDS.approved, amount: '20.00' }) },
    [200],
  );
  return body.reservation.preauthorization.id as string;
}

/**
 * A page the merchant renders (a payment page with its checkout in the HTML): checked as `send` checks an answer, but
 * for HTML under the payment pages' policy, its inline script allowed by the response's own nonce.
 */
async function sendPage(
  path: string,
  headers: Record<string, string>,
  allowed: readonly number[],
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${merchant.url}${path}`, { headers });
  const text = await response.text();
  const what = `GET ${path} → ${response.status} ${text.slice(0, 300)}`;
  assert.ok(allowed.includes(response.status), `unexpected status: ${what}`);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/, `not HTML: ${what}`);
  const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  assert.ok(nonce, `no nonce in the page's policy: ${what}`);
  for (const inline of text.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")([^>]*)>/g))
    assert.ok(inline[1]!.includes(`nonce="${nonce}"`), `an inline script without the page's nonce: ${what}`);
  assert.doesNotMatch(text, /\n\s+at |\.ts:\d+|node_modules|TypeError|ReferenceError/, `a stack or an internal error: ${what}`);
  assert.equal(leakIn(text), undefined, `a secret in the page (or its call log): ${what}`);
  for (const line of consoleLines) assert.equal(leakIn(line), undefined, `a secret on the console after ${what}: ${line.slice(0, 300)}`);
  return { status: response.status, text };
}

describe('the payment pages the demo merchant renders, under hostile input (fast-check)', () => {
  test('any query and headers get a page under its policy (or a page saying what is wrong), never a secret, a stack or a 500', async () => {
    const order = (await send({ method: 'POST', path: '/api/orders', ...json({ lines: [{ sku: 'espresso-beans', quantity: 1 }] }) }, [200]))
      .body.order.id as string;
    const query = fc.dictionary(
      fc.constantFrom('order', 'setup', 'returned', 'x'),
      fc.oneof(secretish.map(String), fc.constantFrom(order, 'mada', 'cards', '<script>alert(1)</script>')),
      { maxKeys: 3 },
    );
    const headers = fc.option(fc.record({ 'user-agent': fc.constantFrom(...CANARIES), accept: fc.constant(`text/html;${CVV}`) }), {
      nil: undefined,
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/pay.html', '/pay-ar.html', '/wallets.html'), query, headers, async (page, params, extra) => {
        const { text } = await sendPage(`${page}?${new URLSearchParams(params)}`, extra ?? {}, [200, 400, 404]);
        assert.ok(!text.includes('<script>alert(1)</script>'), 'a value of the query is written into the page unescaped');
      }),
      { numRuns: 60 },
    );
  });

  test('a gateway that fails while a page opens its checkout (error, hang, drop) gets a 502 page, never a 500 or a stack', async () => {
    for (const mode of ['error', 'hang', 'drop'] as const) {
      sandbox.fault('/v1/checkouts', mode);
      const { text } = await sendPage('/pay-ar.html', {}, [502]).finally(() => sandbox.fault('/v1/checkouts', mode, 0));
      assert.match(text, /role="alert"/, `${mode}: the page says what went wrong`);
      assert.match(text, /id="page-calls"/, `${mode}: the failed call is in the call log`);
    }
  });
});

describe('demo merchant when the gateway fails', () => {
  const MODES: readonly FaultMode[] = ['error', 'hang', 'drop'];

  /** Each flow: how to set it up, the gateway path a fault is put on, and the request to the merchant. */
  const flows: { name: string; prepare: () => Promise<{ gatewayPath: string; exchange: Exchange }> }[] = [
    {
      name: 'create an order',
      prepare: async () => ({
        gatewayPath: '/v1/checkouts',
        exchange: { method: 'POST', path: '/api/orders', ...json({ lines: [{ sku: 'espresso-beans', quantity: 1 }] }) },
      }),
    },
    {
      name: "read the order's payment",
      prepare: async () => {
        const { body } = await send(
          { method: 'POST', path: '/api/orders', ...json({ lines: [{ sku: 'filter-beans', quantity: 2 }] }) },
          [200],
        );
        const { id, checkoutId } = body.order;
        const resourcePath = `/v1/checkouts/${checkoutId}/payment`;
        return {
          gatewayPath: resourcePath,
          exchange: { method: 'GET', path: `/api/orders/${id}/payment?${new URLSearchParams({ id: checkoutId, resourcePath })}` },
        };
      },
    },
    {
      name: 'card payment',
      prepare: async () => ({
        gatewayPath: '/v1/payments',
        exchange: { method: 'POST', path: '/api/card-payments', ...json({ cardNumber: PANS[0], amount: '11.00' }) },
      }),
    },
    {
      name: 'preauthorise',
      prepare: async () => ({
        gatewayPath: '/v1/payments',
        exchange: { method: 'POST', path: '/api/reservations', ...json({ cardNumber: PANS[1], amount: '12.00' }) },
      }),
    },
    {
      name: 'capture',
      prepare: async () => {
        const id = await reservation();
        return {
          gatewayPath: `/v1/payments/${id}`,
          exchange: { method: 'POST', path: `/api/reservations/${id}/captures`, ...json({ amount: '5.00' }) },
        };
      },
    },
    {
      name: 'save a card',
      prepare: async () => ({
        gatewayPath: '/v1/registrations',
        exchange: { method: 'POST', path: '/api/payout-cards', ...json({ cardNumber: PANS[0], holder: `Jane ${PANS[1]}` }) },
      }),
    },
    {
      name: 'pay out',
      prepare: async () => {
        const { body } = await send({ method: 'POST', path: '/api/payout-cards', ...json({ cardNumber: CARDS.approved }) }, [200]);
        const { registrationId } = body.payoutCard;
        return {
          gatewayPath: `/v1/registrations/${registrationId}/payments`,
          exchange: { method: 'POST', path: '/api/payouts', ...json({ registrationId, amount: '3.00' }) },
        };
      },
    },
    {
      name: 'transaction report',
      prepare: async () => ({
        gatewayPath: '/v3/query',
        exchange: { method: 'GET', path: '/api/transactions?merchantTransactionId=card-1001' },
      }),
    },
  ];

  for (const flow of flows) {
    test(`${flow.name}: a gateway that fails (${MODES.join(', ')}) gets an outcome or a 502, never a 500, a stack or a second payment`, async () => {
      for (const mode of MODES) {
        const { gatewayPath, exchange } = await flow.prepare();
        sandbox.fault(gatewayPath, mode);
        const { status, body } = await send(exchange, [200, 502]).finally(() => sandbox.fault(gatewayPath, mode, 0));
        if (status === 502) assert.ok(Array.isArray(body.calls) && body.calls.length, `${mode}: the failed calls are shown`);
        // `error` and `hang` lose the request before the gateway acts on it: nothing may read as paid. (`drop` loses the answer
        // after the payment was made: the look-up finds it, so approved is right there.)
        if (mode !== 'drop' && status === 200)
          assert.notEqual(body.outcome, 'approved', `${mode}: nothing was charged, yet the answer says approved`);
      }
    });
  }

  test('a payment POST is sent at most once per merchantTransactionId and payment, however the gateway failed', () => {
    const sent = sandbox
      .requests()
      .filter((request) => request.method === 'POST' && /^\/v1\/(payments|registrations\/[^/]+\/payments)(\/[^/]+)?$/.test(request.path));
    // Captures and refunds are filed under their payment's merchantTransactionId: each flow makes one per payment, so a
    // second POST to the same payment under the same reference would be a lost request sent again.
    const sends = sent
      .filter((request) => request.params.merchantTransactionId)
      .map((request) => `${request.path} ${request.params.paymentType ?? ''} ${request.params.merchantTransactionId}`);
    assert.ok(sends.length > 10, 'payments were sent');
    assert.ok(
      sent.some((request) => request.params.paymentType === 'CP' && request.params.merchantTransactionId?.startsWith('hold-')),
      "captures are filed under their preauthorisation's reference",
    );
    assert.equal(new Set(sends).size, sends.length, `a payment POST was sent twice: ${sends.join(', ')}`);
  });

  test('an uncertain outcome whose look-ups fail too is answered "uncertain", typed, never a TypeError', async () => {
    sandbox.fault('/v3/query', 'error', 20);
    try {
      const { body } = await send(
        { method: 'POST', path: '/api/card-payments', ...json({ cardNumber: CARDS.uncertain, amount: '13.00' }) },
        [200],
      );
      assert.equal(body.outcome, 'uncertain');
      assert.match(body.message, /merchantTransactionId card-\d+/);
    } finally {
      sandbox.fault('/v3/query', 'error', 0);
    }
  });
});

describe('demo merchant when its status store fails', () => {
  // A store that cannot answer means nothing was sent to the gateway: the shopper is told to try again shortly.
  test('a shopper return answers "throttled" with a retry time, nothing from the store\'s error', async () => {
    const failing: StatusStore = {
      claim: () => Promise.reject(new Error(`store down while holding ${TOKEN} ${PANS[0]}`)),
      settle: () => Promise.reject(new Error('store down')),
      renew: () => Promise.reject(new Error('store down')),
    };
    const shop = await startMerchant({
      port: 0,
      gateway: { baseUrl: sandbox.url, accessToken: TOKEN, entityId: sandbox.entities[0]! },
      client: PATIENCE,
      statusStore: failing,
    });
    const previous = merchant;
    merchant = shop;
    try {
      const { body } = await send(
        { method: 'POST', path: '/api/orders', ...json({ lines: [{ sku: 'pour-over-kit', quantity: 1 }] }) },
        [200],
      );
      const { id, checkoutId } = body.order;
      const resourcePath = `/v1/checkouts/${checkoutId}/payment`;
      const answer = await send(
        { method: 'GET', path: `/api/orders/${id}/payment?${new URLSearchParams({ id: checkoutId, resourcePath })}` },
        [200],
      );
      assert.equal(answer.body.outcome, 'throttled');
      assert.ok(answer.body.retryAfterSeconds > 0);
      assert.match(answer.body.message, /store/i);
      assert.doesNotMatch(JSON.stringify(answer.body), /store down/);
    } finally {
      merchant = previous;
      await shop.close();
    }
  });
});
