/**
 * The framework typings checked by each framework's own type checker over a
 * small page using both elements: tsc for React 19 JSX (`gw-elements/react`)
 * and Solid JSX (`gw-elements/solid`), vue-tsc for a Vue SFC
 * (`gw-elements/vue`), ngc with strict templates for an Angular component (the
 * elements' global tag and event maps, no module needed). Each fixture also
 * holds misuses marked as expected errors, which the checker reports as unused
 * (and fails) the day the typings stop refusing them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { suite, test } from 'node:test';

/** Runs a checker over a project: its exit status and output. */
function run(bin: string, project: string): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, '-p', project], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

async function check(bin: string, project: string): Promise<void> {
  const result = await run(bin, project);
  assert.equal(result.status, 0, `${project}:\n${result.output}`);
}

// The checkers are independent processes: run them side by side.
suite('framework typings', { concurrency: true }, () => {
  test('React 19: tsc accepts both elements in JSX and refuses the misuses', () =>
    check('node_modules/typescript/bin/tsc', 'test/types/react'));

  test('Solid: tsc accepts both elements in JSX and refuses the misuses', () =>
    check('node_modules/typescript/bin/tsc', 'test/types/solid'));

  test('Vue 3: vue-tsc accepts both elements in a template and refuses the misuses', () =>
    check('node_modules/vue-tsc/bin/vue-tsc.js', 'test/types/vue'));

  test('Angular: ngc with strict templates reports exactly the template lines marked expect-error', async () => {
    // Templates have no @ts-expect-error: the lines ngc reports must be the marked ones, no more, no fewer.
    const fixture = 'test/types/angular/pay.component.ts';
    const marked = readFileSync(fixture, 'utf8')
      .split('\n')
      .flatMap((line, index) => (line.includes('<!-- expect-error:') ? [index + 1] : []));
    assert.ok(marked.length >= 4, 'the fixture holds its misuses');
    const result = await run('node_modules/@angular/compiler-cli/bundles/src/bin/ngc.js', 'test/types/angular');
    // ngc prints TypeScript's colored diagnostics whatever `pretty` says.
    // eslint-disable-next-line no-control-regex
    const output = result.output.replace(/\u001b\[[0-9;]*m/g, '');
    const reported = [...output.matchAll(/^(\S+):(\d+):\d+ - error/gm)];
    assert.ok(
      reported.every(([, file]) => file === 'pay.component.ts'),
      output,
    );
    assert.deepEqual(
      [...new Set(reported.map(([, , line]) => Number(line)))].sort((a, b) => a - b),
      marked,
      output,
    );
    assert.notEqual(result.status, 0);
  });
});
