/**
 * `decryptNotification`: the platform's AES-256-GCM notifications decrypted
 * with Web Crypto. Encrypted here with node:crypto, independently of the code
 * under test; every tampering (fast-check) and every malformed input is a
 * `NotificationError` that never holds the secret.
 */
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  decryptNotification,
  GatewayError,
  MAX_NOTIFICATION_BODY_CHARACTERS,
  NotificationError,
  type Notification,
  type NotificationErrorReason,
} from '../../src/server/index.js';

const secret = randomBytes(32).toString('hex');

function encrypt(plaintext: string, key = secret, ivBytes = 12) {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'hex'), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]).toString('hex');
  return { body, headers: { 'X-Initialization-Vector': iv.toString('hex'), 'X-Authentication-Tag': cipher.getAuthTag().toString('hex') } };
}

const payment = {
  type: 'PAYMENT',
  payload: {
    id: '8ac7a4a1845f7e3e01846199ab5a7a23',
    paymentType: 'DB',
    amount: '92.00',
    currency: 'EUR',
    result: { code: '000.100.110', description: 'Request successfully processed' },
    card: { bin: '420000', last4Digits: '0000' },
  },
};

async function refusal(promise: Promise<unknown>): Promise<NotificationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof NotificationError, `expected a NotificationError, got ${String(error)}`);
  assert.ok(error instanceof GatewayError);
  assert.equal(error.name, 'NotificationError');
  for (const text of [error.message, String(error.stack), JSON.stringify(error), inspect(error)]) {
    assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), 'the secret never appears');
  }
  return error;
}

const reasonOf = async (promise: Promise<unknown>): Promise<NotificationErrorReason> => (await refusal(promise)).reason;

