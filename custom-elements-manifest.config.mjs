// custom-elements.json is generated from the components' JSDoc: `npm run analyze`.
import { readFileSync } from 'node:fs';
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

export default {
  globs: ['src/components/**/*.ts'],
  exclude: ['src/components/**/*.styles.ts', 'src/components/**/*.d.ts'],
  litelement: true,
  // The manifest's place is fixed in package.json; the analyzer must not rewrite it (the freshness check writes elsewhere).
  packagejson: false,
  plugins: [dropPrivateMembers],
  // The analyzer takes files in the order its glob walk finishes, which varies with the machine's load; sorted, the
  // manifest is the same on every machine, so the freshness check compares content, not timing.
  overrideModuleCreation: ({ ts, globs }) =>
    [...globs].sort().map((path) => ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2015, true)),
  outdir: process.env.CEM_OUTDIR || '.',
};
