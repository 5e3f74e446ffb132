/**
 * Issue 12, class 7: no request kills the sandbox. fast-check generates raw
 * HTTP requests (targets, methods, headers, framing, bodies, field names,
 * nesting, sizes, encodings), sends the bytes over a socket to a running
 * sandbox and checks that each gets a well-formed answer in the gateway's
 * shape (never an HTTP 500: that would be a bug the guard caught), and that
 * the sandbox still serves a real payment afterwards.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_LIMITS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cardPayment, threeDsFields } from '../../src/sandbox/fixtures.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { assertWellFormed, label, rawExchange } from './sandbox-support.js';

let sandbox: Sandbox;
let port: number;
let token: string;
let entityId: string;
let fuzzed = 0;
/** Ids of records that exist (a checkout, payments, a registration), so id-taking routes see live ones, not only unknown ones. */
const live: string[] = [];

before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  port = Number(new URL(sandbox.url).port);
  [token] = sandbox.tokens as [string];
  [entityId] = sandbox.entities as [string];
  const create = async (path: string, form: Record<string, string>) => {
    const answer = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new URLSearchParams({ entityId, ...form }),
    });
    return ((await answer.json()) as { id: string }).id;
  };
  const card = cardPayment();
  live.push(
    await create('/v1/checkouts', { amount: '5.00', currency: 'EUR', paymentType: 'DB' }),
    await create('/v1/payments', card),
    await create('/v1/payments', { ...cardPayment({ 'card.number': CARDS.challenge }), ...threeDsFields() }),
    await create(
      '/v1/registrations',
      Object.fromEntries(Object.entries(card).filter(([name]) => name.startsWith('card.') || name === 'paymentBrand')),
    ),
  );
});
after(async () => {
  await sandbox.close();
  console.log(`# sandbox fuzz: ${fuzzed} raw requests`);
});

/** Sends one raw request and checks every answer that came back; a request that gets none fails. */
async function exchange(request: Buffer | string, method: string, options: { expected?: number; timeoutMs?: number } = {}): Promise<void> {
  fuzzed++;
  const { responses, failure } = await rawExchange(port, request, { ...options, head: method === 'HEAD' });
  assert.ok(responses.length > 0, `${label(request)}: no answer (${failure ?? 'closed'})`);
  for (const response of responses) {
    assertWellFormed(response, method, label(request));
    assert.notEqual(response.status, 500, `${label(request)}: HTTP 500, a sandbox bug: ${response.body.toString('utf8').slice(0, 200)}`);
  }
}

