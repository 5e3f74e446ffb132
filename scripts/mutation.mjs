/**
 * `npm run test:mutation`: StrykerJS over every money-critical module in turn
 * (stryker/targets.mjs), or over the ones named (`npm run test:mutation -- redaction`).
 * Exits non-zero when any module scores below its break threshold or its run fails.
 */
import { spawnSync } from 'node:child_process';
import { TARGETS } from '../stryker/targets.mjs';

// The Redis store's Lua scripts, which Stryker sees as string literals, have their own mutator (scripts/mutation-lua.mjs).
const LUA = 'redis-lua';
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in TARGETS) && name !== LUA);
if (unknown.length) {
  console.error(`unknown mutation target: ${unknown.join(', ')} (known: ${[...Object.keys(TARGETS), LUA].join(', ')})`);
  process.exit(2);
}
const names = requested.length ? requested : [...Object.keys(TARGETS), LUA];
// The Redis store's targets run against a real redis-server: found (or installed) once, as `npm test` does.
if (names.some((name) => name.startsWith('redis')) && !process.env.REDIS_SERVER_PATH) {
  const found = spawnSync('scripts/ensure-redis', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (found.status === 0 && found.stdout.trim()) process.env.REDIS_SERVER_PATH = found.stdout.trim();
  else console.error('scripts/ensure-redis found no redis-server: the Redis targets will fail. Set REDIS_SERVER_PATH=/path/to/it.');
}
const failed = [];
for (const name of names) {
  if (name === LUA) {
    console.log(`\n=== mutation testing: ${LUA} (the Redis store's Lua scripts)`);
    if (spawnSync(process.execPath, ['scripts/mutation-lua.mjs'], { stdio: 'inherit' }).status !== 0) failed.push(name);
    continue;
  }
  console.log(`\n=== mutation testing: ${name} (${TARGETS[name].mutate.join(', ')})`);
  const { status } = spawnSync(process.execPath, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'stryker.config.mjs'], {
    stdio: 'inherit',
    env: { ...process.env, MUTATION_TARGET: name },
  });
  if (status !== 0) failed.push(name);
}
console.log(failed.length ? `\nmutation testing failed for: ${failed.join(', ')}` : `\nmutation testing passed: ${names.join(', ')}`);
process.exit(failed.length ? 1 : 0);
