/**
 * Every declared secret (src/contract/secrets.ts) against every output
 * channel (issue 29, class 4). The table is read, not copied: a secret field
 * declared later is planted here the day it is declared. Each one is sent in
 * its own field and repeated in a free field, then looked for in
 *
 * - the sandbox: the answer, the payment read back, the report, the request
 *   log, the notifications it sends (decrypted) and its console;
 * - the client: the value returned, the errors (message, JSON, inspect,
 *   causes), the hooks' events and the console, against a gateway that echoes
 *   the whole form back in its answer, its description and its parameter errors.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { SECRET_FIELDS, type SecretField, type SecretKind } from '../../src/contract/secrets.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { cardPayment } from '../../src/sandbox/fixtures.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { decryptNotification, GatewayError } from '../../src/server/index.js';
import { capturingConsole, holdsCardNumber, holdsCode, holdsToken } from './canaries.js';
import { standInClient } from '../support/gateway-stand-in.js';

/** A canary of each kind that no id, amount, date or clock reading holds by chance (see canaries.ts). */
const CANARY: Record<SecretKind, string> = {
  cardNumber: CARDS.approved,
  securityCode: '7391',
  accessToken: 'QWNjZXNzLXRva2VuLWNhbmFyeS0yOQ==',
  walletToken: 'eyJ3YWxsZXQiOiJjYW5hcnktMjkifQ/x+y=',
  oneTimePassword: '864213',
};

const holds = (kind: SecretKind, text: string): boolean => {
  if (kind === 'cardNumber') return holdsCardNumber(text, CANARY.cardNumber);
  if (kind === 'securityCode' || kind === 'oneTimePassword') return holdsCode(text, CANARY[kind]);
  return holdsToken(text, CANARY[kind]);
};

const DECLARED = Object.entries(SECRET_FIELDS) as [SecretField, SecretKind][];

/** A card payment carrying the secret in its own field, and again in a free field, as a careless form would. */
const planted = (field: SecretField, kind: SecretKind): Record<string, string> => ({
  ...cardPayment({ 'card.number': CARDS.approved, 'card.cvv': '123', merchantTransactionId: `order-${field}` }),
  [field]: CANARY[kind],
  'customParameters[note]': `repeated ${CANARY[kind]} here`,
});

function assertClean(kind: SecretKind, channel: string, text: string): void {
  assert.ok(!holds(kind, text), `the ${kind} canary reached ${channel}:\n${text.slice(0, 1500)}`);
}