/** The sandbox still takes and answers a real payment. */
async function stillServes(): Promise<void> {
  const response = await fetch(`${sandbox.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: new URLSearchParams({ entityId, ...cardPayment() }),
  });
  assert.equal(response.status, 200);
  assert.equal(((await response.json()) as { result: { code: string } }).result.code, '000.100.110');
}

const KNOWN_PATHS = [
  '/v1/checkouts',
  '/v1/payments',
  '/v1/paymentWidgets.js',
  '/v3/query',
  '/v1/threeDSecure/method',
  '/v1/threeDSecure/execute',
  '/v1/threeDSecure/challenge',
  '/__sandbox/clock',
  '/__sandbox/requests',
  '/__sandbox/reset',
  '/v1/registrations',
];
const idLike = fc.oneof(
  fc.nat().map((index) => live[index % live.length] ?? ''),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 40 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('%', '%zz', '..', '', '4200000000000000', '__proto__'),
);
/** Percent-encodes the UTF-8 bytes of any text, lone surrogates included (which `encodeURIComponent` refuses). */
const percent = (text: string) =>
  [...Buffer.from(text)]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');
const withId = (template: string) => idLike.map((id) => template.replace('{id}', percent(id).replace(/%25/g, '%')));
const path = fc.oneof(
  fc.constantFrom(...KNOWN_PATHS),
  withId('/v1/payments/{id}'),
  withId('/v1/checkouts/{id}/payment'),
  withId('/v1/checkouts/{id}/widget'),
  withId('/v1/checkouts/{id}/widget/payments'),
  withId('/v1/registrations/{id}/payments'),
  withId('/v1/registrations/{id}'),
  withId('/v1/checkouts/{id}/registration'),
  withId('/v1/checkouts/{id}/widget/registration'),
  withId('/v3/query/{id}'),
  withId('/__sandbox/payments/{id}/notify'),
  withId('/__sandbox/payments/{id}/three-d-secure'),
  withId('/__sandbox/payments/{id}/expire'),
  withId('/__sandbox/checkouts/{id}/expire'),
  withId('/__sandbox/notifications/{id}/resend'),
  fc.constantFrom(
    '/',
    '//',
    '///',
    'http://',
    'http://x/v1/payments',
    'https://[::1]:99999/',
    '*',
    'a',
    '/%',
    '/%00',
    '/..%2f..',
    '/v1/payments?',
    '?',
    '#',
    '/v1/payments#x',
  ),
  fc.string({ unit: 'grapheme', maxLength: 60 }).map((text) => `/${text}`),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Field names: dotted, bracketed, deep, long, odd. */
const fieldName = fc.oneof(
  fc.constantFrom(
    'amount',
    'currency',
    'paymentType',
    'paymentBrand',
    'card.number',
    'card.holder',
    'customer.email',
    'customParameters[X]',
    'customer.browser.language',
    '__proto__',
    'constructor',
    'customer.__proto__.x',
    'a[',
    ']',
    '[]',
    '.',
    '..',
    '',
  ),
  fc
    .array(fc.constantFrom('customer', 'billing', 'a', '__proto__', 'x[y]', '0'), { minLength: 1, maxLength: 40 })
    .map((parts) => parts.join('.')),
  fc.integer({ min: 1, max: 5000 }).map((depth) => `customer.${'a.'.repeat(depth)}b`),
  fc.integer({ min: 200, max: 3000 }).map((length) => `customParameters[${'n'.repeat(length)}]`),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const fieldValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    '0.00',
    '-1.00',
    '99999999999.99',
    '4200000000000000',
    '4200000000000001',
    'true',
    'PA',
    'CP',
    'RV',
    '%',
    '%zz',
    '\u0000',
    '\ud800',
    // Values that name Object.prototype's members: a table looked up with them must find nothing.
    'constructor',
    '__proto__',
    'toString',
  ),
  fc.integer({ min: 1000, max: 40_000 }).map((length) => 'v'.repeat(length)),
);
const extraFields = fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 12 });

const encodeForm = (fields: readonly (readonly [string, string])[]) =>
  fields.map(([name, value]) => `${percent(name)}=${percent(value)}`).join('&');
const rawBody = fc.oneof(
  extraFields.map((fields) => Buffer.from(encodeForm(fields))),
  // A valid payment or checkout with odd extra fields, so validation, storage and echo run on them.
  extraFields.map((fields) =>
    Buffer.from(encodeForm([...Object.entries({ entityId: '', ...cardPayment(), ...threeDsFields() }), ...fields])),
  ),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc
    .constantFrom('{"amount":"1.00"}', '%', '%%%', '&&&', '=&=', 'a=%zz&b=%', '\u0000=\u0000', 'a'.repeat(10_000))
    .map((text) => Buffer.from(text)),
  fc.array(fc.constantFrom('a=1', 'b[c]=2', 'd.e.f=3'), { minLength: 900, maxLength: 1200 }).map((parts) => Buffer.from(parts.join('&'))),
);

const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'get', 'FOO', 'G ET', ''),
  fc.string({ maxLength: 8 }),
);
const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constant('valid'),
  fc.constantFrom('Bearer', 'Bearer ', 'Basic abc', 'Bearer \u00ff'),
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 1000, max: 20_000 }).map((length) => `Bearer ${'t'.repeat(length)}`),
);
const contentType = fc.constantFrom(
  undefined,
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=ISO-8859-1',
  'application/json',
  'multipart/form-data; boundary=x',
  'text/plain',
  '',
  '\u00ff',
);
const framing = fc.constantFrom('length', 'length', 'chunked', 'none', 'wrong-short', 'wrong-long', 'negative', 'double', 'expect');
const otherHeaders = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom('content-encoding', 'accept', 'x-forwarded-for', 'host', 'connection', 'transfer-encoding', 'content-length'),
      fc.string({ maxLength: 20 }),
    ),
    fc.string({ maxLength: 60 }),
  ),
  { maxLength: 5 },
);

const entityQuery = (text: string) => (text.includes('?') ? text : `${text}?entityId=${entityId}`);

/** One raw request from its parts; anything may be malformed, on purpose. */
function build(parts: {
  method: string;
  path: string;
  auth: string | undefined;
  type: string | undefined;
  framing: string;
  body: Buffer;
  headers: readonly (readonly [string, string])[];
  query: boolean;
}): Buffer {
  const target = parts.query ? entityQuery(parts.path) : parts.path;
  const lines = [`${parts.method} ${target} HTTP/1.1`, 'Host: sandbox'];
  if (parts.auth !== undefined) lines.push(`Authorization: ${parts.auth === 'valid' ? `Bearer ${token}` : parts.auth}`);
  if (parts.type !== undefined) lines.push(`Content-Type: ${parts.type}`);
  for (const [name, value] of parts.headers) lines.push(`${name}: ${value}`);
  const body = Buffer.from(parts.body.toString('latin1').replace('entityId=&', `entityId=${entityId}&`), 'latin1');
  let payload = body;
  switch (parts.framing) {
    case 'length':
      lines.push(`Content-Length: ${body.length}`);
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
      break;
    case 'wrong-short':
      lines.push(`Content-Length: ${Math.max(0, body.length - 5)}`);
      break;
    case 'wrong-long':
      lines.push(`Content-Length: ${body.length + 5}`);
      break;
    case 'negative':
      lines.push('Content-Length: -1');
      break;
    case 'double':
      lines.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
      break;
    case 'expect':
      lines.push(`Content-Length: ${body.length}`, 'Expect: 100-continue');
      break;
    case 'none':
      break;
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

describe('no request kills the sandbox (issue 12, class 7)', () => {
  it('the known killers get well-formed answers: odd targets, a deep name, 1–10 MB bodies, reading the log after them', async () => {
    for (const target of ['//', 'http://', '//x:99999/', 'http://[', '*', '/%zz', '/v1/payments/%'])
      await exchange(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`, 'GET');
    const deep = `entityId=${entityId}&customer.${'a.'.repeat(20_000)}b=x`;
    await exchange(
      `POST /v1/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${deep.length}\r\n\r\n${deep}`,
      'POST',
    );
    for (const megabytes of [1, 4, 10]) {
      const body = Buffer.alloc(megabytes * 1024 * 1024, 'a');
      for (const chunked of [false, true]) {
        const head = `POST /v1/checkouts/x/widget/payments HTTP/1.1\r\nHost: x\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`}\r\n\r\n`;
        const request = chunked
          ? Buffer.concat([Buffer.from(`${head}${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
          : Buffer.concat([Buffer.from(head), body]);
        fuzzed++;
        const { responses, failure } = await rawExchange(port, request, { timeoutMs: 15_000 });
        assert.equal(responses[0]?.status, 413, `${megabytes} MB ${chunked ? 'chunked' : 'with length'}: ${failure ?? ''}`);
        assertWellFormed(responses[0], 'POST', `${megabytes} MB`);
      }
      // The same through fetch, as a merchant's client sends it: an answer, not a reset.
      const answer = await fetch(`${sandbox.url}/v1/payments`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
      assert.equal(answer.status, 413);
      assert.equal(
        ((await answer.json()) as { result: { description: string } }).result.description,
        `request body larger than ${DEFAULT_LIMITS.bodyBytes} bytes`,
      );
    }
    const log = await fetch(`${sandbox.url}/__sandbox/requests`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(log.status, 200);
    assert.ok(Buffer.byteLength(await log.text()) < DEFAULT_LIMITS.logBytes * 2);
    await stillServes();
  });

  it('fuzzed raw requests: targets, methods, headers, framing, bodies, names, nesting, encodings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method,
          path,
          auth: authorization,
          type: contentType,
          framing,
          body: rawBody,
          headers: otherHeaders,
          query: fc.boolean(),
        }),
        async (parts) => {
          const request = build(parts);
          // A framing the parser cannot end (a length longer than the body) is answered when the client closes or times out: both are fine, silence is not.
          await exchange(request, parts.method, { timeoutMs: 4000 });
        },
      ),
      { numRuns: 300 },
    );
    await stillServes();
  });

  it('fuzzed query strings and form bodies on every endpoint, authenticated, so validation, storage and echo see them', async () => {
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom('GET', 'POST', 'DELETE'), extraFields, fc.boolean(), async (target, verb, fields, base) => {
        const form = encodeForm([
          ...(base
            ? Object.entries({ entityId, ...cardPayment({ 'card.number': CARDS.challenge }), ...threeDsFields() })
            : [['entityId', entityId] as const]),
          ...fields,
        ]);
        const request =
          verb !== 'POST'
            ? `${verb} ${target.split('?')[0]}?${form.slice(0, 6000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`
            : `POST ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(form)}\r\n\r\n${form}`;
        await exchange(request, verb);
      }),
      { numRuns: 150 },
    );
    await stillServes();
  });

  it('pipelined and half-finished requests on one connection: each complete one is answered, the rest cannot wedge the server', async () => {
    const valid = `GET /v1/payments/x?entityId=${entityId} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`;
    fuzzed += 3;
    const { responses } = await rawExchange(port, `${valid}${valid}GARBAGE\r\n\r\n`, { expected: 3 });
    assert.equal(responses.length, 3);
    for (const response of responses) assertWellFormed(response, 'GET', 'pipelined');
    fuzzed++;
    const stalled = await rawExchange(port, 'POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc', {
      timeoutMs: 300,
      halfClose: false,
    });
    assert.equal(stalled.responses.length, 0, 'waits for the rest of the body');
    await stillServes();
  });
});
