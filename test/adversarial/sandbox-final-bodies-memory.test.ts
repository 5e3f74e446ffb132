/**
 * The cache of final payment bodies (a read again costs a concatenation) lives
 * as long as the store holds those payments. Bounded by a count of 512 and
 * outside `storeBytes`, it kept about 32 MB of payments of the largest
 * accepted size alive with a store of 512 KB, after the store dropped them.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { route } from '../../src/sandbox/core/pipeline.js';
import { createSandboxState } from '../../src/sandbox/core/state.js';
import { NODE_RUNTIME } from '../../src/sandbox/node/runtime.js';
import { cardPayment } from '../../src/sandbox/fixtures.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/index.js';
import { heapAfterGc, megabytes } from './sandbox-support.js';

const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
const TOKEN = 'token-1234';

it('payments read back hold no more memory than the store budget allows once the store dropped them', () => {
  const storeBytes = 512 * 1024;
  const state = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME, limits: { storeBytes } });
  const call = (method: string, path: string, params: Record<string, string>) =>
    route(state, { method, path, params: { entityId: ENTITY, ...params }, authorization: `Bearer ${TOKEN}` }).reply as unknown as {
      status: number;
      body: { id: string };
    };
  const baseline = heapAfterGc();
  for (let i = 0; i < 600; i++) {
    // A fresh string each time, so no two records share their field's text.
    const field = `${i}:`.padEnd(DEFAULT_LIMITS.recordBytes - 2048, 'v');
    const created = call('POST', '/v1/payments', cardPayment({ 'customer.note': field }));
    assert.equal(created.status, 200);
    assert.equal(call('GET', `/v1/payments/${created.body.id}`, {}).status, 200);
  }
  assert.ok(state.store.bytes <= storeBytes);
  const grown = heapAfterGc() - baseline;
  assert.ok(grown < 4 * storeBytes, `heap grew by ${megabytes(grown)} with a store budget of ${megabytes(storeBytes)}`);
});
