// custom-elements.json is generated from the components' JSDoc: `npm run analyze`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
/** Private members (`#name` or `private`) are not public API, so they stay out of the manifest and of Storybook. */
const dropPrivateMembers = {
  name: 'gw-drop-private-members',
  packageLinkPhase({ customElementsManifest }) {
    for (const module of customElementsManifest.modules) {
      for (const declaration of module.declarations ?? []) {
        if (declaration.members) {
          declaration.members = declaration.members.filter((member) => member.privacy !== 'private' && !member.name.startsWith('#'));
        }
      }
    }
  },
};

/**
 * A default written as a named constant (`this.methodTimeout = METHOD_TIMEOUT_MS`) is shown as its value, and a number
 * without its digit separators (`600_000`): the manifest feeds IDEs and Storybook, which show the text as it is. The
 * constants are read from the sources, so the manifest follows them.
 */
const CONSTANT = /(?:^|\n)(?:export )?const ([A-Z][A-Z0-9_]*)(?:: [^=\n]+)? = ('[^'\n]*'|[0-9][0-9_]*);/g;
function constantsOf(directory) {
  const values = new Map();
  for (const file of readdirSync(directory, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    for (const [, name, value] of readFileSync(join(directory, file), 'utf8').matchAll(CONSTANT)) values.set(name, value);
  }
  return values;
}
const resolveDefaults = {
  name: 'gw-resolve-defaults',
  packageLinkPhase({ customElementsManifest }) {
    const constants = constantsOf('src');
    const shown = (value) => {
      const resolved = constants.get(value) ?? value;
      return /^[0-9][0-9_]*$/.test(resolved) ? resolved.replaceAll('_', '') : resolved;
    };
    for (const module of customElementsManifest.modules) {
      for (const declaration of module.declarations ?? []) {
        for (const entry of [...(declaration.attributes ?? []), ...(declaration.members ?? [])]) {
          if (typeof entry.default === 'string') entry.default = shown(entry.default);
        }
      }
    }
  },
};

export default {
  globs: ['src/components/**/*.ts'],
  exclude: ['src/components/**/*.styles.ts', 'src/components/**/*.d.ts'],
  litelement: true,
  // The manifest's place is fixed in package.json; the analyzer must not rewrite it (the freshness check writes elsewhere).
  packagejson: false,
  plugins: [dropPrivateMembers, resolveDefaults],
  // The analyzer takes files in the order its glob walk finishes, which varies with the machine's load; sorted, the
  // manifest is the same on every machine, so the freshness check compares content, not timing.
  overrideModuleCreation: ({ ts, globs }) =>
    [...globs].sort().map((path) => ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2015, true)),
  outdir: process.env.CEM_OUTDIR || '.',
};
