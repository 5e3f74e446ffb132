/** Fails when the committed custom-elements.json is not what the analyzer makes of the current JSDoc. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The analyzer writes relative to the working directory, so the scratch copy stays inside the project.
const outdir = join('.cache', 'manifest-check');
mkdirSync(outdir, { recursive: true });
try {
  execFileSync(
    process.execPath,
    ['node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze', '--config', 'custom-elements-manifest.config.mjs'],
    {
      env: { ...process.env, CEM_OUTDIR: outdir },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const fresh = readFileSync(join(outdir, 'custom-elements.json'), 'utf8');
  const committed = readFileSync('custom-elements.json', 'utf8');
  if (fresh !== committed) {
    console.error('custom-elements.json is stale: run `npm run analyze` and commit the result.');
    process.exit(1);
  }
  console.log('custom-elements.json is up to date.');
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
