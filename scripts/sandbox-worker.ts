/**
 * Bundles the sandbox's service worker (src/sandbox/service-worker/worker.ts)
 * into one classic script for a static site: the static Storybook's
 * (.storybook/main.ts). The worker is the sandbox's own request pipeline with
 * a web runtime handed in; the widget script, bundled here from its source,
 * travels inside it. Nothing is swapped at bundle time.
 */
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleWidgetScript, CLASSIC_SCRIPT_BUILD } from '../src/sandbox/node/widget-bundle.js';

/** The worker's file name at the root of the site it serves. */
export const SANDBOX_WORKER_FILE = 'gw-sandbox-sw.js';

const entry = fileURLToPath(new URL('../src/sandbox/service-worker/worker.ts', import.meta.url));

/** The worker's script: minified, with the widget script's bytes in it. */
export async function buildSandboxWorker(): Promise<Uint8Array> {
  const { outputFiles } = await esbuild.build({
    ...CLASSIC_SCRIPT_BUILD,
    entryPoints: [entry],
    define: { GW_WIDGET_SCRIPT: JSON.stringify(new TextDecoder().decode(bundleWidgetScript())) },
    banner: { js: '/* gw-elements sandbox service worker, built from src/sandbox/service-worker/worker.ts */' },
  });
  return outputFiles[0]!.contents;
}
