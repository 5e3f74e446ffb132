/**
 * `npm test`: every test of the kit, one runner per kind, in order:
 *   node     the server helper, the sandbox and the shared contract (node:test through tsx)
 *   browser  components and the widget in headless Chromium (@web/test-runner)
 *   e2e      what `npm start` starts, walked by a shopper in headless Chromium (test/e2e, playwright-core)
 *   storybook  builds Storybook and opens every story and docs page in headless Chromium (test/storybook)
 * `node scripts/test.mjs node` (or browser) runs one kind. Exits non-zero when any
 * runner fails, when a file fails to load, or when a runner finds no tests, and
 * ends with one line: "N passed, N failed".
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const STAGES = ['node', 'browser', 'e2e', 'storybook'];
const requested = process.argv.slice(2);
const stages = requested.length ? requested : STAGES;
const unknown = stages.filter((stage) => !STAGES.includes(stage));
if (unknown.length) {
  console.error(`unknown test kind: ${unknown.join(', ')} (known: ${STAGES.join(', ')})`);
  process.exit(2);
}

/** Every file under `dir` whose name satisfies `accept`, sorted for a stable order. */
function listFiles(dir, accept) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && accept(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** Runs a command, echoing its output, and resolves to its exit code and output. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const echo = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const lastNumber = (output, pattern) => {
  const matches = [...output.matchAll(pattern)];
  return matches.length ? Number(matches.at(-1)[1]) : 0;
};

const runners = {
  async node() {
    const files = listFiles('test', (name) => name.endsWith('.test.ts') && !name.endsWith('.browser.test.ts'));
    if (!files.length) return { code: 1, passed: 0, failed: 0, note: 'no node test files found' };
    const { code, output } = await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files]);
    const passed = lastNumber(output, /^ℹ pass (\d+)/gm);
    const failed = lastNumber(output, /^ℹ fail (\d+)/gm);
    return { code: passed === 0 ? 1 : code, passed, failed, note: passed === 0 ? 'no node test ran' : '' };
  },
  async browser() {
    const chromium = execFileSync('scripts/ensure-chromium', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    const wtr = join('node_modules', '@web', 'test-runner', 'dist', 'bin.js');
    const { code, output } = await run(process.execPath, ['--import', 'tsx', wtr, '--config', 'web-test-runner.config.mjs', '--static-logging'], { CHROME_PATH: chromium });
    const passed = lastNumber(output, /(\d+) passed/g);
    const failed = lastNumber(output, /(\d+) failed/g);
    return { code: passed === 0 ? 1 : code, passed, failed, note: passed === 0 ? 'no browser test ran' : '' };
  },
  async e2e() {
    return nodeTestFiles('e2e', listFiles(join('test', 'e2e'), (name) => name.endsWith('.e2e.ts')));
  },
  async storybook() {
    return nodeTestFiles('storybook', listFiles(join('test', 'storybook'), (name) => name.endsWith('.storybook.ts')));
  },
};

/** Runs node:test files through tsx (one at a time: each starts servers and a browser) and counts their results. */
async function nodeTestFiles(kind, files) {
  if (!files.length) return { code: 1, passed: 0, failed: 0, note: `no ${kind} test files found` };
  const chromium = execFileSync('scripts/ensure-chromium', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const { code, output } = await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], { CHROME_PATH: chromium });
  const passed = lastNumber(output, /^ℹ pass (\d+)/gm);
  const failed = lastNumber(output, /^ℹ fail (\d+)/gm);
  return { code: passed === 0 ? 1 : code, passed, failed, note: passed === 0 ? `no ${kind} test ran` : '' };
}

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const stage of stages) {
  console.log(`\n=== ${stage} tests ===`);
  const result = await runners[stage]();
  passed += result.passed;
  failed += result.failed;
  if (result.code !== 0) {
    exitCode = 1;
    console.error(`${stage} tests failed (exit ${result.code})${result.note ? `: ${result.note}` : ''}`);
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(exitCode);
