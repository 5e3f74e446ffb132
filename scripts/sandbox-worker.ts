/**
 * Bundles the sandbox's service worker (src/sandbox/service-worker/worker.ts)
 * into one classic script for a static site: the static Storybook's
 * (.storybook/main.ts). The request core is the sandbox's own, unchanged:
 * `node:crypto` and `Buffer` come from node-shims.ts, and the widget script,
 * bundled here from its source, travels inside the worker.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleWidgetScript, CLASSIC_SCRIPT_BUILD } from '../src/sandbox/node/widget-bundle.js';

/** The worker's file name at the root of the site it serves. */
export const SANDBOX_WORKER_FILE = 'gw-sandbox-sw.js';

const here = fileURLToPath(new URL('../src/sandbox/service-worker', import.meta.url));

/** The worker's script: minified, with the widget script's bytes in it. */
export async function buildSandboxWorker(): Promise<Uint8Array> {
  const shims: esbuild.Plugin = {
    name: 'gw-sandbox-node-shims',
    setup(build) {
      build.onResolve({ filter: /^node:crypto$/ }, () => ({ path: join(here, 'node-shims.ts') }));
      // The core's widget-script.ts reads a file; the worker's stand-in is handed the bytes it carries.
      build.onResolve({ filter: /\/widget-bundle\.js$/ }, (args) =>
        args.resolveDir === here ? undefined : { path: join(here, 'widget-script.ts') },
      );
    },
  };
  const { outputFiles } = await esbuild.build({
    ...CLASSIC_SCRIPT_BUILD,
    entryPoints: [join(here, 'worker.ts')],
    inject: [join(here, 'node-shims.ts')],
    define: { GW_WIDGET_SCRIPT: JSON.stringify(bundleWidgetScript().toString('utf8')) },
    plugins: [shims],
    banner: { js: '/* gw-elements sandbox service worker, built from src/sandbox/service-worker/worker.ts */' },
  });
  return outputFiles[0]!.contents;
}
