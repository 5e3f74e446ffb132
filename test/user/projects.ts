/**
 * Fresh projects made as a user makes them, around the packed package: one
 * `npm pack` of this repository, one `npm install` of that tarball and of the
 * tools the projects use (pinned to the versions this repository's lockfile
 * holds, so they come from npm's cache when it has them), in a temporary
 * folder whose projects share that folder's node_modules (Node, TypeScript
 * and Vite all look for packages in the parent folders too).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { projectFiles } from '../docs/blocks.js';

const root = new URL('../../', import.meta.url).pathname;

/** What the projects install besides the package, at the lockfile's versions. */
const FROM_LOCKFILE = [
  'typescript',
  'tsx',
  '@types/node',
  'express',
  '@types/express',
  // The documents' server examples beside Express: a Hono app and a Redis client.
  'hono',
  'redis',
  'vite',
  'react',
  'react-dom',
  '@types/react',
  'vue',
  'vue-tsc',
];
/** Tools this repository does not use itself, pinned here. */
const PINNED = { '@types/react-dom': '19.3.0', '@vitejs/plugin-vue': '6.0.11' };

export interface Area {
  readonly dir: string;
  readonly version: string;
  /**
   * Runs a tool installed in the area (its bin script under node_modules) in `cwd`; rejects with its output when it
   * fails. Not synchronously: the sandbox and the servers in this process must go on answering meanwhile.
   */
  tool(bin: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string>;
  /** The installed package's entry point `subpath`, imported as a user's code imports it. */
  load<T>(subpath: string): Promise<T>;
  close(): void;
}

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const run = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 5 * 60_000 });
  assert.equal(
    run.status,
    0,
    `${command} ${args.join(' ')} in ${cwd} failed (${run.error?.message ?? run.status}):\n${run.stdout}\n${run.stderr}`,
  );
  return run.stdout;
}

/** Packs the package (dist/ must be built: `npm test` builds it first) and installs it with the tools, once. */
export function createArea(): Area {
  assert.ok(existsSync(join(root, 'dist/index.js')), 'dist/ is built (npm test runs the build first; alone: npm run build)');
  // Run alone, the stage would otherwise pack a dist/ older than the sources and test what no user gets.
  const built = statSync(join(root, 'dist/index.js')).mtimeMs;
  const newer = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && statSync(join(root, 'src', file)).mtimeMs > built,
  );
  assert.deepEqual(newer, [], 'dist/ is older than these sources: npm run build first (npm test does)');
  const dir = mkdtempSync(join(tmpdir(), 'gw-user-'));
  sh('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], root);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote a tarball');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  const dependencies: Record<string, string> = { 'gw-elements': `file:./${tarball}`, ...PINNED };
  for (const name of FROM_LOCKFILE) {
    const locked = lock.packages[`node_modules/${name}`]?.version;
    assert.ok(locked, `the lockfile holds ${name}`);
    dependencies[name] = locked;
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'user-area', private: true, dependencies }, null, 2));
  sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], dir);
  return {
    dir,
    version,
    tool: (bin, args, cwd, env = {}) =>
      new Promise((resolve, reject) => {
        const command = [join(dir, 'node_modules/.bin', bin), ...args];
        execFile(process.execPath, command, { cwd, env: { ...process.env, ...env }, timeout: 5 * 60_000 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`${bin} ${args.join(' ')} in ${cwd} failed: ${error.message}\n${stdout}\n${stderr}`));
          else resolve(stdout);
        });
      }),
    load: (subpath) => import(join(dir, 'node_modules/gw-elements', exportedFile(dir, subpath))),
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function exportedFile(dir: string, subpath: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/gw-elements/package.json'), 'utf8')) as {
    exports: Record<string, { default: string }>;
  };
  return manifest.exports[subpath]!.default;
}

/**
 * A fresh project folder `name` in the area holding, verbatim, every block the
 * documents mark `<!-- file: name/… -->`, and `expected` are all there. `init`
 * makes its package.json as the user does (`npm init -y`), or writes the one given.
 */
export function createProject(area: Area, name: string, expected: string[], packageJson?: object): string {
  const dir = join(area.dir, name);
  mkdirSync(dir, { recursive: true });
  if (packageJson) writeFileSync(join(dir, 'package.json'), JSON.stringify(packageJson, null, 2));
  else sh('npm', ['init', '-y'], dir);
  const files = projectFiles(name);
  assert.deepEqual([...files.keys()].sort(), [...expected].sort(), `the documents' complete files for the ${name} project`);
  for (const [path, block] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), block.text);
  }
  return dir;
}

/** Writes the files a project needs beyond the documents' (what a scaffold or the user's own app gives). */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A tsconfig as `tsc --init` writes it (TypeScript 6), with the one change its comment asks of a Node project. */
export const TSC_INIT_NODE = {
  compilerOptions: {
    module: 'nodenext',
    target: 'esnext',
    types: ['node'],
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    strict: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noUncheckedSideEffectImports: true,
    moduleDetection: 'force',
    skipLibCheck: true,
    noEmit: true,
  },
};

/** A server started in `cwd` with tsx, as `npx tsx file` does, and the URL it prints ("open http://…"). */
export async function startServer(area: Area, cwd: string, file: string, env: NodeJS.ProcessEnv = {}) {
  const child: ChildProcess = spawn(process.execPath, [join(area.dir, 'node_modules/.bin/tsx'), file], {
    cwd,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stderr!.on('data', (chunk) => (printed += String(chunk)));
  let url: string | undefined;
  for await (const chunk of child.stdout!) {
    printed += String(chunk);
    url = /open (http:\/\/localhost:\d+)/.exec(printed)?.[1];
    if (url) break;
  }
  child.stdout!.resume();
  assert.ok(url, `${file} printed its URL; it printed:\n${printed}`);
  return {
    url,
    child,
    output: () => printed,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        await once(child, 'exit');
      }
    },
  };
}

/** Types a sandbox test card into the widget's form and presses its pay button. */
export async function payInWidget(page: Page, number = '4200000000000000'): Promise<void> {
  await page.waitForSelector('gw-checkout[state="ready"]');
  await page.fill('.wpwl-control-cardNumber', number);
  await page.fill('.wpwl-control-expiry', '12 / 34');
  await page.fill('.wpwl-control-cvv', '123');
  await page.fill('.wpwl-control-cardHolder', 'Jane Jones');
  await page.click('.wpwl-button-pay');
}
