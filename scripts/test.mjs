/**
 * `npm test`: every test of the kit, one runner per kind, in order:
 *   node     the server helper, the sandbox and the shared contract (node:test through tsx)
 *   browser  components and the widget in headless Chromium (@web/test-runner)
 *   e2e      what `npm start` starts, walked by a shopper in headless Chromium (test/e2e, playwright-core)
 *   storybook  builds Storybook and opens every story and docs page in headless Chromium (test/storybook)
 *   user     the documents' complete files pasted into fresh projects around the packed package
 *            (npm init -y, Vite + React, Vite + Vue, a page with no bundler), type-checked, run and paid through (test/user)
 * The browser stage runs beside the stages after the node one, not in turn: its
 * files mostly wait (on the page's timers, the widget's 10-second limits, the
 * sandbox), a third of one core, and so do those stages' browsers and installs,
 * while the node stage keeps both cores busy alone (beside it, it took 80% longer).
 * Run in turn, the stages came within a minute of CI's 15. Its output is kept and
 * printed whole once the others have ended, so no stage's lines interleave.
 * `node scripts/test.mjs node` (or browser) runs one kind. Exits non-zero when any
 * runner fails, when a file fails to load, or when a runner finds no tests, and
 * ends with one line: "N passed, N failed".
 *
 * What the tests need from the machine (Chromium, redis-server) is found, or
 * installed, once here before any stage runs, and handed to every stage as
 * CHROME_PATH and REDIS_SERVER_PATH: a test file never installs anything (two
 * files installing at once is how `npm test` once hung). Nothing may hang
 * silently: every node:test file has a time limit, the browser runner has its
 * own, and a stage that prints nothing for TEST_IDLE_MINUTES (default 20) is
 * killed and reported with the file it stalled in (scripts/test-run.mjs).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { join } from 'node:path';
import { failuresIn, lastNumber, nodeTest, nodeTestTotals, run } from './test-run.mjs';

const STAGES = ['node', 'browser', 'e2e', 'storybook', 'user'];
const requested = process.argv.slice(2);
const stages = requested.length ? requested : STAGES;
const unknown = stages.filter((stage) => !STAGES.includes(stage));
if (unknown.length) {
  console.error(`unknown test kind: ${unknown.join(', ')} (known: ${STAGES.join(', ')})`);
  process.exit(2);
}

/** Per node:test file (Node 20 applies `--test-timeout` to each file; later versions to each test too). */
const FILE_TIMEOUT_MS = { node: 10 * 60_000, e2e: 15 * 60_000, storybook: 15 * 60_000, user: 10 * 60_000 };
/** A stage silent this long is stuck: every per-file limit above is shorter, so this is the last resort. */
const IDLE_MS = (Number(process.env.TEST_IDLE_MINUTES) || 20) * 60_000;
/** How long finding (or installing) Chromium or redis-server may take. */
const ENSURE_TIMEOUT_MS = 15 * 60_000;

/**
 * Runs scripts/ensure-<what> once and answers the path it prints, or undefined
 * with the reason printed: the stages then run without it and the tests that
 * need it fail saying so.
 */
function ensure(what, variable) {
  const result = spawnSync(`scripts/ensure-${what}`, {
    encoding: 'utf8',
    // stdin passed on: at a terminal, the script asks before it installs a system package.
    stdio: ['inherit', 'pipe', 'inherit'],
    timeout: ENSURE_TIMEOUT_MS,
  });
  const path = result.stdout?.trim();
  if (result.status === 0 && path) return path;
  const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
  console.error(`scripts/ensure-${what} found no ${what} (${why}); tests that need it will fail. Set ${variable}=/path/to/it.`);
  return undefined;
}

/** What every stage gets from the machine, found once (below). */
const machine = {};

