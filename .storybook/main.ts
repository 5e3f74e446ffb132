/**
 * Storybook for the two elements (web components + Vite), telemetry off, no
 * network: the dev server starts its own sandbox gateway and mounts the
 * sandbox's merchant proxy (`createMerchantProxy`, routes under /__gw/), so
 * stories never hold the access token. A static build carries the same
 * sandbox as a service worker (gw-sandbox-sw.js, registered by preview.ts),
 * which answers the same routes on any static host.
 */
import type { StorybookConfig } from '@storybook/web-components-vite';
import type { Plugin } from 'vite';
import { createMerchantProxy, startSandbox } from 'gw-elements/sandbox';
import { buildSandboxWorker, SANDBOX_WORKER_FILE } from '../scripts/sandbox-worker.js';

/** Starts a sandbox with the dev server and mounts its merchant proxy before Vite's own routes. */
function storySandbox(): Plugin {
  return {
    name: 'gw-story-sandbox',
    apply: 'serve',
    async configureServer(server) {
      const sandbox = await startSandbox({ port: 0, quiet: true });
      server.httpServer?.once('close', () => void sandbox.close());
      server.middlewares.use(createMerchantProxy(sandbox).middleware);
    },
  };
}

/** Puts the sandbox's service worker at the root of the static build, next to iframe.html. */
function storySandboxWorker(): Plugin {
  return {
    name: 'gw-story-sandbox-worker',
    apply: 'build',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: SANDBOX_WORKER_FILE, source: await buildSandboxWorker() });
    },
  };
}

const config: StorybookConfig = {
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-docs'],
  framework: {
    name: '@storybook/web-components-vite',
    // The project's vite.config.ts is the library build and the demo; stories get their own.
    options: { builder: { viteConfigPath: '.storybook/vite.config.ts' } },
  },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  async viteFinal(viteConfig) {
    viteConfig.plugins = [...(viteConfig.plugins ?? []), storySandbox(), storySandboxWorker()];
    return viteConfig;
  },
};

export default config;
