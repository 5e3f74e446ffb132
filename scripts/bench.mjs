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
// The benchmarks measure the package a merchant installs: built first, and `gw-elements/*` resolved through its
// exports to dist/ (bench/tsconfig.bench.json has no paths). The sources through tsx carry esbuild's keepNames helpers,
// about 1 µs more per request on each side of it.
console.log('building the package (the benchmarks run dist/, as a merchant does)');
if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) {
  console.error('npm run build failed');
  process.exit(1);
}
const env = { ...process.env, TSX_TSCONFIG_PATH: 'bench/tsconfig.bench.json' };
let failed = false;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const { status } = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `bench/${file}`], { stdio: 'inherit', env });
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
