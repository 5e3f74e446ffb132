/**
 * One config for the two things Vite does here: the library build of the
 * package's entry points into dist/, and the dev server for the demo pages.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { BROWSER_BUNDLE_FILE, buildBrowserBundle } from './scripts/browser-bundle.js';
import { ENTRY_POINTS, sourceAliases } from './scripts/entry-points.mjs';
import { viteMinifyTemplates } from './scripts/minify-templates.js';
import { bundleWidgetScript, WIDGET_SCRIPT_FILE } from './src/sandbox/node/widget-bundle.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The sandbox serves the widget script's exact bytes (their sha384 is the
 * checkout's integrity): bundled from its TypeScript once, here, and read as
 * they are by the published sandbox.
 */
function buildWidgetScript(): Plugin {
  return {
    name: 'gw-widget-script',
    apply: 'build',
    closeBundle() {
      mkdirSync(here('dist'), { recursive: true });
      writeFileSync(here(`dist/${WIDGET_SCRIPT_FILE}`), bundleWidgetScript(here('src/widget/payment-widgets.ts')));
    },
  };
}

/** `gw-elements/browser`: the elements with Lit inside, for pages without a bundler (scripts/browser-bundle.ts). */
function browserBundle(): Plugin {
  return {
    name: 'gw-browser-bundle',
    apply: 'build',
    closeBundle: () => buildBrowserBundle(here(`dist/${BROWSER_BUNDLE_FILE}`)),
  };
}

export default defineConfig({
  root: here('demo'),
  publicDir: false,
  // The demo's pages import the package by its own name, as a merchant's would.
  resolve: { alias: sourceAliases(new URL('./', import.meta.url)) },
  server: { host: '127.0.0.1', strictPort: false },
  plugins: [viteMinifyTemplates(), buildWidgetScript(), browserBundle()],
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    lib: {
      entry: {
        ...Object.fromEntries(Object.values(ENTRY_POINTS).map(({ source, build }) => [build, here(source)])),
        'sandbox-cli': here('src/sandbox/cli.ts'),
      },
      formats: ['es'],
    },
    rollupOptions: {
      // lit stays a peer of the page's own copy; node built-ins are only reached by the sandbox.
      external: [/^lit($|\/)/, /^@lit\//, /^node:/],
    },
  },
});
