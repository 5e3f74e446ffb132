/**
 * Issue 12, class 6 (the sandbox's side): secret canaries planted in every
 * input — the access token, a card number in every field and in names and
 * paths, the request's own card number and CVV typed into other fields — are
 * searched for in everything that comes out (every answer, the request log,
 * reports, status reads, 3DS pages and redirects) and in everything the
 * sandbox keeps (its store, inspected).
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, it } from 'node:test';
import { route } from '../../src/sandbox/core/pipeline.js';
import { createSandboxState, type SandboxState } from '../../src/sandbox/core/state.js';
import { NODE_RUNTIME } from '../../src/sandbox/node/runtime.js';
import { cardPayment, threeDsFields } from '../../src/sandbox/fixtures.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { holdsCode } from './canaries.js';

const TOKEN = 'c2VjcmV0LWNhbmFyeS10b2tlbi1mb3ItdGhlLXNhbmRib3g=';
const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
/** A card number that is no test card: it passes Luhn and must never come out whole. */
const FOREIGN_PAN = '4111111111111111';
const CVV = '9731';
/** The request's own card: a challenge card, so 3DS pages and redirects are walked too. */
const OWN_PAN = CARDS.challengeNoMethod;

/** Every place a secret could be planted in one request: each free-text field, a custom parameter's name and value. */
function plantedFields(secret: string): Record<string, string> {
  return {
    // Names take letters and digits only: a card number fits, a token does not.
    ...(/^\d+$/.test(secret) ? { 'card.holder': `Jane ${secret}`, 'customer.givenName': secret } : {}),
    'customer.merchantCustomerId': secret,
    'customer.browser.userAgent': `Mozilla ${secret}`,
    'billing.street1': `${secret} Main Street`,
    [`customParameters[${secret}]`]: secret,
    'customParameters[note]': `card ${secret} cvv=${CVV}`,
    'customer.note': secret,
    // Request fields named like an answer's ids are the caller's free text, not ids.
    id: secret,
    ndc: secret,
    shortId: secret,
  };
}

/** The token as an echo may spell it too: without its base64 padding, and decoded. */
const TOKEN_SPELLINGS = [TOKEN.replace(/=+$/, ''), atob(TOKEN)];
const SECRETS = [TOKEN, ...TOKEN_SPELLINGS, FOREIGN_PAN, OWN_PAN];

/** Fails when `text` holds a secret: a whole card number, the token, or the CVV standing alone. */
function assertClean(text: string, where: string): void {
  for (const secret of SECRETS)
    assert.ok(
      !text.includes(secret),
      `${where} holds ${secret}: …${text.slice(Math.max(0, text.indexOf(secret) - 80), text.indexOf(secret) + 40)}…`,
    );
  // Outside ids only: a random payment id or UUID can hold any 4 digits.
  assert.ok(!holdsCode(text, '9731'), `${where} holds the CVV standing alone: ${text.slice(0, 3000)}`);
}

const auth = { authorization: `Bearer ${TOKEN}` };

