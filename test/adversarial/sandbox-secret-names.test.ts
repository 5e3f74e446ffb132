/**
 * A secret kept because of how it was written (issue 19, class 5): a security
 * code, a one-time password or a wallet token under another name or case, a
 * card number with separators, a token of another configured merchant. None of them is stored, answered or read back.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cardPayment } from '../../src/sandbox/fixtures.js';
import { route } from '../../src/sandbox/core/pipeline.js';
import { createSandboxState } from '../../src/sandbox/core/state.js';
import { NODE_RUNTIME } from '../../src/sandbox/node/runtime.js';
import { holdsCode } from './canaries.js';

const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
const TOKEN = 'OGFjN2E0Yzc5Mzk0YmRjODAx';
const OTHER_TOKEN = 'T3RoZXJNZXJjaGFudFRva2Vu';
const WALLET_TOKEN = 'eyJwYXltZW50RGF0YSI6InNlY3JldC13YWxsZXQtdG9rZW4ifQ';

it('custom parameters named like a security code, separated card numbers and other tokens are never kept', () => {
  const state = createSandboxState({ tokens: [TOKEN, OTHER_TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME });
  const call = (method: string, path: string, params: Record<string, string>) =>
    route(state, { method, path, params: { entityId: ENTITY, ...params }, authorization: `Bearer ${TOKEN}` }).reply;
  const planted = {
    'customParameters[CVV]': '8417',
    'customParameters[securityCode]': '5923',
    'customParameters[card_cvc]': '6031',
    'customParameters[spaced]': '4200 0000 0000 0000',
    'customParameters[dashed]': '4200-0000-0000-0000',
    'customParameters[dotted]': '4200.0000.0000.0000',
    'customParameters[note]': `other merchant ${OTHER_TOKEN}`,
    // A one-time password and a wallet token as plugins and the wallets' own payloads name them.
    'customParameters[ONE_TIME_PASSWORD]': '482913',
    'customParameters[STC_OTP]': '482914',
    'customParameters[wallet_token]': WALLET_TOKEN,
  };
  const created = call('POST', '/v1/payments', cardPayment({ merchantTransactionId: 'order-77', ...planted }));
  assert.equal(created.kind, 'json');
  const id = String((created as { body: Record<string, unknown> }).body.id);
  const reads = [
    created,
    call('GET', `/v1/payments/${id}`, {}),
    call('GET', `/v3/query/${id}`, {}),
    call('GET', '/v3/query', { merchantTransactionId: 'order-77' }),
  ];
  for (const answer of reads) {
    const text = JSON.stringify(answer);
    // The codes are looked for where they stand alone outside ids: a random hex payment id can hold any 4 digits.
    for (const code of ['8417', '5923', '6031', '482913', '482914']) assert.ok(!holdsCode(text, code), `${code} in ${text}`);
    for (const secret of ['4200 0000 0000 0000', '4200-0000-0000-0000', '4200.0000.0000.0000', OTHER_TOKEN, WALLET_TOKEN])
      assert.ok(!text.includes(secret), `${secret} in ${text}`);
  }
  const body = (reads[1] as unknown as { body: { customParameters: Record<string, string> } }).body;
  assert.equal(body.customParameters.CVV, '***');
  assert.equal(body.customParameters.spaced, '4200 00** **** 0000');
  assert.equal(body.customParameters.note, 'other merchant [access token]');
});
