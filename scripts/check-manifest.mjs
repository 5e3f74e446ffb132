/** Fails when the committed custom-elements.json is not what the analyzer makes of the current JSDoc. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The analyzer writes relative to the working directory, so the scratch copy stays inside the project.
const outdir = join('.cache', 'manifest-check');
mkdirSync(outdir, { recursive: true });
try {
  const printed = execFileSync(
    process.execPath,
    ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--config', 'custom-elements-manifest.config.mjs'],
    { env: { ...process.env, CEM_OUTDIR: outdir }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Compared as JSON, so a line ending or a final newline is not a difference; a changed word is.
  const fresh = JSON.stringify(JSON.parse(readFileSync(join(outdir, 'custom-elements.json'), 'utf8')), null, 2).split('\n');
  const committed = JSON.stringify(JSON.parse(readFileSync('custom-elements.json', 'utf8')), null, 2).split('\n');
  const first = fresh.findIndex((line, index) => line !== committed[index]);
  if (first !== -1 || fresh.length !== committed.length) {
    const at = first === -1 ? Math.min(fresh.length, committed.length) : first;
    console.error('custom-elements.json is stale: run `npm run analyze` and commit the result.');
    console.error(`First difference at line ${at + 1}:\n  committed: ${committed[at]}\n  analyzed:  ${fresh[at]}`);
    console.error(`The analyzer printed:\n${printed}`);
    process.exit(1);
  }
  console.log('custom-elements.json is up to date.');
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
