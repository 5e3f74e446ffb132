/**
 * Issue 19, class 8: `npm test` never hangs silently. A stalled node:test file
 * fails on its own time limit, naming itself; a stage that prints nothing for
 * the idle time is killed, with the file and test it stalled in.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { failuresIn, nodeTest, nodeTestTotals, run } from '../../scripts/test-run.mjs';

const STALLS = 'test/scripts/fixtures/stalls.mjs';
// This file runs under node:test itself; the stage under test must be a runner of its own, not a child reporting to this one.
const env = { NODE_TEST_CONTEXT: undefined };
const groupAlive = (pattern: string) => {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
};

/** One fixture file run as a stage of its own, with time enough to end by itself. */
const runFixture = (file: string) =>
  nodeTest([`test/scripts/fixtures/${file}`], { concurrency: 1, fileTimeoutMs: 60_000, idleMs: 60_000, env, echo: false });

describe('scripts/test-run.mjs', () => {
  test('a stalled test file fails on its time limit, and the report names it', async () => {
    const started = Date.now();
    const result = await nodeTest([STALLS], { concurrency: 1, fileTimeoutMs: 1500, idleMs: 60_000, env, echo: false });
    assert.notEqual(result.code, 0);
    assert.match(result.output, /stalls\.mjs/);
    assert.match(result.output, /timed out after 1500ms/);
    assert.equal(result.stalled, '');
    assert.ok(Date.now() - started < 50_000, 'ended by the file limit, not the idle watchdog');
  });

  test('a silent stage is killed, whole group, and reported with the file and test it stalled in', async () => {
    // The idle limit sits well above how long a test file takes to start on a loaded 2-core machine (tsx, imports).
    const result = await nodeTest([STALLS], { concurrency: 1, fileTimeoutMs: 600_000, idleMs: 10_000, env, echo: false });
    assert.equal(result.code, 1);
    assert.match(result.stalled, /^no output for .* minutes: killed; still running: .*stalls\.mjs \(in: waits forever\)/);
    assert.equal(groupAlive(STALLS), false, 'the test file process went with the stage');
  });

  test('a command that keeps talking is not killed; its exit code comes back', async () => {
    const talk =
      'let n = 0; const t = setInterval(() => { console.log(n); if (++n === 5) { clearInterval(t); process.exitCode = 3; } }, 300);';
    const result = await run(process.execPath, ['-e', talk], { idleMs: 5000, echo: false });
    assert.equal(result.code, 3);
    assert.equal(result.stalled, '');
  });

  test('the recap names each failed node:test test once, where it is, with the start of its error', async () => {
    const result = await runFixture('fails.mjs');
    assert.notEqual(result.code, 0);
    const recap = failuresIn(result.output);
    assert.match(recap[0]!, /^test\/scripts\/fixtures\/fails\.mjs:7:\d+ ✖ fails here/);
    assert.equal(recap.filter((line) => line.includes('✖')).length, 1, 'once, though the reporter prints it twice');
    assert.ok(
      recap.some((line) => line.includes("total: '12.00'")),
      recap.join('\n'),
    );
    assert.ok(!recap.some((line) => /passes|a group|^\s*at /.test(line)), 'no passed test, no suite line, no stack');
  });

  test("a test cancelled by its suite's failed hook counts as failed in the totals, and the recap names the hook's error", async () => {
    const result = await runFixture('cancels.mjs');
    assert.notEqual(result.code, 0);
    assert.deepEqual(nodeTestTotals(result.output), { passed: 0, failed: 2 });
    assert.ok(
      failuresIn(result.output).some((line) => line.includes('the set-up failed')),
      failuresIn(result.output).join('\n'),
    );
  });

  test("the recap reads the browser runner's failures (a recorded run), and stops at its bound", () => {
    const output = readFileSync('test/scripts/fixtures/browser-runner-failure.txt', 'utf8');
    const recap = failuresIn(output);
    assert.equal(recap[0], 'test/zz-tmp.browser.test.ts ❌ a suite > fails here');
    assert.equal(recap[1], '  AssertionError: expected { a: 1 } to deeply equal { a: 2 }');
    assert.ok(!recap.some((line) => /Lit is in dev mode|^\s*at /.test(line)));
    const many = Array.from({ length: 30 }, (_, index) => output.replace('fails here', `fails here ${index}`)).join('\n');
    const bounded = failuresIn(many, 20);
    assert.equal(bounded.length, 21);
    assert.match(bounded[20]!, /^… and \d+ more lines, in the log above$/);
  });
});
