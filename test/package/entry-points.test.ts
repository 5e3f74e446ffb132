/**
 * The package's public names resolve to the same sources for everyone: tsc and
 * tsx (tsconfig.json `paths`), Vite (the demo and Storybook aliases) and the
 * build (package.json `exports` pointing at what vite.config.ts bundles).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ENTRY_POINTS } from '../../scripts/entry-points.mjs';

const json = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));

test("tsconfig's paths name every public entry point, and the same source", { timeout: 10_000 }, () => {
  const paths = json('tsconfig.json').compilerOptions.paths as Record<string, string[]>;
  const packageNames = Object.keys(paths).filter((name) => name.startsWith('gw-elements'));
  assert.deepEqual(packageNames.sort(), Object.keys(ENTRY_POINTS).sort());
  for (const [name, { source }] of Object.entries(ENTRY_POINTS)) assert.deepEqual(paths[name], [`./${source}`], name);
});

test('package.json exports every entry point as the file the build writes for it', { timeout: 10_000 }, () => {
  const exports = json('package.json').exports as Record<string, { default?: string; types?: string }>;
  for (const [name, { source, build }] of Object.entries(ENTRY_POINTS)) {
    const subpath = name === 'gw-elements' ? '.' : `./${name.slice('gw-elements/'.length)}`;
    assert.equal(exports[subpath]?.default, `./dist/${build}.js`, name);
    assert.equal(exports[subpath]?.types, `./dist/types/${source.replace(/^src\//, '').replace(/\.ts$/, '.d.ts')}`, name);
  }
});

test('the public names resolve to their sources under tsx, as the demo, stories and benchmarks import them', { timeout: 10_000 }, () => {
  for (const [name, { source }] of Object.entries(ENTRY_POINTS)) {
    assert.equal(import.meta.resolve(name), new URL(`../../${source}`, import.meta.url).href, name);
  }
});
