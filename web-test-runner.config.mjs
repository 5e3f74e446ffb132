// Browser tests: real headless Chromium from the system (scripts/ensure-chromium), a real
// sandbox gateway on a free loopback port (test/support/wtr-sandbox.ts), TypeScript through esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_FLAGS, chromiumPath } from './scripts/chromium.mjs';
import { sandboxFixture } from './test/support/wtr-sandbox.ts';
import { threeDsSupport } from './test/support/wtr-three-ds.ts';
import { testRunnerMinifyTemplates } from './scripts/minify-templates.ts';

const sandbox = sandboxFixture();

export default {
  files: ['test/**/*.browser.test.ts'],
  nodeResolve: true,
  // One test file at a time: a file in a background tab gets no animation frames, which open-wc's fixtures wait for.
  concurrency: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 180_000,
  plugins: [
    testRunnerMinifyTemplates(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    sandbox.plugin,
    threeDsSupport(sandbox.current),
  ],
  middleware: [sandbox.middleware],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS },
    }),
  ],
  testFramework: { config: { timeout: 15_000 } },
};
