/**
 * The package's public entry points and the source file behind each: the library
 * build (vite.config.ts) bundles them, and the demo, the stories and the
 * benchmarks import them by the package's own name, as a merchant would, through
 * the aliases below (tsconfig.json's `paths` say the same for tsc and tsx; a test
 * holds the two to each other).
 */
export const ENTRY_POINTS = {
  'gw-elements': { source: 'src/index.ts', build: 'index' },
  'gw-elements/checkout': { source: 'src/checkout.ts', build: 'checkout' },
  'gw-elements/3ds-handler': { source: 'src/3ds-handler.ts', build: '3ds-handler' },
  'gw-elements/server': { source: 'src/server/index.ts', build: 'server' },
  'gw-elements/sandbox': { source: 'src/sandbox/index.ts', build: 'sandbox' },
  'gw-elements/sandbox/test-cards': { source: 'src/sandbox/test-cards.ts', build: 'sandbox-test-cards' },
};

/** Vite `resolve.alias` entries (exact matches) from each public name to its source, under `root`. */
/* global URL */
export function sourceAliases(root) {
  return Object.entries(ENTRY_POINTS).map(([name, { source }]) => ({
    find: new RegExp(`^${name.replace(/[/.-]/g, '\\$&')}$`),
    replacement: new URL(source, root).pathname,
  }));
}