describe('every declared secret stays out of every channel of the sandbox', () => {
  let sandbox: Sandbox;
  const delivered: { body: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const listener = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      delivered.push({ body, headers: request.headers });
      response.writeHead(200).end();
    });
  });
  const SECRET = 'ab'.repeat(32);
  before(async () => {
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/notify`;
    sandbox = await startSandbox({ port: 0, quiet: true, notifications: { url, secret: SECRET } });
  });
  after(async () => {
    await sandbox.close();
    listener.close();
  });

  for (const [field, kind] of DECLARED) {
    test(`${field} (${kind})`, async () => {
      const auth = { authorization: `Bearer ${sandbox.tokens[0]}` };
      const read = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(`${sandbox.url}${path}`, { ...init, headers: { ...auth, ...init.headers } });
        return `${[...response.headers].join('\n')}\n${await response.text()}`;
      };
      const form = { entityId: sandbox.entities[0]!, ...planted(field, kind) };
      const { result: answer, printed } = await capturingConsole(() =>
        read('/v1/payments', { method: 'POST', body: new URLSearchParams(form) }),
      );
      const id = /"id":"([0-9a-f]{32})"/.exec(answer)?.[1];
      assert.ok(id, `the payment was made: ${answer.slice(0, 400)}`);
      const channels: Record<string, string> = {
        answer,
        'the payment read back': await read(`/v1/payments/${id}?entityId=${form.entityId}`),
        'the report': await read(`/v3/query?entityId=${form.entityId}&merchantTransactionId=order-${field}`),
        'the request log': await read('/__sandbox/requests'),
        'the notification log': await read('/__sandbox/notifications'),
        'the console': printed.join('\n'),
      };
      // The platform notifies each change of a payment; the sandbox sends it encrypted, as the merchant reads it.
      await read(`/__sandbox/payments/${id}/notify`, { method: 'POST' });
      for (let wait = 0; wait < 100 && delivered.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
      const sent = delivered.splice(0);
      assert.ok(sent.length > 0, 'a notification was delivered');
      for (const delivery of sent)
        channels['a notification'] = JSON.stringify(
          await decryptNotification({ body: delivery.body, headers: delivery.headers as Record<string, string> }, SECRET),
        );
      for (const [channel, text] of Object.entries(channels)) assertClean(kind, channel, text);
    });
  }

  test("the platform's older credential parameters never reach the request log, in a query or a form", async () => {
    const password = 'sy6KJsT8xqLegacy';
    const legacy = {
      'authentication.entityId': sandbox.entities[0]!,
      'authentication.userId': 'legacy-user',
      'authentication.password': password,
    };
    const auth = { authorization: `Bearer ${sandbox.tokens[0]}` };
    await fetch(`${sandbox.url}/v1/payments/8ac7a4a17000000000000000000000ee?${new URLSearchParams(legacy)}`, { headers: auth });
    await fetch(`${sandbox.url}/v1/payments`, {
      method: 'POST',
      headers: auth,
      body: new URLSearchParams({ ...cardPayment(), ...legacy }),
    });
    const log = await (await fetch(`${sandbox.url}/__sandbox/requests`, { headers: auth })).text();
    assert.ok(log.includes('authentication.password'), 'the requests were logged');
    assert.ok(!log.includes(password), log.slice(0, 600));
  });
});

test("the sandbox's start line shows the published default token, never one of the caller's own", async () => {
  const own = 'TXlPd25TYW5kYm94VG9rZW4tbm90LXB1Ymxpc2hlZA==';
  const { result: started, printed } = await capturingConsole(() => startSandbox({ port: 0, tokens: [own] }));
  await started.close();
  const text = printed.join('\n');
  assert.match(text, /Authorization: Bearer/);
  assert.equal(holdsToken(text, own), false, text);
});

describe('every declared secret stays out of every channel of the client, whatever the gateway echoes', () => {
  for (const [field, kind] of DECLARED) {
    test(`${field} (${kind})`, async () => {
      const events: string[] = [];
      const { client } = standInClient(
        (call) => {
          const form = Object.fromEntries(call.form);
          // Echoed as data, in the description, as parameter errors, and the request's own URL and form, raw.
          return call.form.get('amount') === '13.00'
            ? {
                status: 400,
                body: {
                  result: {
                    code: '200.300.404',
                    description: `invalid ${call.body}`,
                    parameterErrors: [...call.form].map(([name, value]) => ({ name, value, message: `bad ${value}` })),
                  },
                },
              }
            : {
                status: 200,
                body: {
                  result: { code: '000.100.110', description: `ok ${call.body}` },
                  id: '8ac7a4a17000000000000000000000aa',
                  paymentType: 'DB',
                  amount: form.amount,
                  currency: 'EUR',
                  echoed: form,
                  customParameters: { form: call.body },
                },
              };
        },
        { onRequest: (event) => void events.push(JSON.stringify(event)), onResponse: (event) => void events.push(JSON.stringify(event)) },
      );
      const request = planted(field, kind);
      const nested: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(request)) {
        const [head, tail] = name.split(/\.(.*)/s);
        if (tail === undefined || name.startsWith('customParameters[')) nested[name.replace(/^customParameters\[(.*)\]$/, '$1')] = value;
        else nested[head!] = { ...(nested[head!] as object), [tail]: value };
      }
      const { note, ...fields } = nested;
      const { result: outcomes, printed } = await capturingConsole(async () => {
        const results: unknown[] = [];
        for (const amount of ['12.00', '13.00'])
          results.push(
            await client.payments.create({ ...fields, amount, customParameters: { note } } as never).catch((error: unknown) => error),
          );
        return results;
      });
      for (const outcome of outcomes) {
        if (outcome instanceof Error) assert.ok(outcome instanceof GatewayError, inspect(outcome));
        assertClean(kind, 'the outcome', inspect(outcome, { depth: 10, showHidden: true }) + JSON.stringify(outcome));
        if (outcome instanceof Error) assertClean(kind, 'the error message', `${outcome.message}\n${outcome.stack}`);
      }
      assertClean(kind, 'the hooks', events.join('\n'));
      assertClean(kind, 'the console', printed.join('\n'));
    });
  }
});
