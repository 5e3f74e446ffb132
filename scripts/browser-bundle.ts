/**
 * The no-bundler build: both elements with Lit inside, one minified ES module
 * (`gw-elements/browser`, dist/gw-elements.browser.js), so a page without a
 * build step needs one `<script type="module">`. Built by the package build
 * (vite.config.ts) and by its test, from the same function.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { esbuildMinifyTemplates } from './minify-templates.js';

export const BROWSER_BUNDLE_FILE = 'gw-elements.browser.js';

const ENTRY = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** Writes the bundle (and its source map) to `outfile`. Lit's production build: no dev-mode warnings on a shop's page. */
export async function buildBrowserBundle(outfile: string): Promise<void> {
  await build({
    entryPoints: [ENTRY],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    legalComments: 'eof',
    logLevel: 'silent',
    plugins: [esbuildMinifyTemplates()],
  });
}
