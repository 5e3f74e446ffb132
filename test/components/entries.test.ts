// The per-element entry points: each defines its own element on import and carries no code of the other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from 'esbuild';

test('gw-elements/checkout defines <gw-checkout> only; gw-elements/3ds-handler then adds <gw-3ds-handler>', async () => {
  const checkout = await import('../../src/checkout.js');
  assert.equal(customElements.get('gw-checkout'), checkout.GwCheckout);
  assert.equal(customElements.get('gw-3ds-handler'), undefined);
  const handler = await import('../../src/3ds-handler.js');
  assert.equal(customElements.get('gw-3ds-handler'), handler.Gw3dsHandler);
  // The whole-package entry is both, and defines nothing twice.
  const entry = await import('../../src/index.js');
  assert.equal(entry.GwCheckout, checkout.GwCheckout);
  assert.equal(entry.Gw3dsHandler, handler.Gw3dsHandler);
});

/** The source files a page's bundler pulls in for `entry`. */
async function modulesOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    external: ['lit', 'lit/*'],
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

test('each element entry bundles none of the other element', async () => {
  const checkout = await modulesOf('src/checkout.ts');
  const handler = await modulesOf('src/3ds-handler.ts');
  assert.deepEqual(
    checkout.filter((path) => path.includes('3ds')),
    [],
  );
  assert.deepEqual(
    handler.filter((path) => path.includes('checkout')),
    [],
  );
  assert.ok(checkout.includes('src/components/shared/gw-element.ts') && handler.includes('src/components/shared/gw-element.ts'));
});

test('every built file that defines an element is marked as having side effects (package.json sideEffects)', async (t) => {
  const { readdirSync, readFileSync, existsSync } = await import('node:fs');
  if (!existsSync('dist/checkout.js')) return t.skip('no dist/: run `npm run build`');
  const patterns = (JSON.parse(readFileSync('package.json', 'utf8')) as { sideEffects: string[] }).sideEffects.map(
    (glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`),
  );
  // The build may move a define() call into a chunk shared by two entry points: a bundler must keep that chunk too.
  const defining = readdirSync('dist').filter((name) => name.endsWith('.js') && /\.define\(\)/.test(readFileSync(`dist/${name}`, 'utf8')));
  assert.ok(defining.length >= 2, `expected the two elements' define() calls in dist, found ${defining.join(', ')}`);
  for (const name of [...defining, 'index.js', 'checkout.js', '3ds-handler.js']) {
    assert.ok(
      patterns.some((pattern) => pattern.test(`./dist/${name}`)),
      `dist/${name} is not in sideEffects`,
    );
  }
});
