// The class module and the result-page helper can be imported on a server (SSR, tests) without a DOM.
import assert from 'node:assert/strict';
import { test } from 'node:test';

// Lit's Node build may install a minimal customElements registry (its SSR shim); nothing of ours may land in it on import.
const registry = () => (globalThis as { customElements?: CustomElementRegistry }).customElements;

test('importing the <gw-3ds-handler> class module in Node defines nothing and throws nothing', async () => {
  const module = await import('../../../src/components/gw-3ds-handler/gw-3ds-handler.js');
  assert.equal(typeof module.Gw3dsHandler, 'function');
  assert.equal(registry()?.get('gw-3ds-handler'), undefined);
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
});

test('the define module loads on a server without throwing', async () => {
  await assert.doesNotReject(import('../../../src/components/gw-3ds-handler/define.js'));
});

test('the result-page helper imports without a DOM and refuses a wildcard target origin', async () => {
  const { postThreeDsResult } = await import('../../../src/components/gw-3ds-handler/post-result.js');
  assert.throws(() => postThreeDsResult('*'), TypeError);
  assert.throws(() => postThreeDsResult('https://shop.example/checkout'), /exact origin/);
});
