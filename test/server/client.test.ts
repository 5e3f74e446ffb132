/** createGatewayClient: construction rules, headers on the wire, and the documented defaults being the real ones. */
import { build } from 'esbuild';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import * as server from '../../src/server/index.js';
import { createGatewayClient, DEFAULTS, GatewayValidationError, VERSION } from '../../src/server/index.js';
import { answer, GatewayStandIn, standInClient } from '../support/gateway-stand-in.js';
import { cardPayment, clientFor, useSandbox } from './fixtures.js';

const context = useSandbox();

const options = () => ({ baseUrl: context.sandbox.url, accessToken: context.sandbox.tokens[0]!, entityId: context.sandbox.entities[0]! });

describe('createGatewayClient', () => {
  for (const name of ['window', 'document'] as const) {
    test(`refuses to run where a ${name} global exists: the token must never reach a browser`, () => {
      const global = globalThis as Record<string, unknown>;
      global[name] = {};
      try {
        assert.throws(
          () => createGatewayClient(options()),
          (error) => error instanceof GatewayValidationError && /server only/.test(error.message),
        );
      } finally {
        delete global[name];
      }
      assert.doesNotThrow(() => createGatewayClient(options()));
    });
  }

  test('needs baseUrl, accessToken and entityId, well formed: a GatewayValidationError naming each, never echoing the token', () => {
    const wrong = { baseUrl: 'ftp://gateway.test', accessToken: 'token\r\nX-Injected: 1', entityId: 'not-32-characters' };
    for (const name of ['baseUrl', 'accessToken', 'entityId'] as const) {
      for (const value of ['', undefined, wrong[name]]) {
        const error = (() => {
          try {
            createGatewayClient({ ...options(), [name]: value });
          } catch (caught) {
            return caught;
          }
        })();
        assert.ok(error instanceof server.GatewayValidationError, `${name}=${JSON.stringify(value)}: ${String(error)}`);
        assert.deepEqual(
          error.parameterErrors.map((entry) => entry.name),
          [name],
        );
        assert.doesNotMatch(JSON.stringify(error) + error.message, /X-Injected/);
      }
    }
  });

  test('every request carries the Bearer token, Accept and the User-Agent; POSTs the form content type; GETs entityId in the query', async () => {
    const { client, recorder } = clientFor(context.sandbox, { baseUrl: `${context.sandbox.url}/` });
    const payment = await client.payments.create(cardPayment());
    await client.payments.get(payment.id);
    const [post, get] = recorder.calls;
    for (const call of [post!, get!]) {
      assert.equal(call.headers.get('authorization'), `Bearer ${context.sandbox.tokens[0]}`);
      assert.equal(call.headers.get('accept'), 'application/json');
      assert.equal(call.headers.get('user-agent'), `gw-elements/${VERSION}`);
    }
    assert.equal(post!.url.pathname, '/v1/payments', 'a trailing slash on baseUrl is tolerated');
    assert.equal(post!.headers.get('content-type'), 'application/x-www-form-urlencoded; charset=UTF-8');
    assert.equal(get!.headers.get('content-type'), null);
    assert.equal(get!.url.searchParams.get('entityId'), context.sandbox.entities[0]);
    const custom = clientFor(context.sandbox, { userAgent: 'shop/2.1' });
    await custom.client.reports.findByMerchantTransactionId('none');
    assert.equal(custom.recorder.calls[0]!.headers.get('user-agent'), 'shop/2.1');
  });

  test('error names survive minification, which renames classes', async () => {
    const { outputFiles } = await build({
      entryPoints: ['src/server/index.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
    });
    const bundled = (await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0]!.text).toString('base64')}`)) as Record<
      string,
      unknown
    >;
    const errorNames = Object.keys(server).filter((name) => /Error$/.test(name));
    assert.ok(errorNames.length >= 11, errorNames.join());
    for (const name of errorNames) {
      const Type = bundled[name] as new (message: string, details: object) => Error;
      const error = new Type('x', { merchantTransactionId: 'm', mismatches: [] });
      assert.equal(error.name, name);
      assert.equal(JSON.parse(JSON.stringify(error)).name, name);
      assert.ok(error.stack?.startsWith(`${name}: x`), error.stack);
    }
  });

  test('VERSION is the package version', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    assert.equal(VERSION, pkg.version);
  });
});

describe('documented defaults are the tested defaults', () => {
  test('each default in the server docs\' "Defaults" table equals DEFAULTS', () => {
    const doc = readFileSync('docs/server.md', 'utf8');
    const section = doc.slice(doc.indexOf('## Defaults'), doc.indexOf('\n## ', doc.indexOf('## Defaults') + 5));
    for (const [name, value] of Object.entries(DEFAULTS)) {
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      assert.ok(section.includes(`| \`${name}\` | \`${shown}\` |`), `README documents ${name} = ${shown}`);
    }
  });

  test('a client without timeoutMs times each request out after DEFAULTS.timeoutMs', async () => {
    const original = globalThis.setTimeout;
    const delays: unknown[] = [];
    globalThis.setTimeout = ((handler: () => void, delay?: number) => {
      delays.push(delay);
      return original(handler, delay);
    }) as typeof setTimeout;
    try {
      const client = createGatewayClient(options());
      await client.reports.findByMerchantTransactionId('none');
      await client.reports.findByMerchantTransactionId('none', { timeoutMs: 1234 });
    } finally {
      globalThis.setTimeout = original;
    }
    assert.ok(delays.includes(DEFAULTS.timeoutMs), `timers set: ${delays.join(', ')}`);
    assert.ok(delays.includes(1234));
  });

  test('without maxNetworkRetries a GET is tried 1 + DEFAULTS.maxNetworkRetries times', async () => {
    const gateway = new GatewayStandIn({
      script: () => {
        throw new TypeError('fetch failed');
      },
    });
    const client = createGatewayClient({ ...options(), fetch: gateway.fetch });
    await assert.rejects(client.reports.findByMerchantTransactionId('none'));
    assert.equal(gateway.calls.length, 1 + DEFAULTS.maxNetworkRetries);
  });
});

describe('an amount that moves no money is refused before sending', () => {
  test('0.00 (or 0) for a debit, preauthorisation, capture, refund or checkout: GatewayValidationError, nothing sent; 0.01 is sent', async () => {
    const { client, calls } = standInClient(() => ({ status: 200, body: answer('000.200.100', { id: 'A'.repeat(32) }) }));
    const paymentId = '8ac7a4a17000000000000000000000aa';
    for (const refused of [
      () => client.checkouts.create({ amount: '0.00', currency: 'EUR', paymentType: 'DB' }),
      () => client.checkouts.create({ amount: '0', currency: 'EUR', paymentType: 'PA' }),
      () => client.payments.capture(paymentId, { amount: '0.00', currency: 'EUR' }),
      () => client.payments.refund(paymentId, { amount: '0', currency: 'EUR' }),
    ]) {
      const error = await refused().then(
        () => assert.fail('sent'),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof GatewayValidationError, String(error));
      assert.equal(error.parameterErrors[0]?.name, 'amount');
    }
    assert.equal(calls.length, 0);
    await client.checkouts.create({ amount: '0.01', currency: 'EUR', paymentType: 'DB' });
    assert.equal(calls.length, 1);
  });
});
