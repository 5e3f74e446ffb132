/**
 * `npm run test:mutation`: StrykerJS over every money-critical module in turn
 * (stryker/targets.mjs), or over the ones named (`npm run test:mutation -- redaction`).
 * Exits non-zero when any module scores below its break threshold or its run fails.
 */
import { spawnSync } from 'node:child_process';
import { TARGETS } from '../stryker/targets.mjs';

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in TARGETS));
if (unknown.length) {
  console.error(`unknown mutation target: ${unknown.join(', ')} (known: ${Object.keys(TARGETS).join(', ')})`);
  process.exit(2);
}
const names = requested.length ? requested : Object.keys(TARGETS);
const failed = [];
for (const name of names) {
  console.log(`\n=== mutation testing: ${name} (${TARGETS[name].mutate.join(', ')})`);
  const { status } = spawnSync(process.execPath, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'stryker.config.mjs'], { stdio: 'inherit', env: { ...process.env, MUTATION_TARGET: name } });
  if (status !== 0) failed.push(name);
}
console.log(failed.length ? `\nmutation testing failed for: ${failed.join(', ')}` : `\nmutation testing passed: ${names.join(', ')}`);
process.exit(failed.length ? 1 : 0);
