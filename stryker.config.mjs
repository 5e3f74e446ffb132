// @ts-check
/**
 * StrykerJS for one money-critical module at a time: `MUTATION_TARGET` names
 * it (see stryker/targets.mjs); scripts/mutation.mjs runs them all. The
 * command runner runs the module's focused node tests once per mutant; the
 * run fails when fewer than BREAK_THRESHOLD percent of mutants are caught.
 */
import { BREAK_THRESHOLD, NODE_TEST_ARGS, PROPERTY_RUNS, TARGETS } from './stryker/targets.mjs';

const name = process.env.MUTATION_TARGET ?? '';
process.env.GW_PROPERTY_RUNS ??= PROPERTY_RUNS;
const target = TARGETS[name];
if (!target) throw new Error(`MUTATION_TARGET must be one of: ${Object.keys(TARGETS).join(', ')} (got "${name}")`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  // One file after another, fastest first, stopping at the first that fails: most mutants are caught by a fast file
  // and never wait for a slow one (the Redis store's real-server suite). A mutant that hangs a wait ends at Stryker's
  // timeout (the dry run's time × 1.5 + 8 s); the 60 s limit per file only backs it up.
  commandRunner: { command: target.tests.map((file) => `node ${NODE_TEST_ARGS.join(' ')} ${file}`).join(' && ') },
  mutate: target.mutate,
  coverageAnalysis: 'off',
  // One mutant per core by default (MUTATION_CONCURRENCY=1 leaves a core free for other work).
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 8_000,
  thresholds: { high: 95, low: BREAK_THRESHOLD, break: BREAK_THRESHOLD },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${name}/mutation.json` },
  // One directory per module, so modules can be measured side by side.
  tempDirName: `.stryker-tmp/${name}`,
  ignorePatterns: ['storybook-static', 'reports', '.cache', 'tmp', '.stryker-tmp'],
  cleanTempDir: 'always',
};
