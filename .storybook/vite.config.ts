// Storybook's own Vite settings (the project's vite.config.ts builds the library and the demo).
import { defineConfig } from 'vite';

export default defineConfig({
  // Storybook's preview bundles the docs renderer into one large chunk by design; it is served locally only.
  build: { chunkSizeWarningLimit: 4096 },
});
