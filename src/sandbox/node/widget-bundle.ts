/**
 * The payment widget script the sandbox serves, and its integrity value. The
 * widget is written in TypeScript (src/widget/, importing the
 * contract) and bundled by esbuild into one classic script: by the package
 * build into dist/payment-widgets.js, which the published sandbox reads as it
 * is, or on the fly when the sandbox runs from source, so a test never serves
 * a stale copy. Either way the `sha384-…` a checkout answers is the hash of
 * exactly the bytes `/v1/paymentWidgets.js` serves.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import type { WidgetScript } from '../core/runtime.js';

/** The built script's file name, next to the package's sandbox bundle in dist/. */
export const WIDGET_SCRIPT_FILE = 'payment-widgets.js';

// (A `new URL('…', import.meta.url)` would be inlined by Vite, so paths are computed.)
const here = dirname(fileURLToPath(import.meta.url));

/** The widget's TypeScript entry, in its own product folder (src/widget/), read when this module runs from source. */
export const WIDGET_SOURCE_ENTRY = join(here, '..', '..', 'widget', 'payment-widgets.ts');

/**
 * Whether this module runs from its source folder (src/sandbox/node/, through tsx or Vite) rather than from the
 * package's dist/, where the entry two folders up is no widget source of this package.
 */
const FROM_SOURCE = /[\\/]src[\\/]sandbox[\\/]node$/.test(here) && existsSync(WIDGET_SOURCE_ENTRY);

/**
 * How the sandbox's browser scripts (this widget, the static site's service
 * worker) are bundled: one minified classic script (an IIFE: no module, no
 * globals but its own), for the browsers the elements support.
 */
export const CLASSIC_SCRIPT_BUILD = {
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  charset: 'utf8',
} as const satisfies Esbuild.BuildOptions;

/**
 * Bundles the widget from its TypeScript source (no globals but `wpwl`).
 * esbuild is a dev dependency, loaded only here, so the published sandbox,
 * which reads the prebuilt file, keeps zero runtime dependencies.
 */
export function bundleWidgetScript(entry = WIDGET_SOURCE_ENTRY): Buffer {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const { outputFiles } = esbuild.buildSync({
    ...CLASSIC_SCRIPT_BUILD,
    entryPoints: [entry],
    banner: { js: '/* gw-elements sandbox paymentWidgets.js, built from src/widget/payment-widgets.ts */' },
  });
  return Buffer.from(outputFiles[0]!.contents);
}

let bundled: Buffer | undefined;

/** The script's bytes: bundled from source (once per process) when the source is there, else the prebuilt file. */
export function widgetScriptBytes(): Buffer {
  if (FROM_SOURCE) return (bundled ??= bundleWidgetScript());
  const built = join(here, WIDGET_SCRIPT_FILE);
  if (!existsSync(built)) throw new Error(`payment widget script not found: ${built} (run npm run build)`);
  return readFileSync(built);
}

export function loadWidgetScript(): WidgetScript {
  const bytes = widgetScriptBytes();
  return { bytes, integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}` };
}
