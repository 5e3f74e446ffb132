/**
 * Mutation testing of the Redis store's Lua scripts. StrykerJS sees each script
 * only as one string literal (emptying it breaks every call), yet the scripts
 * hold the store's rules: who holds a claim, the counted window, the first final
 * value, the unanswered mark, the expiries. This runs the same idea one level
 * down: each mutant changes one operator, comparison, flag or Redis write of one
 * script, and the Redis store's focused tests (stryker/targets.mjs) run against
 * a real redis-server; the mutant is caught when they fail or hang.
 *
 * `npm run test:mutation -- redis-lua` (or every target: `npm run test:mutation`).
 * Exits non-zero below the break threshold; survivors are listed with their line.
 */
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { BREAK_THRESHOLD, NODE_TEST_ARGS, PROPERTY_RUNS, TARGETS } from '../stryker/targets.mjs';

const FILE = 'src/server/coordination/redis-status-store.ts';
// Only the suites against a real redis-server run the scripts (the others script the client's replies).
const TESTS = TARGETS['redis-status-store'].tests.filter((file) => file === 'test/server/coordination/redis-status-store.test.ts');
const TIME_LIMIT_MS = 90_000;
const SCRATCH = resolve('.stryker-tmp/redis-lua');
const REPORT = resolve('reports/mutation/redis-lua/survivors.txt');

/** One change per mutant: a pattern, and what one of its matches becomes. */
const OPERATORS = [
  ['comparison', /(?<![<>=~])>(?!=)/g, '>='],
  ['comparison', />=/g, '>'],
  ['comparison', /(?<![<>=~])<(?!=)/g, '<='],
  ['comparison', /<=/g, '<'],
  ['equality', /==/g, '~='],
  ['equality', /~=/g, '=='],
  ['logical', /\band\b/g, 'or'],
  ['logical', /\bor\b/g, 'and'],
  ['negation', /\bnot /g, ''],
  ['flag', /'1'/g, "'0'"],
  ['flag', /'0'/g, "'1'"],
  ['arithmetic', / \+ /g, ' - '],
  ['arithmetic', / - /g, ' + '],
  // A Redis write or expiry left out (the line's whole statement).
  ['write removed', /^[ \t]*redis\.call\('(?:SET|HSET|HDEL|PEXPIRE)'.*$/gm, ''],
];

function mutants(source) {
  const found = [];
  for (const script of source.matchAll(/const (CLAIM|SETTLE|RENEW|READ) = `([\s\S]*?)`;/g)) {
    const bodyStart = script.index + script[0].indexOf('`') + 1;
    const body = script[2];
    for (const [kind, pattern, replacement] of OPERATORS) {
      for (const match of body.matchAll(pattern)) {
        const at = bodyStart + match.index;
        const mutated = source.slice(0, at) + replacement + source.slice(at + match[0].length);
        const line = source.slice(0, at).split('\n').length;
        const text = source.split('\n')[line - 1].trim();
        found.push({ script: script[1], kind, line, text, change: `${match[0].trim()} → ${replacement || '(removed)'}`, mutated });
      }
    }
  }
  return found;
}

/** A copy of the sources and tests to mutate in (node_modules linked), one per worker. */
function workspace(index) {
  const dir = join(SCRATCH, String(index));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const name of ['src', 'test', 'package.json', 'tsconfig.json']) cpSync(name, join(dir, name), { recursive: true });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function runTests(dir) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...NODE_TEST_ARGS, ...TESTS], {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, GW_PROPERTY_RUNS: process.env.GW_PROPERTY_RUNS ?? PROPERTY_RUNS },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIME_LIMIT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      done(signal ? 'timeout' : code === 0 ? 'survived' : 'killed');
    });
  });
}

const source = readFileSync(FILE, 'utf8');
const all = mutants(source);
const workers = Math.max(1, Math.min(Number(process.env.MUTATION_CONCURRENCY ?? availableParallelism()), all.length));
const dirs = Array.from({ length: workers }, (_, index) => workspace(index));
console.log(`Lua mutation testing of ${FILE}: ${all.length} mutants, ${workers} at a time`);
if ((await runTests(dirs[0])) !== 'survived') {
  console.error('The unmutated tests fail: fix them before mutation testing.');
  process.exit(1);
}

const results = [];
let next = 0;
await Promise.all(
  dirs.map(async (dir) => {
    while (next < all.length) {
      const mutant = all[next++];
      writeFileSync(join(dir, FILE), mutant.mutated);
      mutant.status = await runTests(dir);
      results.push(mutant);
      process.stdout.write(`${results.length}/${all.length} ${mutant.status.padEnd(8)} ${mutant.script}:${mutant.line} ${mutant.change}\n`);
    }
  }),
);
rmSync(SCRATCH, { recursive: true, force: true });

const survivors = results.filter((mutant) => mutant.status === 'survived').sort((a, b) => a.line - b.line);
const score = (100 * (results.length - survivors.length)) / results.length;
const lines = survivors.map((mutant) => `${FILE}:${mutant.line} [${mutant.script}, ${mutant.kind}] ${mutant.change}   | ${mutant.text}`);
mkdirSync(resolve(REPORT, '..'), { recursive: true });
writeFileSync(REPORT, `${lines.join('\n')}\n`);
console.log(
  `\nLua mutants caught: ${results.length - survivors.length}/${results.length} (${score.toFixed(1)}%); break threshold ${BREAK_THRESHOLD}%`,
);
if (lines.length) console.log(`Survived:\n${lines.join('\n')}`);
process.exit(score >= BREAK_THRESHOLD ? 0 : 1);
