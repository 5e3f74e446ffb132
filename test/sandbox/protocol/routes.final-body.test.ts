/**
 * A final payment's body is kept serialised for the next read (issue 14,
 * get-payment speed): what it answers must be exactly what rendering afresh
 * answers, envelope included.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cardPayment } from '../../../src/sandbox/fixtures.js';
import { paymentBody } from '../../../src/sandbox/protocol/payment-answer.js';
import { envelope } from '../../../src/sandbox/protocol/envelope.js';
import { route } from '../../../src/sandbox/core/pipeline.js';
import { createSandboxState } from '../../../src/sandbox/core/state.js';
import { NODE_RUNTIME } from '../../../src/sandbox/node/runtime.js';

const ENTITY = '8ac7a4c79394bdc801939736f17e063d';

it('a final payment read twice answers what a fresh rendering answers', () => {
  const state = createSandboxState({ tokens: ['token-1234'], entities: [ENTITY], runtime: NODE_RUNTIME });
  const call = (method: string, path: string, params: Record<string, string>) =>
    route(state, { method, path, params: { entityId: ENTITY, ...params }, authorization: 'Bearer token-1234' }).reply;
  const created = call(
    'POST',
    '/v1/payments',
    cardPayment({
      'customParameters[order]': 'A-1',
      'customer.givenName': 'Jane',
      merchantTransactionId: 'm-1',
      createRegistration: 'true',
    }),
  );
  assert.equal(created.kind, 'json');
  const id = String((created as { body: Record<string, unknown> }).body.id);
  for (let read = 0; read < 2; read++) {
    const answer = call('GET', `/v1/payments/${id}`, {});
    assert.ok(answer.kind === 'json' && answer.text !== undefined);
    const served = JSON.parse(answer.text) as Record<string, unknown>;
    const fresh = JSON.parse(JSON.stringify(envelope(paymentBody(state.store.payment(id)!), new Date(0), id))) as Record<string, unknown>;
    // The timestamp and ndc are the answer's own each time; everything else is the payment's.
    assert.deepEqual({ ...served, timestamp: undefined, ndc: undefined }, { ...fresh, timestamp: undefined, ndc: undefined });
    assert.deepEqual(Object.keys(served), Object.keys(fresh), 'the same fields in the same order');
  }
});