describe('no card number, CVV or token comes out of the sandbox or stays in it (issue 12, class 6)', () => {
  it('planted in every field of every endpoint: answers, log, reports, status, 3DS pages and the store are clean', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true, tokens: [TOKEN], entities: [ENTITY] });
    const outputs: [string, string][] = [];
    const send = async (method: 'GET' | 'POST', path: string, form: Record<string, string>, headers: Record<string, string> = auth) => {
      const query = method === 'GET' ? `?${new URLSearchParams(form)}` : '';
      const response = await fetch(`${sandbox.url}${path}${query}`, {
        method,
        headers,
        redirect: 'manual',
        ...(method === 'POST' ? { body: new URLSearchParams(form) } : {}),
      });
      const text = await response.text();
      outputs.push([`${method} ${path} → ${response.status}`, `${[...response.headers].join('\n')}\n${text}`]);
      return { status: response.status, text, json: () => JSON.parse(text), location: response.headers.get('location') };
    };
    try {
      for (const secret of SECRETS) {
        const planted = plantedFields(secret);
        const payment = cardPayment({
          'card.number': OWN_PAN,
          'card.cvv': CVV,
          // A short order id, which a scrubber keeping it whole would split card numbers around.
          merchantTransactionId: '42',
          ...threeDsFields(),
          ...planted,
        });
        const pending = (await send('POST', '/v1/payments', { entityId: ENTITY, ...payment })).json();
        // A payment refused for its fields quotes them back: scrubbed.
        await send('POST', '/v1/payments', {
          entityId: ENTITY,
          ...payment,
          'customer.email': secret,
          'card.holder': secret,
          amount: secret,
        });
        await send('POST', '/v1/payments', { entityId: ENTITY, ...payment }, { authorization: `Bearer ${secret}` });
        // The shopper's 3DS walk: execute page, challenge answer, redirect back.
        const form = Object.fromEntries(
          pending.redirect.parameters.map(({ name, value }: { name: string; value: string }) => [name, value]),
        );
        await send('POST', '/v1/threeDSecure/execute', form, {});
        await send('POST', '/v1/threeDSecure/challenge', { ...form, outcome: 'complete' }, {});
        await send('GET', `/v1/payments/${pending.id}`, { entityId: ENTITY });
        await send('POST', `/v1/payments/${pending.id}`, {
          entityId: ENTITY,
          paymentType: 'RF',
          amount: '1.00',
          currency: 'EUR',
          'customParameters[note]': secret,
        });
        // Refused transactions are kept and read back: a card failing the Luhn check and a capture of nothing, both carrying the planted fields.
        const luhnFailing = `${OWN_PAN.slice(0, -1)}${(Number(OWN_PAN.at(-1)) + 1) % 10}`;
        const refusedCard = (await send('POST', '/v1/payments', { entityId: ENTITY, ...payment, 'card.number': luhnFailing })).json();
        const refusedCapture = (
          await send('POST', `/v1/payments/${'f'.repeat(32)}`, {
            entityId: ENTITY,
            paymentType: 'CP',
            amount: '1.00',
            currency: 'EUR',
            ...planted,
          })
        ).json();
        assert.deepEqual(
          [refusedCard.result.code, refusedCapture.result.code],
          ['100.100.101', '700.400.510'],
          'both refused as transactions',
        );
        for (const id of [refusedCard.id, refusedCapture.id]) await send('GET', `/v1/payments/${id}`, { entityId: ENTITY });
        await send('GET', '/v3/query', { entityId: ENTITY, merchantTransactionId: 'order-secrets' });
        await send('GET', `/v3/query/${secret}`, { entityId: ENTITY });
        await send('GET', `/v1/${secret}/nothing`, { entityId: ENTITY, [secret]: secret });

        // The widget: a checkout carrying the planted fields, a card form with them, the status read.
        const checkout = (
          await send('POST', '/v1/checkouts', {
            entityId: ENTITY,
            amount: '25.00',
            currency: 'EUR',
            paymentType: 'DB',
            integrity: 'true',
            ...threeDsFields(),
            ...planted,
          })
        ).json();
        await send('GET', `/v1/checkouts/${checkout.id}/widget`, {}, {});
        // The shopper's own request carries no token and cannot know the merchant's: card numbers are what a shopper may type anywhere.
        const typed = secret === TOKEN ? FOREIGN_PAN : secret;
        await send(
          'POST',
          `/v1/checkouts/${checkout.id}/widget/payments`,
          {
            paymentBrand: 'VISA',
            'card.number': CARDS.approved,
            'card.holder': typed,
            'card.expiryMonth': '05',
            'card.expiryYear': '2034',
            'card.cvv': CVV,
            shopperResultUrl: `https://shop.example/result?pan=${FOREIGN_PAN}`,
          },
          {},
        );
        await send(
          'POST',
          `/v1/checkouts/${checkout.id}/widget/payments`,
          {
            paymentBrand: 'VISA',
            'card.number': CARDS.approved,
            'card.holder': 'Jane Jones',
            'card.expiryMonth': '05',
            'card.expiryYear': '2034',
            'card.cvv': CVV,
            shopperResultUrl: `https://shop.example/result?note=${typed}`,
          },
          {},
        );
        await send('GET', `/v1/checkouts/${checkout.id}/payment`, { entityId: ENTITY });
        await send('GET', `/v1/checkouts/${typed}/widget`, {}, {});
        await send('GET', `/v1/checkouts/${secret}/payment`, { entityId: ENTITY });
      }
      await send('GET', '/__sandbox/requests', {});
      outputs.push(['sandbox.requests()', JSON.stringify(sandbox.requests())]);
      for (const [where, text] of outputs) assertClean(text, where);
    } finally {
      await sandbox.close();
    }
  });

  it('what the store keeps holds no secret either (records, echoes, 3DS sessions, checkouts)', () => {
    const state: SandboxState = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME });
    state.base = 'http://sandbox.test';
    const call = (method: string, path: string, params: Record<string, string>) =>
      route(state, { method, path, params: { entityId: ENTITY, ...params }, authorization: `Bearer ${TOKEN}` });
    for (const secret of SECRETS) {
      const planted = plantedFields(secret);
      call(
        'POST',
        '/v1/payments',
        cardPayment({
          'card.number': OWN_PAN,
          'card.cvv': CVV,
          createRegistration: 'true',
          ...threeDsFields(`https://shop.example/r?x=${secret}`),
          ...planted,
        }),
      );
      call('POST', '/v1/payments', cardPayment({ 'card.cvv': CVV, paymentType: 'PA', createRegistration: 'true', ...planted }));
      call('POST', '/v1/checkouts', { amount: '25.00', currency: 'EUR', paymentType: 'DB', integrity: 'true', ...planted });
    }
    assert.ok(state.store.payments.size >= 6);
    const { store } = state;
    const kept = {
      payments: [...store.payments.oldestFirst()],
      checkouts: [...store.checkouts.oldestFirst()],
      registrations: [...store.registrations.oldestFirst()],
      sessions: [...store.threeDsSessions],
    };
    assertClean(inspect(kept, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }), 'the store');
    assertClean(inspect(state.log.entries(), { depth: Infinity }), 'the log');
  });
});
