/**
 * The API reference is TypeDoc over the public entry points (typedoc.json).
 * It must build without one warning: a doc comment linking to nothing, a tag
 * TypeDoc does not know, or a public type referring to one that is neither
 * exported nor listed in `intentionallyNotExported` fails here.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url).pathname;

test('TypeDoc documents every public entry point without a warning', () => {
  const out = join(root, '.cache/api-reference');
  rmSync(out, { recursive: true, force: true });
  const run = spawnSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--out', out, '--treatWarningsAsErrors'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `typedoc failed:\n${run.stdout}${run.stderr}`);
  for (const page of ['README.md', 'server/functions/createGatewayClient.md', 'sandbox/functions/startSandbox.md', 'index/classes/GwCheckout.md']) {
    assert.ok(existsSync(join(out, page)), `the reference has ${page}`);
  }
});
