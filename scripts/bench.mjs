/**
 * `npm run bench`: runs every bench/*.bench.ts in turn (through tsx). Each file
 * measures its subject and a baseline in the same run and prints their ratio,
 * so results compare across machines. Never part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((name) => name.endsWith('.bench.ts') && (!only.length || only.some((word) => name.includes(word))))
  .sort();
if (!files.length) {
  console.error('no benchmarks found in bench/');
  process.exit(1);
}
let failed = false;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const { status } = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
