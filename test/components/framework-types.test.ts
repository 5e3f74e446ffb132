/**
 * The framework typings (`gw-elements/react`, `gw-elements/vue`) checked by
 * each framework's own type checker over a small page using both elements:
 * tsc for React 19 JSX, vue-tsc for a Vue SFC. Each fixture also holds misuses
 * marked as expected errors, which the checker reports as unused (and fails)
 * the day the typings stop refusing them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

function check(bin: string, project: string): void {
  const result = spawnSync(process.execPath, [bin, '-p', project], { encoding: 'utf8' });
  assert.equal(result.status, 0, `${project}:\n${result.stdout}${result.stderr}`);
}

test('React 19: tsc accepts both elements in JSX and refuses the misuses', () => check('node_modules/typescript/bin/tsc', 'test/types/react'));

test('Vue 3: vue-tsc accepts both elements in a template and refuses the misuses', () => check('node_modules/vue-tsc/bin/vue-tsc.js', 'test/types/vue'));
