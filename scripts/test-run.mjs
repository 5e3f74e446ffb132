/**
 * How scripts/test.mjs runs a stage without ever hanging silently: each
 * command in its own process group, its output echoed and watched; silent
 * for `idleMs`, the whole group (servers, browsers) is killed and the stall
 * reported with the file (and test) it stalled in, read from the progress
 * reporter (scripts/test-progress.mjs). node:test files also get a time limit each.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath, URL } from 'node:url';

const PROGRESS_REPORTER = fileURLToPath(new URL('test-progress.mjs', import.meta.url));
/** The files (and their tests) a progress log (scripts/test-progress.mjs) shows started and not ended. */
export function stalledIn(progressLog) {
  let lines = [];
  try {
    lines = readFileSync(progressLog, 'utf8').split('\n');
  } catch {
    return [];
  }
  const open = new Map();
  for (const line of lines) {
    const [kind, file, name] = line.split('\t');
    if (!file) continue;
    const running = open.get(file) ?? [];
    if (kind === 'run') running.push(name);
    else if (running.includes(name)) running.splice(running.lastIndexOf(name), 1);
    if (running.length) open.set(file, running);
    else open.delete(file);
  }
  return [...open].map(
    ([file, names]) => `${file} (in: ${names.filter((name) => resolve(name) !== file).join(' > ') || 'loading or a hook'})`,
  );
}

// eslint-disable-next-line no-control-regex -- the terminal's colour codes are what it strips
const COLOUR = /\x1b\[[0-9;]*[A-Za-z]/g;

/** The last number `pattern` (global) captures in `output`, or 0: a runner prints its totals last. */
export function lastNumber(output, pattern) {
  const matches = [...output.matchAll(pattern)];
  return matches.length ? Number(matches.at(-1)[1]) : 0;
}

/**
 * A node:test stage's totals from its spec reporter. A test cancelled because its suite's hook failed counts as
 * failed: the reporter counts it apart, and "0 failed" beside a red stage would hide it.
 */
export function nodeTestTotals(output) {
  const count = (name) => lastNumber(output, new RegExp(`^ℹ ${name} (\\d+)`, 'gm'));
  return { passed: count('pass'), failed: count('fail') + count('cancelled') };
}

/**
 * What a stage's output says failed: each failed test with where it is and the first lines of its error, each once,
 * at most `maxLines` lines. node:test's spec reporter lists them under "failing tests:" (`test at FILE:LINE`, then
 * `✖ name`); the browser runner prints `FILE:` and then `❌ suite > name`. `npm test` prints this again at its end, so
 * the last screen of a CI log names what failed.
 */
export function failuresIn(output, maxLines = 80) {
  const lines = output.replace(COLOUR, '').split('\n');
  const blocks = new Set();
  let where = '';
  for (const [index, line] of lines.entries()) {
    const text = line.trim();
    const place = /^test at (.+)$/.exec(text) ?? /^(\S+\.ts):$/.exec(text);
    if (place) where = place[1];
    const failed = /^❌ /.test(text) || (/^✖ /.test(text) && /^test at /.test(lines[index - 1]?.trim() ?? ''));
    if (!failed) continue;
    const block = [`${where} ${text}`];
    for (const next of lines.slice(index + 1)) {
      if (!next.startsWith(' ') || /^\s*at /.test(next) || block.length > 6) break;
      if (next.trim()) block.push(`  ${next.trim()}`);
    }
    blocks.add(block.join('\n'));
  }
  const all = [...blocks].flatMap((block) => block.split('\n'));
  return all.length > maxLines ? [...all.slice(0, maxLines), `… and ${all.length - maxLines} more lines, in the log above`] : all;
}

/**
 * Runs a command in its own process group, echoing its output, and resolves to
 * its exit code, output and, when it was killed for silence, why.
 */
export function run(command, args, { env = {}, progressLog, idleMs, echo = true }) {
  return new Promise((done) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let stalled = '';
    let timer;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = progressLog ? stalledIn(progressLog) : [];
        const where = files.length
          ? `; still running: ${files.join(', ')}`
          : `; last output: ${output.trimEnd().split('\n').at(-1) ?? '(none)'}`;
        stalled = `no output for ${idleMs / 60_000} minutes: killed${where}`;
        if (echo) console.error(`\n${stalled}`);
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, idleMs);
    };
    const read = (stream) => (chunk) => {
      watch();
      output += chunk;
      if (echo) stream.write(chunk);
    };
    watch();
    child.stdout.on('data', read(process.stdout));
    child.stderr.on('data', read(process.stderr));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: stalled ? 1 : (code ?? 1), output, stalled });
    });
  });
}

const PROPERTY_SEED = fileURLToPath(new URL('../test/support/property-seed.ts', import.meta.url));
const EXIT_WHEN_DONE = fileURLToPath(new URL('../test/support/exit-when-done.ts', import.meta.url));

/**
 * node:test through tsx with the spec reporter for people, the progress reporter for the watchdog, and a time limit per file.
 * Every fast-check property of the run starts from one seed, printed first (GW_PROPERTY_SEED, or a random one), so any
 * failure can be replayed: `GW_PROPERTY_SEED=<seed> node scripts/test.mjs node`.
 */
export async function nodeTest(files, { concurrency, fileTimeoutMs, idleMs, env, echo }) {
  const given = Number(process.env.GW_PROPERTY_SEED);
  const seed = Number.isSafeInteger(given) ? given : Math.floor(Math.random() * 2 ** 31);
  console.log(`fast-check seed ${seed} (replay: GW_PROPERTY_SEED=${seed})`);
  env = { ...env, GW_PROPERTY_SEED: String(seed) };
  const progressDir = mkdtempSync(join(tmpdir(), 'gw-test-'));
  const progressLog = join(progressDir, 'progress.log');
  try {
    return await run(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        PROPERTY_SEED,
        // A file whose tests have all ended exits, whatever handle a test left open: the coordination model once
        // passed and then held its file open until the 10-minute limit (on a loaded machine, where its property runs
        // are cut by their time limit mid-sequence). Not `--test-force-exit`: it drops results (see EXIT_WHEN_DONE).
        '--import',
        EXIT_WHEN_DONE,
        '--test',
        `--test-concurrency=${concurrency}`,
        `--test-timeout=${fileTimeoutMs}`,
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${PROGRESS_REPORTER}`,
        `--test-reporter-destination=${progressLog}`,
        ...files,
      ],
      { progressLog, idleMs, env, echo },
    );
  } finally {
    rmSync(progressDir, { recursive: true, force: true });
  }
}
