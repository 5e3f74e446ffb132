// A small lint config: TypeScript's recommended rules, plus Lit's and web components' own.
import js from '@eslint/js';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import tseslint from 'typescript-eslint';

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
  {
    languageOptions: { globals: { window: 'readonly', document: 'readonly', console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
