/**
 * What a consumer's `npm install gw-elements` gets: no install-time script
 * (the build runs on `prepack`, for the publisher only), the links npm shows,
 * and a tarball holding every file the exports point to, the one-script
 * browser bundle included. Read with `npm pack --dry-run`, as npm would pack it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

interface Manifest {
  scripts: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  repository?: { url: string };
  homepage?: string;
  bugs?: { url: string };
  unpkg?: string;
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;

test("no script runs on a consumer's install: the build is prepack", () => {
  // npm runs these on install (prepare too, for git dependencies and local installs) and warns about them.
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(manifest.scripts[hook], undefined, hook);
  assert.equal(manifest.scripts.prepack, 'npm run build');
});

test('npm shows where the code, the docs and the issues are', () => {
  assert.equal(manifest.repository?.url, 'git+https://github.com/gw-elements/gw-elements.git');
  assert.equal(manifest.homepage, 'https://github.com/gw-elements/gw-elements#readme');
  assert.equal(manifest.bugs?.url, 'https://github.com/gw-elements/gw-elements/issues');
});

test('the packed tarball holds every exported file, the browser bundle and the manifest', (t) => {
  if (!existsSync('dist/index.js')) return t.skip('no dist/: `npm run test:node` builds it first (pretest:node)');
  // --ignore-scripts: read what would be packed now, without prepack building again.
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as [{ files: { path: string }[] }];
  const files = new Set(packed.files.map((file) => file.path));
  const targets = Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
  for (const target of [...targets, manifest.unpkg!]) assert.ok(files.has(target.replace(/^\.\//, '')), `${target} is not in the tarball`);
  assert.ok(files.has('dist/gw-elements.browser.js'));
  assert.deepEqual(
    [...files].filter((path) => /^(src|test|node_modules)\//.test(path)),
    [],
  );
});
