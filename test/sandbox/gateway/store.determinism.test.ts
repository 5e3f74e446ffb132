import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startSandbox } from '../../../src/sandbox/index.js';
import { call, cardPayment } from '../support.js';

/** The ids of one checkout, one payment with a registration, and one capture-free PA, in that order. */
async function issueIds(seed: string | undefined): Promise<{ ids: string[]; afterReset: string }> {
  const sandbox = await startSandbox({ port: 0, quiet: true, ...(seed ? { idSeed: seed } : {}) });
  try {
    const checkout = (
      await call(sandbox, 'POST', '/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' })
    ).body;
    const payment = (await call(sandbox, 'POST', '/v1/payments', cardPayment({ createRegistration: 'true' }))).body;
    sandbox.reset();
    const afterReset = (
      await call(sandbox, 'POST', '/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' })
    ).body.id;
    return { ids: [checkout.id, payment.id, payment.registrationId], afterReset };
  } finally {
    await sandbox.close();
  }
}

describe('deterministic ids', () => {
  it('the same idSeed gives the same AN32 ids in the same order, also after a reset', async () => {
    const first = await issueIds('suite-42');
    const second = await issueIds('suite-42');
    assert.deepEqual(first, second);
    assert.match(first.ids[0]!, /^[A-F0-9]{32}\.[a-z0-9]+-vm-tx\d{2}$/);
    for (const id of first.ids.slice(1)) assert.match(id, /^[a-f0-9]{32}$/);
    assert.equal(new Set(first.ids).size, 3);
    assert.equal(first.afterReset, first.ids[0]);
  });

  it('without a seed (or with another) ids differ', async () => {
    assert.notDeepEqual((await issueIds(undefined)).ids, (await issueIds(undefined)).ids);
    assert.notDeepEqual((await issueIds('a')).ids, (await issueIds('b')).ids);
  });
});