/** Every file under `dir` whose name satisfies `accept`, sorted for a stable order. */
function listFiles(dir, accept) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && accept(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

const runners = {
  async node({ echo }) {
    const files = listFiles('test', (name) => name.endsWith('.test.ts') && !name.endsWith('.browser.test.ts'));
    if (!files.length) return { code: 1, passed: 0, failed: 0, output: '', note: 'no node test files found' };
    return counted(
      'node',
      await nodeTest(files, { concurrency: 2, fileTimeoutMs: FILE_TIMEOUT_MS.node, idleMs: IDLE_MS, env: machine, echo }),
    );
  },
  async browser({ echo }) {
    const wtr = join('node_modules', '@web', 'test-runner', 'dist', 'bin.js');
    const { code, output, stalled } = await run(
      process.execPath,
      ['--import', 'tsx', wtr, '--config', 'web-test-runner.config.mjs', '--static-logging'],
      { idleMs: IDLE_MS, env: machine, echo },
    );
    const passed = lastNumber(output, /(\d+) passed/g);
    const failed = lastNumber(output, /(\d+) failed/g);
    return { code: passed === 0 ? 1 : code, passed, failed, output, note: stalled || (passed === 0 ? 'no browser test ran' : '') };
  },
  async e2e({ echo }) {
    return nodeTestFiles(
      'e2e',
      listFiles(join('test', 'e2e'), (name) => name.endsWith('.e2e.ts')),
      echo,
    );
  },
  async storybook({ echo }) {
    return nodeTestFiles(
      'storybook',
      listFiles(join('test', 'storybook'), (name) => name.endsWith('.storybook.ts')),
      echo,
    );
  },
  async user({ echo }) {
    return nodeTestFiles(
      'user',
      listFiles(join('test', 'user'), (name) => name.endsWith('.user.ts')),
      echo,
    );
  },
};

/** Runs node:test files through tsx (one at a time: each starts servers and a browser) and counts their results. */
async function nodeTestFiles(kind, files, echo) {
  if (!files.length) return { code: 1, passed: 0, failed: 0, output: '', note: `no ${kind} test files found` };
  return counted(
    kind,
    await nodeTest(files, { concurrency: 1, fileTimeoutMs: FILE_TIMEOUT_MS[kind], idleMs: IDLE_MS, env: machine, echo }),
  );
}

/** The spec reporter's totals; a stage where nothing passed failed, whatever its exit code. */
function counted(kind, { code, output, stalled }) {
  const { passed, failed } = nodeTestTotals(output);
  return { code: passed === 0 ? 1 : code, passed, failed, output, note: stalled || (passed === 0 ? `no ${kind} test ran` : '') };
}

// A CI log is the only view of its machine: how much room the stages had.
console.log(`machine: ${availableParallelism()} cores, ${(freemem() / 2 ** 30).toFixed(1)} GiB memory free`);

// Found once, before any stage: the node stage needs redis-server (test/redis), the others Chromium.
const chromium = stages.some((stage) => stage !== 'node') ? ensure('chromium', 'CHROME_PATH') : undefined;
if (chromium) machine.CHROME_PATH = chromium;
const redis = stages.includes('node') ? ensure('redis', 'REDIS_SERVER_PATH') : undefined;
if (redis) machine.REDIS_SERVER_PATH = redis;

/** The stage that runs beside the others (see the top of this file), once the node stage has ended; alone, it runs as any other. */
const BESIDE = stages.length > 1 && stages.includes('browser') ? 'browser' : undefined;

let passed = 0;
let failed = 0;
let exitCode = 0;
const recap = [];
function count(stage, result) {
  passed += result.passed;
  failed += result.failed;
  if (result.code !== 0) {
    exitCode = 1;
    const why = `${stage} tests failed (exit ${result.code})${result.note ? `: ${result.note}` : ''}`;
    console.error(why);
    recap.push(why, ...failuresIn(result.output).map((line) => `  ${line}`));
  }
}
let beside;
const startBeside = () => {
  console.log(`\n=== ${BESIDE} tests: started beside the next stages, output at the end ===`);
  beside = runners[BESIDE]({ echo: false });
};
for (const stage of stages.filter((stage) => stage !== BESIDE)) {
  if (BESIDE && !beside && stage !== 'node') startBeside();
  console.log(`\n=== ${stage} tests ===`);
  count(stage, await runners[stage]({ echo: true }));
}
if (BESIDE) {
  if (!beside) startBeside();
  const result = await beside;
  console.log(`\n=== ${BESIDE} tests (ran beside the others) ===`);
  process.stdout.write(result.output);
  if (result.note) console.error(result.note);
  count(BESIDE, result);
}
// Again at the end, where a CI log's last screen shows it.
if (recap.length) console.error(`\n=== what failed ===\n${recap.join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(exitCode);
