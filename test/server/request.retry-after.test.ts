/**
 * The gateway's (or its proxy's) `Retry-After`: a throttled answer's error says
 * when to send again, and the client never re-sends a GET before the time an
 * answer named, a throttle's page or a 5xx alike (it leaves the wait to the caller).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { GatewayNetworkError, GatewayThrottledError, outcomeOf } from '../../src/server/index.js';
import { answer, PAYMENT_ID, standInClient } from '../support/gateway-stand-in.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('answered'),
    (error: unknown) => error,
  );
const throttled = (retryAfter: string) => () =>
  new Response(JSON.stringify(answer('800.120.100')), {
    status: 429,
    headers: { 'retry-after': retryAfter, 'content-type': 'application/json' },
  });

test('a throttled answer names its wait: seconds, or a date on the client clock', async () => {
  for (const [header, seconds] of [
    ['30', 30],
    ['0', 0],
    [new Date(NOW + 90_000).toUTCString(), 90],
    [new Date(NOW - 5_000).toUTCString(), 0],
    ['99999999', 86_400],
  ] as const) {
    const { client } = standInClient(throttled(header), { now: () => NOW });
    const error = await failureOf(client.payments.get(PAYMENT_ID));
    assert.ok(error instanceof GatewayThrottledError, String(error));
    assert.equal(error.retryAfterSeconds, seconds, header);
    const outcome = outcomeOf(error);
    assert.ok(outcome.kind === 'throttled' && outcome.retryAfterSeconds === seconds);
  }
});

test('a wait the client cannot read is no wait: the error has none', async () => {
  for (const header of ['soon', '-5', '1.5', '']) {
    const { client } = standInClient(throttled(header), { now: () => NOW });
    const error = await failureOf(client.payments.get(PAYMENT_ID));
    assert.ok(error instanceof GatewayThrottledError);
    assert.equal(error.retryAfterSeconds, undefined, header);
  }
});

test('a GET is not re-sent after an answer that named a wait: a throttle page, a 503; without one it is', async () => {
  for (const [status, headers, sent] of [
    [429, { 'retry-after': '30' }, 1],
    [503, { 'retry-after': '30' }, 1],
    [503, {}, 3],
  ] as const) {
    const { client, calls } = standInClient(() => new Response('<html>Too Many Requests</html>', { status, headers }), {
      maxNetworkRetries: 2,
    });
    const error = await failureOf(client.payments.get(PAYMENT_ID));
    assert.ok(error instanceof GatewayNetworkError, String(error));
    assert.equal(calls.length, sent, `HTTP ${status} ${JSON.stringify(headers)}`);
  }
});

test('any Retry-After a hostile peer sends: a typed error, its wait a whole number of seconds within a day or none', async () => {
  const header = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer({ min: -1e12, max: 1e12 }).map(String),
    fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()),
    fc.constantFrom('Infinity', 'NaN', '1e3', '0x10', ' 30 ', '30, 40', '\u0660'),
  );
  await fc.assert(
    fc.asyncProperty(header, fc.constantFrom(429, 503), async (value, status) => {
      const headers = new Headers();
      try {
        headers.set('retry-after', value);
      } catch {
        return; // not a header value fetch can carry
      }
      const body = status === 429 ? JSON.stringify(answer('800.120.100')) : '<html>busy</html>';
      const { client } = standInClient(() => new Response(body, { status, headers }), { now: () => NOW, maxNetworkRetries: 1 });
      const error = await failureOf(client.payments.get(PAYMENT_ID));
      assert.ok(error instanceof GatewayThrottledError || error instanceof GatewayNetworkError, String(error));
      if (error instanceof GatewayThrottledError && error.retryAfterSeconds !== undefined)
        assert.ok(Number.isInteger(error.retryAfterSeconds) && error.retryAfterSeconds >= 0 && error.retryAfterSeconds <= 86_400);
    }),
    { numRuns: 200 },
  );
});
