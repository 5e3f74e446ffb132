/**
 * A checkout's list of its attempts holds only those the store still keeps.
 * The widget's endpoint needs no token (the checkout id authorises it), so one
 * live checkout and a loop of declined attempts grew the list without bound for
 * 30 minutes, outside `storeBytes`, while the payments themselves were dropped
 * for room; every status read walked the whole list.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { route } from '../../src/sandbox/core/pipeline.js';
import { createSandboxState } from '../../src/sandbox/core/state.js';
import { NODE_RUNTIME } from '../../src/sandbox/node/runtime.js';
import { CARDS } from '../../src/sandbox/index.js';

const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
const TOKEN = 'token-1234';

it('declined widget attempts on one checkout keep no more attempt ids than the store keeps payments', () => {
  const state = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME, limits: { payments: 50 } });
  const call = (method: string, path: string, params: Record<string, string>, authorised: boolean) =>
    route(state, { method, path, params, authorization: authorised ? `Bearer ${TOKEN}` : undefined, remoteAddress: '10.0.0.1' })
      .reply as unknown as { status: number; body: { id: string; result: { code: string } } };
  const created = call('POST', '/v1/checkouts', { entityId: ENTITY, amount: '10.00', currency: 'EUR', paymentType: 'DB' }, true);
  assert.equal(created.status, 200);
  const id = created.body.id;
  const card = {
    paymentBrand: 'VISA',
    'card.number': CARDS.declined,
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': '2034',
    'card.cvv': '123',
  };
  for (let attempt = 0; attempt < 5000; attempt++) {
    const answer = call('POST', `/v1/checkouts/${id}/widget/payments`, card, false);
    assert.equal(answer.body.result.code, '800.100.152');
  }
  assert.ok(state.store.payments.size <= 50, 'the payments themselves are dropped at the limit');
  const kept = state.store.checkouts.get(id)!.paymentIds.length;
  assert.ok(kept <= state.limits.payments, `the checkout still holds ${kept} attempt ids for ${state.store.payments.size} payments kept`);
});