describe('decryptNotification', () => {
  test('decrypts PAYMENT, REGISTRATION (with its action) and RISK notifications into typed values', async () => {
    const decrypted = await decryptNotification(encrypt(JSON.stringify(payment)), secret);
    assert.deepEqual(decrypted, payment);
    const registration = {
      type: 'REGISTRATION',
      action: 'DELETED',
      payload: { id: 'f'.repeat(32), result: { code: '000.100.110', description: '' } },
    };
    const typed: Notification = await decryptNotification(encrypt(JSON.stringify(registration)), secret);
    assert.equal(typed.type === 'REGISTRATION' ? typed.action : undefined, 'DELETED');
    const risk = { type: 'RISK', payload: { id: 'r1', risk: { score: '10' } } };
    assert.deepEqual(await decryptNotification(encrypt(JSON.stringify(risk)), secret), risk);
  });

  test('headers as a Headers object or a record in any case, Node arrays of one; body as text or bytes; an upper-case secret', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    const lower = {
      'x-initialization-vector': sealed.headers['X-Initialization-Vector'],
      'x-authentication-tag': [sealed.headers['X-Authentication-Tag']],
    };
    assert.equal((await decryptNotification({ body: sealed.body, headers: new Headers(sealed.headers) }, secret)).type, 'PAYMENT');
    assert.equal(
      (await decryptNotification({ body: new TextEncoder().encode(sealed.body), headers: lower }, secret.toUpperCase())).type,
      'PAYMENT',
    );
    assert.equal((await decryptNotification({ body: Buffer.from(`${sealed.body}\n`), headers: sealed.headers }, secret)).type, 'PAYMENT');
    assert.equal(
      (await decryptNotification({ body: new TextEncoder().encode(sealed.body).buffer as ArrayBuffer, headers: sealed.headers }, secret))
        .type,
      'PAYMENT',
    );
    assert.equal((await decryptNotification(encrypt(JSON.stringify(payment), secret, 16), secret)).type, 'PAYMENT', 'a 16-byte IV too');
  });

  test('a wrong secret is authentication-failed; a malformed one invalid-secret, without quoting it', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    assert.equal(await reasonOf(decryptNotification(sealed, randomBytes(32).toString('hex'))), 'authentication-failed');
    for (const bad of [secret.slice(2), `${secret}00`, `${secret.slice(1)}g`, '']) {
      const error = await refusal(decryptNotification(sealed, bad));
      assert.equal(error.reason, 'invalid-secret');
      if (bad) assert.ok(!error.message.includes(bad) && !inspect(error).includes(bad));
    }
  });

  test('missing headers, non-hex parts, short tags and IVs are typed refusals', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    const cases: [Parameters<typeof decryptNotification>[0], NotificationErrorReason][] = [
      [{ body: sealed.body, headers: { 'X-Authentication-Tag': sealed.headers['X-Authentication-Tag'] } }, 'missing-header'],
      [{ body: sealed.body, headers: { 'X-Initialization-Vector': sealed.headers['X-Initialization-Vector'] } }, 'missing-header'],
      [{ body: sealed.body, headers: { ...sealed.headers, 'X-Authentication-Tag': '  ' } }, 'missing-header'],
      [{ body: `${sealed.body}zz`, headers: sealed.headers }, 'invalid-encoding'],
      [{ body: `${sealed.body}0`, headers: sealed.headers }, 'invalid-encoding'],
      [{ body: '', headers: sealed.headers }, 'invalid-encoding'],
      [{ body: JSON.stringify(payment), headers: sealed.headers }, 'invalid-encoding'],
      [
        { body: sealed.body, headers: { ...sealed.headers, 'X-Authentication-Tag': sealed.headers['X-Authentication-Tag'].slice(0, 24) } },
        'invalid-encoding',
      ],
      [{ body: sealed.body, headers: { ...sealed.headers, 'X-Initialization-Vector': 'abcd' } }, 'invalid-encoding'],
      [
        {
          body: sealed.body,
          headers: { 'x-initialization-vector': sealed.headers['X-Initialization-Vector'], 'x-authentication-tag': ['a', 'b'] },
        },
        'invalid-encoding',
      ],
      [{ body: 'ab'.repeat(600_000), headers: sealed.headers }, 'invalid-encoding'],
      [{ body: 42 as never, headers: sealed.headers }, 'invalid-encoding'],
    ];
    for (const [input, reason] of cases)
      assert.equal(await reasonOf(decryptNotification(input, secret)), reason, JSON.stringify(input).slice(0, 120));
  });

  test('headers, body or the notification itself that throw when read are typed refusals; oversized parts are refused unparsed', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    const { proxy, revoke } = Proxy.revocable(sealed, {});
    revoke();
    const throwing = {
      body: sealed.body,
      headers: {
        get 'X-Initialization-Vector'(): string {
          throw new TypeError('framework getter failed');
        },
      },
    };
    // A body that throws once the headers were read: its foreign message (a card number here) never reaches the caller.
    const { proxy: revokedBody, revoke: revokeBody } = Proxy.revocable({}, {});
    revokeBody();
    const trapping = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap failed on 4111 1111 1111 1111');
        },
      },
    );
    const measured = new Uint8Array(4);
    Object.defineProperty(measured, 'byteLength', {
      get() {
        throw new TypeError('detached');
      },
    });
    const bodies = [revokedBody, trapping, measured].map((body) => ({ body, headers: sealed.headers }));
    for (const input of [proxy, throwing, ...bodies]) {
      const error = await refusal(decryptNotification(input as never, secret));
      assert.equal(error.reason, 'invalid-encoding');
      assert.doesNotMatch(JSON.stringify(error) + inspect(error), /4111/);
    }
    const huge = 'ab'.repeat(10_000_000);
    for (const input of [
      { body: sealed.body, headers: { ...sealed.headers, 'X-Initialization-Vector': huge } },
      { body: sealed.body, headers: { ...sealed.headers, 'X-Authentication-Tag': huge } },
      { body: ` ${huge} `, headers: sealed.headers },
      { body: new TextEncoder().encode(huge), headers: sealed.headers },
    ]) {
      const error = await refusal(decryptNotification(input, secret));
      assert.equal(error.reason, 'invalid-encoding');
      assert.match(error.message, /longer than|too large/);
    }
  });

  test('authentic plaintexts that are not notifications are invalid-payload', async () => {
    for (const text of [
      'not json',
      '[]',
      '{"type":"PAYMENT"}',
      '{"type":"PAYMENT","payload":{"id":"x"}}',
      '{"type":"REGISTRATION","payload":{"id":"x"}}',
      '{"type":"REFUND","payload":{}}',
      `{"type":"xx${'4111111111111111'}","payload":{}}`,
      `{"type":["${secret}"],"payload":{}}`,
    ]) {
      const error = await refusal(decryptNotification(encrypt(text), secret));
      assert.equal(error.reason, 'invalid-payload', text);
      assert.ok(!/4111|1111111/.test(error.message), `no card digits echoed: ${error.message}`);
    }
  });

  test('fast-check: changing any byte of the body, the IV or the tag is refused, never decrypted', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    const parts = ['body', 'iv', 'tag'] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...parts), fc.nat(), fc.integer({ min: 1, max: 255 }), async (part, position, flip) => {
        const bytes = {
          body: Buffer.from(sealed.body, 'hex'),
          iv: Buffer.from(sealed.headers['X-Initialization-Vector'], 'hex'),
          tag: Buffer.from(sealed.headers['X-Authentication-Tag'], 'hex'),
        };
        const target = bytes[part];
        target[position % target.length]! ^= flip;
        const tampered = {
          body: bytes.body.toString('hex'),
          headers: { 'X-Initialization-Vector': bytes.iv.toString('hex'), 'X-Authentication-Tag': bytes.tag.toString('hex') },
        };
        assert.equal(await reasonOf(decryptNotification(tampered, secret)), 'authentication-failed');
      }),
      { numRuns: 150 },
    );
  });

  // Each refusal names its part and why, so the merchant can tell a wrong secret from a proxy that rewrote the body.
  test('every refusal says which part and why, under the right reason', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    const sealedWith = (plaintext: unknown) => encrypt(typeof plaintext === 'string' ? plaintext : JSON.stringify(plaintext));
    const cases: [string, Promise<unknown>, NotificationErrorReason, RegExp][] = [
      ['null headers', decryptNotification({ body: sealed.body, headers: null as never }, secret), 'missing-header', /no headers/],
      [
        'no tag',
        decryptNotification(
          { body: sealed.body, headers: { 'X-Initialization-Vector': sealed.headers['X-Initialization-Vector'] } },
          secret,
        ),
        'missing-header',
        /has no X-Authentication-Tag header/,
      ],
      [
        'headers that throw when read',
        decryptNotification(
          {
            body: sealed.body,
            get headers(): never {
              throw new Error('a framework getter failed');
            },
          },
          secret,
        ),
        'invalid-encoding',
        /could not be read/,
      ],
      ['headers as text', decryptNotification({ body: sealed.body, headers: 'x' as never }, secret), 'missing-header', /no headers/],
      [
        'a header sent twice',
        decryptNotification({ body: sealed.body, headers: { ...sealed.headers, 'X-Authentication-Tag': ['ab', 'cd'] } }, secret),
        'invalid-encoding',
        /X-Authentication-Tag must be sent once/,
      ],
      [
        'an IV of 65 bytes',
        decryptNotification({ body: sealed.body, headers: { ...sealed.headers, 'X-Initialization-Vector': 'ab'.repeat(65) } }, secret),
        'invalid-encoding',
        /X-Initialization-Vector header is longer than 64 bytes/,
      ],
      [
        'an IV of 11 bytes',
        decryptNotification({ body: sealed.body, headers: { ...sealed.headers, 'X-Initialization-Vector': 'ab'.repeat(11) } }, secret),
        'invalid-encoding',
        /X-Initialization-Vector header must be 12 to 64 bytes/,
      ],
      [
        'a tag of 15 bytes',
        decryptNotification({ body: sealed.body, headers: { ...sealed.headers, 'X-Authentication-Tag': 'ab'.repeat(15) } }, secret),
        'invalid-encoding',
        /X-Authentication-Tag header must be 16 bytes/,
      ],
      [
        'a body of hex and junk',
        decryptNotification({ body: `zz${sealed.body}`, headers: sealed.headers }, secret),
        'invalid-encoding',
        /notification body is not hex/,
      ],
      [
        'a body that is an object',
        decryptNotification({ body: {} as never, headers: sealed.headers }, secret),
        'invalid-encoding',
        /raw text or bytes/,
      ],
      [
        'a wrapper that is not JSON',
        decryptNotification({ body: '{nope', headers: sealed.headers }, secret),
        'invalid-encoding',
        /neither hex nor the JSON wrapper/,
      ],
      [
        'a wrapper without text',
        decryptNotification({ body: '{"encryptedBody":42}', headers: sealed.headers }, secret),
        'invalid-encoding',
        /no encryptedBody text/,
      ],
      ['a secret that is no text', decryptNotification(sealed, 42 as never), 'invalid-secret', /64 hex characters/],
      ['another secret', decryptNotification(sealed, 'ab'.repeat(32)), 'authentication-failed', /failed authentication/],
      ['not JSON', decryptNotification(sealedWith('not json'), secret), 'invalid-payload', /not JSON/],
      ['no payload', decryptNotification(sealedWith({ type: 'PAYMENT' }), secret), 'invalid-payload', /no payload object/],
      [
        'nested too deep',
        decryptNotification(
          sealedWith({ type: 'PAYMENT', payload: { ...payment.payload, deep: JSON.parse('['.repeat(200) + ']'.repeat(200)) } }),
          secret,
        ),
        'invalid-payload',
        /nests deeper than/,
      ],
      [
        'a payment whose id is no text',
        decryptNotification(sealedWith({ type: 'PAYMENT', payload: { ...payment.payload, id: 7 } }), secret),
        'invalid-payload',
        /type "PAYMENT"/,
      ],
      [
        'a payment whose code is no text',
        decryptNotification(sealedWith({ type: 'PAYMENT', payload: { ...payment.payload, result: { code: 0 } } }), secret),
        'invalid-payload',
        /type "PAYMENT"/,
      ],
      [
        'a registration of another action',
        decryptNotification(sealedWith({ type: 'REGISTRATION', action: 'CHANGED', payload: { id: 'x' } }), secret),
        'invalid-payload',
        /type "REGISTRATION"/,
      ],
      [
        'a registration whose id is no text',
        decryptNotification(sealedWith({ type: 'REGISTRATION', action: 'CREATED', payload: { id: 7 } }), secret),
        'invalid-payload',
        /type "REGISTRATION"/,
      ],
      [
        'a type of digits and a word',
        decryptNotification(sealedWith({ type: '1111x', payload: {} }), secret),
        'invalid-payload',
        /of another shape \(string\)/,
      ],
      [
        'a tag of junk',
        decryptNotification({ body: sealed.body, headers: { ...sealed.headers, 'X-Authentication-Tag': 'zz'.repeat(16) } }, secret),
        'invalid-encoding',
        /X-Authentication-Tag header is not hex/,
      ],
      [
        'a type of another shape',
        decryptNotification(sealedWith({ type: { a: 1 }, payload: {} }), secret),
        'invalid-payload',
        /of another shape \(object\)/,
      ],
    ];
    // Made all at once, read in turn: each is marked handled now, and read below.
    for (const [, promise] of cases) promise.catch(() => undefined);
    for (const [what, promise, reason, message] of cases) {
      const error = await refusal(promise);
      assert.equal(error.reason, reason, what);
      assert.match(error.message, message, what);
    }
    // Invalid UTF-8 inside an authentic payload.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(secret, 'hex'), iv);
    const body = Buffer.concat([cipher.update(Buffer.from([0xff, 0xfe, 0x7b])), cipher.final()]).toString('hex');
    const headers = { 'X-Initialization-Vector': iv.toString('hex'), 'X-Authentication-Tag': cipher.getAuthTag().toString('hex') };
    const error = await refusal(decryptNotification({ body, headers }, secret));
    assert.deepEqual([error.reason, /not UTF-8/.test(error.message)], ['invalid-payload', true]);
  });

  test('a runtime without Web Crypto is told so before anything is read', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      const error = await refusal(decryptNotification(encrypt(JSON.stringify(payment)), secret));
      assert.deepEqual([error.reason, /Web Crypto/.test(error.message)], ['unsupported-runtime', true]);
    } finally {
      Object.defineProperty(globalThis, 'crypto', descriptor);
    }
  });

  test("a Web Crypto that cannot import an AES-GCM key is the runtime's failing, never the delivery's authentication", async () => {
    const { subtle } = globalThis.crypto;
    const importKey = subtle.importKey;
    Object.defineProperty(subtle, 'importKey', {
      value: () => Promise.reject(new DOMException('Algorithm: Unrecognized name')),
      configurable: true,
    });
    try {
      const error = await refusal(decryptNotification(encrypt(JSON.stringify(payment)), secret));
      assert.deepEqual([error.reason, /AES-256-GCM/.test(error.message)], ['unsupported-runtime', true]);
    } finally {
      Object.defineProperty(subtle, 'importKey', { value: importKey, configurable: true, writable: true });
    }
    assert.equal((await decryptNotification(encrypt(JSON.stringify(payment)), secret)).type, 'PAYMENT');
  });

  test('every action of a registration, the JSON wrapper (trimmed), headers with spaces, and a body of exactly the largest size', async () => {
    for (const action of ['CREATED', 'UPDATED', 'DELETED']) {
      const read = await decryptNotification(encrypt(JSON.stringify({ type: 'REGISTRATION', action, payload: { id: 'r' } })), secret);
      assert.equal(read.type === 'REGISTRATION' ? read.action : undefined, action);
    }
    const sealed = encrypt(JSON.stringify(payment));
    const wrapped = { body: JSON.stringify({ encryptedBody: ` ${sealed.body} ` }), headers: sealed.headers };
    assert.deepEqual(await decryptNotification(wrapped, secret), payment);
    const spaced = {
      'X-Initialization-Vector': ` ${sealed.headers['X-Initialization-Vector']} `,
      'X-Authentication-Tag': sealed.headers['X-Authentication-Tag'],
    };
    assert.deepEqual(await decryptNotification({ body: sealed.body, headers: spaced }, secret), payment);
    // The largest body is read (and fails authentication here); one character more is refused unread.
    const largest = 'ab'.repeat(MAX_NOTIFICATION_BODY_CHARACTERS / 2);
    assert.equal(await reasonOf(decryptNotification({ body: largest, headers: sealed.headers }, secret)), 'authentication-failed');
    assert.match((await refusal(decryptNotification({ body: `${largest}a`, headers: sealed.headers }, secret))).message, /too large/);
  });

  test('a card number, security code or token the sender put in is masked, by name or label; ids and references stay', async () => {
    const echoing = {
      type: 'PAYMENT',
      payload: {
        ...payment.payload,
        merchantTransactionId: 'order-4711',
        card: { ...payment.payload.card, number: '4200000000000000', cvv: '737' },
        customParameters: { note: 'Authorization: Bearer OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c2VjcmV0' },
      },
    };
    const read = await decryptNotification(encrypt(JSON.stringify(echoing)), secret);
    assert.ok(read.type === 'PAYMENT');
    assert.deepEqual(read.payload.card, { bin: '420000', last4Digits: '0000', number: '420000******0000', cvv: '***' });
    assert.doesNotMatch(JSON.stringify(read), /OGE4Mjk0|4200000000000000|"737"/);
    assert.equal(read.payload.id, payment.payload.id);
    assert.equal(read.payload.merchantTransactionId, 'order-4711');
  });

  test('a secret sent as a JSON number, or labelled inside a quoted value, is masked too', async () => {
    const echoing = {
      type: 'PAYMENT',
      payload: {
        ...payment.payload,
        card: { ...payment.payload.card, number: 4200000000000000, cvv: 737 },
        resultDetails: { request: '{"card":{"cvv":"737"}}', ExtendedDescription: '"cvv" : "737"', amount: 92 },
      },
    };
    const read = await decryptNotification(encrypt(JSON.stringify(echoing)), secret);
    assert.ok(read.type === 'PAYMENT');
    assert.deepEqual(read.payload.card, { bin: '420000', last4Digits: '0000', number: '420000******0000', cvv: '***' });
    assert.doesNotMatch(JSON.stringify(read), /4200000000000000|737/);
    assert.equal((read.payload.resultDetails as Record<string, unknown>).amount, 92, 'a number that holds no secret stays a number');
  });

  test('a JSON wrapper that nests anything is refused unparsed (the body is not authenticated yet)', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    for (const body of [
      JSON.stringify({ encryptedBody: sealed.body, via: { proxy: 'x' } }),
      `{"encryptedBody":"${sealed.body}","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    ])
      assert.match((await refusal(decryptNotification({ body, headers: sealed.headers }, secret))).message, /nests/);
  });

  test('fast-check: a truncated or extended body is refused', async () => {
    const sealed = encrypt(JSON.stringify(payment));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: sealed.body.length / 2 - 1 }), fc.boolean(), async (bytes, extend) => {
        const body = extend ? sealed.body + sealed.body.slice(0, bytes * 2) : sealed.body.slice(0, -bytes * 2);
        assert.equal(await reasonOf(decryptNotification({ body, headers: sealed.headers }, secret)), 'authentication-failed');
      }),
      { numRuns: 60 },
    );
  });
});

describe('decryptNotification with a freshness window', () => {
  const at = Date.parse('2026-11-23T12:00:00Z');
  const stamped = (timestamp: string | undefined, type = 'PAYMENT') =>
    encrypt(JSON.stringify({ type, payload: { ...payment.payload, ...(timestamp === undefined ? {} : { timestamp }) } }));
  const window = { maxAgeSeconds: 300, now: () => at };

  test('a payload within maxAgeSeconds of now, either side, is read; the limit itself is inside', async () => {
    for (const timestamp of [
      '2026-11-23 12:00:00+0000',
      '2026-11-23 11:55:00.000+0000',
      '2026-11-23 12:05:00+0000',
      '2026-11-23 13:04:00+0100',
    ]) {
      const read = await decryptNotification(stamped(timestamp), secret, window);
      assert.equal(read.type, 'PAYMENT', timestamp);
    }
  });

  test('older, later, or without a readable timestamp: stale, and never the secret', async () => {
    for (const timestamp of [
      '2026-11-23 11:54:59+0000',
      '2026-11-23 12:05:01.000+0000',
      '2026-11-20 12:00:00+0000',
      'yesterday',
      undefined,
    ]) {
      assert.equal(await reasonOf(decryptNotification(stamped(timestamp), secret, window)), 'stale', String(timestamp));
    }
  });

  test("the platform's listener test notification is never stale (the registration of a listener fails unless it is answered 200)", async () => {
    const read = await decryptNotification(encrypt(JSON.stringify({ type: 'test', payload: {} })), secret, window);
    assert.equal(read.type, 'test');
  });

  test('without a window, an old payload is read as before', async () => {
    assert.equal((await decryptNotification(stamped('2016-01-01 00:00:00+0000'), secret)).type, 'PAYMENT');
  });

  test("a stale refusal says how old by how much; a timestamp that is no text is unreadable; a clock answering no number is the caller's error", async () => {
    const error = await refusal(decryptNotification(stamped('2026-11-23 11:54:59+0000'), secret, window));
    assert.match(error.message, /is 301 s old by its payload's timestamp, beyond the 300 s allowed/);
    // Authenticated, so what it is about is named: the listener reads that payment as it stands now.
    assert.deepEqual(error.subject, { type: 'PAYMENT', id: payment.payload.id });
    assert.deepEqual((JSON.parse(JSON.stringify(error)) as { subject: unknown }).subject, error.subject);
    const registration = encrypt(JSON.stringify({ type: 'REGISTRATION', action: 'UPDATED', payload: { id: 'r-1' } }));
    assert.deepEqual((await refusal(decryptNotification(registration, secret, window))).subject, { type: 'REGISTRATION', id: 'r-1' });
    const recent = await decryptNotification(stamped(new Date().toISOString().replace('T', ' ').replace('Z', '+0000')), secret, {
      maxAgeSeconds: 3600,
    });
    assert.equal(recent.type, 'PAYMENT', "without `now`, the listener's own clock");
    const numeric = encrypt(JSON.stringify({ type: 'PAYMENT', payload: { ...payment.payload, timestamp: at } }));
    assert.match((await refusal(decryptNotification(numeric, secret, window))).message, /no readable timestamp/);
    const broken = await decryptNotification(stamped('2026-11-23 12:00:00+0000'), secret, {
      maxAgeSeconds: 300,
      now: () => Number.NaN,
    }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    assert.match(String(broken?.message), /freshness\.now/);
  });

  test('a malformed window is a typed error before any work', async () => {
    for (const bad of [
      { maxAgeSeconds: 0 },
      { maxAgeSeconds: -1 },
      { maxAgeSeconds: Number.NaN },
      { maxAgeSeconds: '300' },
      { maxAgeSeconds: 300, now: 5 },
      null,
      'soon',
    ]) {
      // A delivery that is itself malformed: the window is judged first, so its error is the caller's.
      const error = await decryptNotification({ body: 'x', headers: {} }, secret, bad as never).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof GatewayError && error.name === 'GatewayValidationError', JSON.stringify(bad));
      const field =
        (bad as { now?: unknown } | null)?.now === 5
          ? /freshness\.now.*must be a function/
          : /freshness\.maxAgeSeconds.*must be a positive number of seconds/;
      assert.match(error.message, field, JSON.stringify(bad));
    }
  });
});
