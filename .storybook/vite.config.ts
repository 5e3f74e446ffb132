// Storybook's own Vite settings (the project's vite.config.ts builds the library and the demo).
import { defineConfig } from 'vite';
import { sourceAliases } from '../scripts/entry-points.mjs';

export default defineConfig({
  // Stories import the package by its own name, as a merchant's code would.
  resolve: { alias: sourceAliases(new URL('../', import.meta.url)) },
  // Storybook's preview bundles the docs renderer into one large chunk by design; it is served locally only.
  build: { chunkSizeWarningLimit: 4096 },
});
