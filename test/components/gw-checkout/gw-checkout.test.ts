/**
 * <gw-checkout> in Node (server-side rendering, tests, build tools): importing
 * the class module does nothing and throws nothing; the define module tolerates
 * a second load.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('importing the class module in Node adds no global, defines nothing and touches no DOM', async () => {
  // Lit itself installs its server shims when first imported; measure our module on top of that.
  await import('lit');
  const before = new Set(Reflect.ownKeys(globalThis));
  const module = await import('../../../src/components/gw-checkout/gw-checkout.js');
  const added = Reflect.ownKeys(globalThis).filter((key) => !before.has(key));
  assert.deepEqual(added, []);
  assert.equal(typeof module.GwCheckout, 'function');
  assert.equal(customElements.get('gw-checkout'), undefined);
  assert.equal('document' in globalThis, false);
  assert.equal('wpwlOptions' in globalThis, false);
});

test('the define module registers the element once, even when loaded twice', async () => {
  const { GwCheckout } = await import('../../../src/components/gw-checkout/gw-checkout.js');
  await import('../../../src/components/gw-checkout/define.js');
  assert.equal(customElements.get('gw-checkout'), GwCheckout);
  // What a second copy of the define module (another bundle of the package) runs: no throw, the first stays.
  class SecondCopy extends GwCheckout {}
  assert.doesNotThrow(() => SecondCopy.define());
  assert.equal(customElements.get('gw-checkout'), GwCheckout);
});

test('the package entry imports in Node without throwing', async () => {
  const entry = await import('../../../src/index.js');
  assert.equal(typeof entry.GwCheckout, 'function');
});
