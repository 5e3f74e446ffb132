/**
 * What `createFulfilment` promises, as one suite for every store (memory here,
 * Redis in test/redis): one handler run per approved payment, whatever arrives
 * how often and in which order; a handler that throws frees the payment for the
 * next arrival; a crashed holder's claim lapses.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { createFulfilment, type StatusStore } from '../../../src/server/index.js';

const approvedPayment = () => ({ id: randomUUID().replaceAll('-', ''), result: { code: '000.100.110', description: 'approved' } });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function fulfilmentSuite(name: string, storeOf: (timing?: { claimMs?: number; waitMs?: number }) => StatusStore) {
  describe(`fulfilOnce: ${name}`, () => {
    test('30 arrivals at once (return, status read, reconciliation, notifications) and 10 later: the handler runs once', async () => {
      const fulfilment = createFulfilment({ store: storeOf() });
      const payment = approvedPayment();
      let runs = 0;
      const handler = async () => {
        runs++;
        await sleep(20);
        return 'shipped';
      };
      const outcomes = await Promise.all(Array.from({ length: 30 }, () => fulfilment.fulfilOnce({ ...payment }, handler)));
      assert.equal(runs, 1);
      assert.deepEqual(
        outcomes.filter((outcome) => outcome.status === 'fulfilled'),
        [{ status: 'fulfilled', result: 'shipped' }],
      );
      assert.equal(outcomes.filter((outcome) => outcome.status === 'already-fulfilled').length, 29);
      for (let late = 0; late < 10; late++)
        assert.deepEqual(await fulfilment.fulfilOnce(payment, handler), { status: 'already-fulfilled' });
      assert.equal(runs, 1);
    });

    test('a payment that is not approved, or has no id, is never fulfilled', async () => {
      const fulfilment = createFulfilment({ store: storeOf() });
      const refuse = () => assert.fail('handler ran');
      for (const code of ['000.200.000', '800.100.152', '900.100.300', '']) {
        assert.deepEqual(await fulfilment.fulfilOnce({ ...approvedPayment(), result: { code, description: '' } }, refuse), {
          status: 'not-approved',
        });
      }
      assert.deepEqual(await fulfilment.fulfilOnce({ id: '', result: { code: '000.100.110', description: '' } }, refuse), {
        status: 'not-approved',
      });
    });

    test('a handler that throws: its caller gets the error, a waiting duplicate runs it again, and it counts once it succeeded', async () => {
      const fulfilment = createFulfilment({ store: storeOf() });
      const payment = approvedPayment();
      const attempts: string[] = [];
      let started = () => {};
      const running = new Promise<void>((resolve) => (started = resolve));
      const failing = fulfilment.fulfilOnce(payment, async () => {
        attempts.push('failed');
        started();
        await sleep(30);
        throw new Error('warehouse unreachable');
      });
      await running;
      const retried = fulfilment.fulfilOnce(payment, () => {
        attempts.push('succeeded');
        return 'shipped';
      });
      await assert.rejects(failing, /warehouse unreachable/);
      assert.deepEqual(await retried, { status: 'fulfilled', result: 'shipped' });
      assert.deepEqual(attempts, ['failed', 'succeeded']);
      assert.deepEqual(await fulfilment.fulfilOnce(payment, () => attempts.push('again')), { status: 'already-fulfilled' });
    });

    test('a holder that crashed (claim never renewed nor ended): the next arrival runs the handler once the claim lapses', async () => {
      const store = storeOf({ claimMs: 300 });
      const payment = approvedPayment();
      const now = Date.now();
      assert.equal((await store.claim(`fulfil:${payment.id}`, { token: 'crashed instance', now, until: now + 300 })).status, 'claimed');
      const outcome = await createFulfilment({ store }).fulfilOnce(payment, () => 'shipped');
      assert.deepEqual(outcome, { status: 'fulfilled', result: 'shipped' });
    });

    test('a duplicate that waited waitMs for a handler still running is told in-progress, not done', async () => {
      const fulfilment = createFulfilment({ store: storeOf({ waitMs: 50 }) });
      const payment = approvedPayment();
      let finish = () => {};
      let started = () => {};
      const running = new Promise<void>((resolve) => (started = resolve));
      const slow = fulfilment.fulfilOnce(payment, () => {
        started();
        return new Promise<void>((resolve) => (finish = resolve));
      });
      await running;
      assert.deepEqual(await fulfilment.fulfilOnce(payment, () => assert.fail('ran twice')), { status: 'in-progress' });
      finish();
      assert.equal((await slow).status, 'fulfilled');
    });
  });
}
