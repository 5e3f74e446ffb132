// A small lint config: TypeScript's recommended rules, plus Lit's and web components' own.
import js from '@eslint/js';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import tseslint from 'typescript-eslint';

/** One `no-restricted-imports` block per folder of src/: the sibling folders it must never import. */
function layers(forbidden) {
  return Object.entries(forbidden).map(([files, folders]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: folders.map((folder) => ({
            group: [`**/${folder}/*`, `**/${folder}/**`, `../${folder}`, `../../${folder}`],
            message: `${files.replace('/**', '')} never imports src/${folder}: the products are siblings on src/contract and src/browser.`,
          })),
        },
      ],
    },
  }));
}

/** What the sandbox's runtime-neutral code (everything but its Node adapter) may not import. */
const SANDBOX_CORE_IMPORTS = [
  { group: ['node:*'], message: "The sandbox's core runs in every runtime: take what differs from the adapter's SandboxRuntime." },
  { group: ['**/node/*', '../node/**'], message: 'The core never imports the Node adapter: the adapter hands it what it needs.' },
  { group: ['**/components/*', '**/server/*', '**/widget/*', '../../widget/**'], message: 'The products are siblings on src/contract.' },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'storybook-static/', 'custom-elements.json', '.cache/', '.stryker-tmp/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/components/**/*.ts', 'stories/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['src/components/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
  // The three products stand on src/contract (and the browser floor, src/browser) and never import one another.
  ...layers({
    'src/contract/**': ['browser', 'components', 'sandbox', 'server', 'widget'],
    'src/browser/**': ['components', 'sandbox', 'server', 'widget'],
    'src/components/**': ['sandbox', 'server', 'widget'],
    'src/sandbox/**': ['components', 'server', 'widget'],
    'src/server/**': ['browser', 'components', 'sandbox', 'widget'],
  }),
  // The widget the sandbox serves is a browser product of its own: one classic script in the shopper's page, so no
  // Node built-in and no Node global; it stands on src/contract and src/browser like the components.
  {
    files: ['src/widget/**/*.ts'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', console: 'readonly', process: 'off' } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: "src/widget runs in the shopper's browser: no Node built-ins." },
            {
              group: ['**/components/*', '**/sandbox/*', '**/server/*', '**/sandbox/**'],
              message: 'src/widget never imports src/sandbox, src/components or src/server: it stands on src/contract and src/browser.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: 'src/widget runs in the browser: no Buffer.' }, 'process', 'require'],
    },
  },
  // The sandbox's core runs in Node and in a service worker: what differs (clock, randomness, the widget script) is
  // handed in by the adapters (src/sandbox/node/, src/sandbox/service-worker/), never imported from Node here.
  {
    files: [
      'src/sandbox/core/**/*.ts',
      'src/sandbox/protocol/**/*.ts',
      'src/sandbox/controls/**/*.ts',
      'src/sandbox/service-worker/**/*.ts',
      'src/sandbox/bytes.ts',
      'src/sandbox/limits.ts',
      'src/sandbox/defaults.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: SANDBOX_CORE_IMPORTS }],
      'no-restricted-globals': ['error', { name: 'Buffer', message: 'Node only: use src/sandbox/bytes.ts.' }],
    },
  },
  // The gateway's domain owns every state change and knows no wire: it never imports the protocol, the pipeline or the controls.
  {
    files: ['src/sandbox/gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...SANDBOX_CORE_IMPORTS,
            {
              group: ['../protocol/*', '../core/*', '../controls/*'],
              message: 'src/sandbox/gateway is the domain: records and typed refusals, never an HTTP status or a wire body.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: 'Node only: use src/sandbox/bytes.ts.' }],
    },
  },
  // What a merchant would write: the demo, the stories and the benchmarks import the package by its public names only.
  {
    files: ['demo/**/*.ts', 'stories/**/*.ts', '.storybook/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/*', '**/src/**'],
              message:
                "Import the package's public entry points (gw-elements, gw-elements/server, gw-elements/sandbox, gw-elements/sandbox/test-cards), as a merchant would.",
            },
          ],
        },
      ],
    },
  },
  {
    languageOptions: { globals: { window: 'readonly', document: 'readonly', console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
