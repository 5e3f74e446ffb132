/**
 * Sums a V8 .cpuprofile (`node --cpu-prof`): the top functions by self time
 * and by total time (each sample counted once for every function on its
 * stack), and the top files by self time, as shares of the samples. Used to find where the
 * sandbox's time goes under `bench/sandbox.bench.ts`'s load (see
 * docs/development.md, Benchmarks). Usage: node scripts/cpuprofile-summary.mjs FILE [TOP]
 */
import { readFileSync } from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/cpuprofile-summary.mjs FILE.cpuprofile [TOP]');
  process.exit(1);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
// Self time of a node: the time deltas of the samples taken in it.
const selfMicros = new Map();
profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

const shortFile = (url) => (url ? url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|src|bench)\//, '$1/') : '(native)');
const byFunction = new Map();
const byFile = new Map();
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const nameOf = ({ callFrame }) =>
  `${callFrame.functionName || '(anonymous)'}  ${shortFile(callFrame.url)}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
const totalByFunction = new Map();
for (const [id, micros] of selfMicros) {
  const onStack = new Set();
  for (let at = id; at !== undefined; at = parents.get(at)) onStack.add(nameOf(nodes.get(at)));
  for (const name of onStack) totalByFunction.set(name, (totalByFunction.get(name) ?? 0) + micros);
}
for (const [id, micros] of selfMicros) {
  const { callFrame } = nodes.get(id);
  const where = shortFile(callFrame.url);
  const name = nameOf({ callFrame });
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  byFile.set(where, (byFile.get(where) ?? 0) + micros);
}
const print = (title, entries) => {
  console.log(`\n${title}`);
  for (const [name, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
};
console.log(`${(total / 1e6).toFixed(2)} s sampled in ${file}`);
print('self time by function', byFunction);
print(
  'total time by function',
  [...totalByFunction].filter(([name]) => !name.startsWith('(root)')),
);
print('self time by file', byFile);
