/**
 * The notify control (`POST /__sandbox/payments/{id}/notify`, `gw-sandbox
 * trigger notification`) notifies what the platform would: never a transaction
 * refused before any bank saw it (a Luhn failure, `100.100.101`), which the
 * sandbox does not notify when it is made either. It queued one, and answered 200.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSandbox } from '../../../src/sandbox/index.js';
import { call, cardPayment } from '../support.js';

test('the notify control does not notify a transaction refused before any bank saw it', async () => {
  const sandbox = await startSandbox({ port: 0, quiet: true, notifications: { url: 'http://127.0.0.1:9/hooks' } });
  try {
    const { status, body } = await call(sandbox, 'POST', '/v1/payments', cardPayment({ 'card.number': '4200000000000001' }));
    assert.equal(status, 400);
    assert.equal(body.result.code, '100.100.101');
    assert.deepEqual(sandbox.notifications.list(), [], 'premise: none on creation');
    const notify = await fetch(`${sandbox.url}/__sandbox/payments/${body.id}/notify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
    });
    const answer = (await notify.json()) as { result: { parameterErrors?: { message: string }[] } };
    assert.ok(!notify.ok, `the control answered ${notify.status}`);
    assert.match(answer.result.parameterErrors?.[0]?.message ?? '', /refused before any bank saw it/);
    assert.deepEqual(
      sandbox.notifications.list().map(({ subjectId, resultCode }) => `${subjectId} ${resultCode}`),
      [],
      `control answered ${notify.status} and queued a notification of the refused transaction`,
    );
  } finally {
    await sandbox.close();
  }
});
