/**
 * The package's public entry points and the source file behind each: the library
 * build (vite.config.ts) bundles them, and the demo, the stories and the
 * benchmarks import them by the package's own name, as a merchant would, through
 * the aliases below (tsconfig.json's `paths` say the same for tsc and tsx; a test
 * holds the two to each other).
 */
/** The languages shipped as translation modules (English is built into each element). */
export const TRANSLATIONS = ['ar', 'de', 'es', 'fr', 'it', 'nl', 'pl', 'tr'];

export const ENTRY_POINTS = {
  'gw-elements': { source: 'src/index.ts', build: 'index' },
  'gw-elements/checkout': { source: 'src/checkout.ts', build: 'checkout' },
  'gw-elements/3ds-handler': { source: 'src/3ds-handler.ts', build: '3ds-handler' },
  'gw-elements/server': { source: 'src/server/index.ts', build: 'server' },
  'gw-elements/sandbox': { source: 'src/sandbox/index.ts', build: 'sandbox' },
  'gw-elements/sandbox/test-cards': { source: 'src/sandbox/test-cards.ts', build: 'sandbox-test-cards' },
  // Each element's texts in each shipped language but English (built in): a page imports the ones it needs.
  ...Object.fromEntries(
    ['checkout', '3ds-handler'].flatMap((element) =>
      TRANSLATIONS.map((code) => [
        `gw-elements/${element}/translations/${code}`,
        { source: `src/translations/${element}/${code}.ts`, build: `translations/${element}/${code}` },
      ]),
    ),
  ),
};

/** Vite `resolve.alias` entries (exact matches) from each public name to its source, under `root`. */
/* global URL */
export function sourceAliases(root) {
  return Object.entries(ENTRY_POINTS).map(([name, { source }]) => ({
    find: new RegExp(`^${name.replace(/[/.-]/g, '\\$&')}$`),
    replacement: new URL(source, root).pathname,
  }));
}
