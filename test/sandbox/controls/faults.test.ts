/**
 * One fault model (issue 21): `Sandbox.fault`, the `/__sandbox/faults`
 * control, the merchant proxy's `/__gw/fault` and `gw-sandbox trigger fault`
 * accept and refuse the same faults, and `reset()` forgets the state's caches.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { route } from '../../../src/sandbox/core/pipeline.js';
import { runTrigger } from '../../../src/sandbox/trigger-cli.js';
import { createSandboxState } from '../../../src/sandbox/core/state.js';
import { NODE_RUNTIME } from '../../../src/sandbox/node/runtime.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMerchantProxy, startSandbox, type FaultMode } from '../../../src/sandbox/index.js';
import { cardPayment } from '../../../src/sandbox/fixtures.js';

const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
const TOKEN = 'token-1234';

/** Faults every caller must refuse, by the field at fault, and ones every caller must take. */
const REFUSED = [
  { path: '/__sandbox/clock', mode: 'hang', count: '1', name: 'path' },
  { path: 'v1/payments', mode: 'hang', count: '1', name: 'path' },
  { path: '/__sandbox/requests', mode: 'error', count: '1', name: 'path' },
  { path: '/v1/payments', mode: 'explode', count: '1', name: 'mode' },
  { path: '/v1/payments', mode: 'drop', count: '1000000', name: 'count' },
  { path: '/v1/payments', mode: 'drop', count: '-1', name: 'count' },
  { path: '/v1/payments', mode: 'drop', count: '1.5', name: 'count' },
] as const;
const TAKEN = [
  { path: '/v1/payments', mode: 'drop', count: '999999' },
  { path: '/v1/payments', mode: 'error', count: '0' },
] as const;

describe('one fault model', () => {
  const state = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME });
  const control = (form: Record<string, string>) =>
    route(state, { method: 'POST', path: '/__sandbox/faults', params: form, authorization: `Bearer ${TOKEN}` }).reply;

  it('the control, Sandbox.fault and the merchant proxy refuse and take the same faults', async () => {
    const sandbox = await startSandbox({ port: 0, tokens: [TOKEN], entities: [ENTITY] });
    const proxy = createMerchantProxy(sandbox);
    const server = createServer((request, response) => void proxy.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxied = async (form: Record<string, string>) =>
      (
        await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/__gw/fault?${new URLSearchParams(form)}`, {
          method: 'POST',
        })
      ).status;
    try {
      for (const { name, ...form } of REFUSED) {
        const answer = control(form);
        assert.ok(answer.kind === 'json' && answer.status === 400, JSON.stringify(form));
        assert.equal(answer.body.result.parameterErrors?.[0]?.name, name, JSON.stringify(form));
        assert.throws(() => sandbox.fault(form.path, form.mode as FaultMode, Number(form.count)), RangeError, JSON.stringify(form));
        assert.equal(await proxied(form), 400, JSON.stringify(form));
      }
      for (const form of TAKEN) {
        const answer = control(form);
        assert.ok(answer.kind === 'json' && answer.status === 200, JSON.stringify(form));
        sandbox.fault(form.path, form.mode, Number(form.count));
        assert.equal(await proxied(form), 204, JSON.stringify(form));
      }
    } finally {
      server.close();
      await sandbox.close();
    }
  });

  it('gw-sandbox trigger fault refuses them before sending anything', async () => {
    for (const { path, count, mode } of REFUSED) {
      const lines: string[] = [];
      // Nothing listens on port 1: a fault that passed the check would fail to connect (exit 1), not be refused (exit 2).
      const code = await runTrigger(
        ['fault', path, '--mode', mode === 'error' ? '500' : mode, '--count', count, '--url', 'http://127.0.0.1:1'],
        { log: (line) => lines.push(line), error: (line) => lines.push(line) },
      );
      assert.equal(code, 2, `${path} ${count}: ${lines.join(' ')}`);
    }
  });

  it('a fault is taken by its path only, counted down, and never by the controls', () => {
    state.reset();
    assert.equal(control({ path: '/v1/payments', mode: 'error', count: '2' }).kind, 'json');
    assert.equal(state.faults.take('/v1/checkouts'), undefined);
    assert.equal(state.faults.take('/v1/payments'), 'error');
    assert.equal(state.faults.take('/v1/payments'), 'error');
    assert.equal(state.faults.take('/v1/payments'), undefined);
    assert.equal(state.faults.take('/__sandbox/faults'), undefined);
  });
});

it('reset() forgets the caches built from the state', () => {
  const state = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME });
  const call = (method: string, path: string, params: Record<string, string>) =>
    route(state, { method, path, params: { entityId: ENTITY, ...params }, authorization: `Bearer ${TOKEN}` });
  const { paymentId } = call('POST', '/v1/payments', cardPayment());
  assert.ok(paymentId);
  call('GET', `/v1/payments/${paymentId}`, {});
  const payment = state.store.payments.get(paymentId)!;
  assert.ok(state.caches.finalBodies.has(payment), 'the final payment read keeps its body');
  assert.equal(state.caches.tokenRedactors.size, 1, 'the read, with no secret but its token, keeps its scrubber');
  state.reset();
  assert.ok(!state.caches.finalBodies.has(payment));
  assert.equal(state.caches.tokenRedactors.size, 0);
});
