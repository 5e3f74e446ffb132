/**
 * The documents' complete files, as a user meets them: pasted verbatim into
 * fresh projects around the packed package (./projects.ts), type-checked by the
 * project's own checker, run, and paid through in headless Chromium.
 *   node        `npm init -y` (a commonjs package): the README's server.mts (a page rendered by renderCheckout)
 *   static      `npm init -y`: the components page's Express server and its page with no bundler
 *   vite-react  a Vite + React 19 app around the components page's <Pay> (tsc, vite build)
 *   vite-vue    a Vite + Vue 3 app around its Pay.vue (vue-tsc, vite build)
 *   three-d-secure  `npm init -y`: the recipes' server-to-server payment (Express) and its page, through a challenge
 *   browser-fragments  a Vite app with a page per fragment of the components page (./browser-fragments.ts)
 * The other fragments run in the node project (./fragment-runner.mts), given what they declare as the user's own.
 * What a project needs beyond the documents (index.html, main.tsx, tsconfig) is
 * written here as a scaffold would; the documents' files are never edited.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type * as ServerModule from 'gw-elements/server';
import type * as SandboxModule from 'gw-elements/sandbox';
import { launchChromium } from '../../scripts/chromium.mjs';
import { documentBlocks } from '../docs/blocks.js';
import { frameWith } from '../e2e/browser.js';
import { BROWSER_SCENARIOS } from './browser-fragments.js';
import { SIGNATURES } from './fragment-runner.mjs';
import { createArea, createProject, payInWidget, startServer, TSC_INIT_NODE, writeFiles, type Area } from './projects.js';

/** The documents whose fragments are browser code, run in the browser projects rather than by fragment-runner.mts. */
const BROWSER_DOCUMENTS = ['docs/components.md'];

let area: Area;
let browser: Browser;
let sandbox: SandboxModule.Sandbox;
let gateway: ServerModule.GatewayClient;
let server: typeof ServerModule;

before(async () => {
  area = createArea();
  server = await area.load<typeof ServerModule>('./server');
  const { startSandbox } = await area.load<typeof SandboxModule>('./sandbox');
  sandbox = await startSandbox({ port: 0, quiet: true });
  gateway = server.createGatewayClient({ baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  area?.close();
});

/** A page that fails the test on any uncaught error. */
async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** Where the documents' server examples live; `example:` blocks quote them. */
const EXAMPLES = 'docs/examples/server/';

test('every complete file in the documents belongs to a project this suite builds', () => {
  const projects = new Set(documentBlocks().flatMap((block) => (block.marker?.kind === 'file' ? [block.marker.value.split('/')[0]] : [])));
  assert.deepEqual([...projects].sort(), ['node', 'static', 'three-d-secure', 'vite-react', 'vite-vue']);
});

describe('node: the README in a project made with npm init -y', () => {
  let dir: string;
  before(() => {
    dir = createProject(area, 'node', ['server.mts']);
    writeFiles(dir, { 'tsconfig.json': JSON.stringify(TSC_INIT_NODE) });
  });

  test('npm init -y made a commonjs package, and server.mts type-checks in it', async () => {
    assert.equal((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type, 'commonjs');
    await area.tool('tsc', ['-p', '.'], dir);
  });

  test('every other TypeScript block of the documents type-checks against the packed package, as pasted', async () => {
    // The fragments (a handler, a call, a store): the sources check them too (test/docs); here the package a user installs does.
    const fragments = documentBlocks().filter((block) => block.lang === 'ts' && block.marker === undefined);
    assert.ok(fragments.length > 15, `${fragments.length} fragments`);
    const names = new Map<string, string>();
    const files: Record<string, string> = {
      // What a Vite app declares for import.meta.env, as the components page's fragments read it.
      'doc-blocks/env.d.ts': 'declare global { interface ImportMeta { readonly env: Record<string, string> } }\nexport {};\n',
      'tsconfig.blocks.json': JSON.stringify({
        compilerOptions: { ...TSC_INIT_NODE.compilerOptions, lib: ['esnext', 'dom', 'dom.iterable'], noUnusedLocals: false },
        include: ['doc-blocks/*.mts', 'doc-blocks/env.d.ts'],
      }),
    };
    for (const block of fragments) {
      const name = `${block.file.replace(/[/.]/g, '_')}_${block.line}.mts`;
      names.set(name, `${block.file}:${block.line}`);
      files[`doc-blocks/${name}`] = block.text;
    }
    writeFiles(dir, files);
    const output = await area.tool('tsc', ['-p', 'tsconfig.blocks.json', '--pretty', 'false'], dir).then(
      () => '',
      (error: unknown) => String((error as { stdout?: string }).stdout ?? error),
    );
    const located = output.replace(/doc-blocks\/([\w-]+\.mts)\((\d+),\d+\)/g, (whole, name: string, line: string) => {
      const at = names.get(name);
      return at ? `${at} + ${line}` : whole;
    });
    assert.equal(located.trim(), '', `blocks that do not compile against the packed package:\n${located}`);
  });

  test("the files the documents' example blocks quote type-check against the packed package, as they are", async () => {
    // The blocks are whole statements of these files (test/docs checks that, and runs the files against the sources);
    // here each file, with what it imports, compiles in an ES module folder of the user's project.
    const quoted = new Set(
      documentBlocks().flatMap((block) =>
        block.marker?.kind === 'example' && block.marker.value.startsWith(EXAMPLES) ? [block.marker.value.slice(EXAMPLES.length)] : [],
      ),
    );
    assert.ok(quoted.size >= 8, `${quoted.size} example files`);
    const files: Record<string, string> = {
      'examples/package.json': JSON.stringify({ type: 'module' }),
      'examples/tsconfig.json': JSON.stringify({ compilerOptions: TSC_INIT_NODE.compilerOptions, include: ['*.ts'] }),
    };
    const copy = (name: string) => {
      if (files[`examples/${name}`] !== undefined) return;
      const text = readFileSync(new URL(`../../${EXAMPLES}${name}`, import.meta.url), 'utf8');
      files[`examples/${name}`] = text;
      for (const [, imported] of text.matchAll(/from '\.\/([\w-]+)\.js'/g)) copy(`${imported}.ts`);
    };
    for (const name of quoted) copy(name);
    writeFiles(dir, files);
    await area.tool('tsc', ['-p', 'examples'], dir);
  });

  test('every server and sandbox fragment runs as pasted, given what it marks as yours, and does what it says', async () => {
    // The components page's fragments are browser code, run in a Vite app below; these run in Node (fragment-runner.mts).
    const fragments = documentBlocks().filter(
      (block) => block.lang === 'ts' && block.marker === undefined && !BROWSER_DOCUMENTS.includes(block.file),
    );
    assert.ok(fragments.length >= SIGNATURES.length, `${fragments.length} fragments`);
    const files: Record<string, string> = {
      'fragment-runner.mts': readFileSync(new URL('./fragment-runner.mts', import.meta.url), 'utf8'),
    };
    const names = new Map(fragments.map((block) => [`fragments/${block.file.replace(/[/.]/g, '_')}_${block.line}.mts`, block]));
    for (const [name, block] of names) files[name] = block.text;
    writeFiles(dir, files);
    const gatewayEnv = {
      GW_BASE_URL: sandbox.url,
      GW_TOKEN: sandbox.tokens[0]!,
      GW_ENTITY_ID: sandbox.entities[0]!,
      GW_MADA_ENTITY_ID: sandbox.entities[1]!,
    };
    const ran: string[] = [];
    for (const [name, block] of names) {
      const printed = await area.tool('tsx', ['fragment-runner.mts', '--run', name], dir, gatewayEnv).catch((error: unknown) => {
        throw new Error(`${block.file}:${block.line} did not run as pasted: ${String(error)}`);
      });
      ran.push(/^ran (.+)$/m.exec(printed)?.[1] ?? `${block.file}:${block.line} printed no scenario`);
    }
    // Every scenario ran its fragment once: a fragment removed from the documents leaves its scenario behind.
    assert.deepEqual([...ran].sort(), [...SIGNATURES].sort());
  });

  test("the sandbox page's curl walk-through runs as pasted and answers what its comments say", async () => {
    const [walk] = documentBlocks().filter((block) => block.lang === 'sh' && block.text.includes('kill $SANDBOX'));
    assert.ok(walk, 'the walk-through is in the documents');
    // Where the user's node_modules is (the area's: the projects share it).
    const printed = await new Promise<string>((resolve, reject) =>
      execFile('bash', ['-c', walk.text], { cwd: area.dir, timeout: 60_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${walk.file}:${walk.line} failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const answers = jsonValues(printed.slice(printed.indexOf('{'))) as { result: { code: string }; payments?: { paymentType: string }[] }[];
    const said = walk.text.split('\n').filter((line) => line.startsWith('# →'));
    assert.deepEqual(
      answers.map(({ result }) => result.code),
      said.map((line) => /\d{3}\.\d{3}\.\d{3}/.exec(line)?.[0]),
      `${walk.file}:${walk.line}: each answer's code, as its comment says`,
    );
    const listed = /"payments":\[([^\]]+)\]/
      .exec(said.at(-1)!)![1]!
      .split(', ')
      .map((entry) => entry.split(' ')[0]);
    assert.deepEqual(
      answers.at(-1)!.payments?.map(({ paymentType }) => paymentType),
      listed,
      'the report lists what its comment says',
    );
  });

  test("the sandbox's types stand on their own under TypeScript 6's default `types: []`", async () => {
    writeFiles(dir, {
      'sandbox-types.mts':
        "import { startSandbox } from 'gw-elements/sandbox';\n\nexport const sandbox = await startSandbox({ port: 0 });\nsandbox.url satisfies string;\n",
      'tsconfig.sandbox.json': JSON.stringify({
        compilerOptions: { ...TSC_INIT_NODE.compilerOptions, types: [], skipLibCheck: false },
        files: ['sandbox-types.mts'],
      }),
    });
    await area.tool('tsc', ['-p', 'tsconfig.sandbox.json'], dir);
  });

  test('npx tsx server.mts: the rendered page shows the card form, paying returns to /result with the verified outcome', async () => {
    const app = await startServer(area, dir, 'server.mts');
    const { page, errors } = await newPage();
    try {
      await page.goto(app.url);
      await Promise.all([page.waitForURL(/\/result\?/), payInWidget(page)]);
      assert.match((await page.textContent('body')) ?? '', /^approved: /);
      assert.deepEqual(errors, []);
      const unknown = await fetch(
        `${app.url}/result?id=0123456789ABCDEF0123456789ABCDEF.sbx01-vm-tx01&resourcePath=/v1/checkouts/x/payment`,
      );
      assert.equal(unknown.status, 404, 'a return for a checkout this server never created');
    } finally {
      await page.close();
      await app.stop();
    }
  });

  test('a gateway refusing the token: the shopper reads a message, the server keeps answering and logs no token', async () => {
    const token = 'wrong-token-canary-7f3a';
    const app = await startServer(area, dir, 'server.mts', {
      GW_BASE_URL: sandbox.url,
      GW_TOKEN: token,
      GW_ENTITY_ID: sandbox.entities[0]!,
    });
    const { page } = await newPage();
    try {
      const answer = await page.goto(app.url);
      assert.equal(answer?.status(), 502);
      await page.getByRole('alert').getByText('The payment page could not be prepared. Please try again in a moment.').waitFor();
      assert.equal((await fetch(app.url)).status, 502, 'still answering');
      assert.equal(app.child.exitCode, null);
      assert.match(app.output(), /GatewayAuthenticationError/);
      assert.doesNotMatch(app.output(), new RegExp(token));
    } finally {
      await page.close();
      await app.stop();
    }
  });
});

describe('static: the components page with no bundler, and its Express server', () => {
  let dir: string;
  before(() => {
    dir = createProject(area, 'static', ['public/index.html', 'server.mts']);
    writeFiles(dir, { 'tsconfig.json': JSON.stringify(TSC_INIT_NODE) });
  });

  test('server.mts type-checks', async () => void (await area.tool('tsc', ['-p', '.'], dir)));

  for (const refused of [false, true]) {
    test(
      refused ? 'a refused token: the page says so, the server lives on' : 'the page loads the pinned browser build and pays',
      async () => {
        const env = {
          GW_BASE_URL: sandbox.url,
          GW_TOKEN: refused ? 'wrong-token' : sandbox.tokens[0]!,
          GW_ENTITY_ID: sandbox.entities[0]!,
        };
        const app = await startServer(area, dir, 'server.mts', env);
        const { page, errors } = await newPage();
        const cdn = await answerCdn(page);
        try {
          await page.goto(`${app.url}/`);
          if (refused) {
            await page.locator('#problem').waitFor({ state: 'visible' });
            assert.equal((await fetch(`${app.url}/api/checkout`, { method: 'POST' })).status, 502);
          } else {
            await Promise.all([page.waitForURL(/\/shop\/result\?/), payInWidget(page)]);
            assert.match((await page.textContent('body')) ?? '', /^approved: /);
          }
          assert.equal(cdn.loaded(), 1, `the page loads ${cdn.url} (the version it pins is the package's)`);
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
          await app.stop();
        }
      },
    );
  }
});

describe("browser-fragments: the components page's fragments, each on a page of a Vite app", () => {
  let dir: string;
  before(() => {
    dir = createProject(area, 'browser-fragments', [], { name: 'browser-fragments', private: true, type: 'module' });
  });

  test('each runs as pasted and does what it says (browser-fragments.ts)', async () => {
    const pages = documentBlocks()
      .filter((block) => block.lang === 'ts' && block.marker === undefined && BROWSER_DOCUMENTS.includes(block.file))
      .map((block) => {
        const claimed = BROWSER_SCENARIOS.filter(({ signature }) => block.text.includes(signature));
        assert.equal(claimed.length, 1, `${block.file}:${block.line}: claimed by ${claimed.length} scenarios of browser-fragments.ts`);
        return { block, scenario: claimed[0]!, name: `${block.file.replace(/[/.]/g, '_')}_${block.line}` };
      });
    assert.deepEqual(pages.map(({ scenario }) => scenario.signature).sort(), BROWSER_SCENARIOS.map(({ signature }) => signature).sort());
    const files: Record<string, string> = {
      'vite.config.mjs': `export default { build: { rollupOptions: { input: ${JSON.stringify(pages.map(({ name }) => `${name}.html`))} } } };\n`,
    };
    for (const { block, scenario, name } of pages) {
      files[`src/${name}.ts`] = block.text;
      if (scenario.pageModule) files[`src/${name}.page.ts`] = scenario.pageModule;
      const scripts = [...(scenario.pageModule ? [`/src/${name}.page.ts`] : []), `/src/${name}.ts`];
      files[`${name}.html`] =
        `<!doctype html>\n<html ${scenario.html ?? 'lang="en"'}><meta charset="utf-8"><title>Pay</title>\n<body>${scenario.body}\n` +
        scripts.map((src) => `<script type="module" src="${src}"></script>\n`).join('') +
        '</body></html>\n';
    }
    writeFiles(dir, files);
    await area.tool('vite', ['build', '--logLevel', 'warn'], dir);
    const { CARDS } = await area.load<typeof SandboxModule>('./sandbox');
    const mada = server.createGatewayClient({ baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[1]! });
    let returns: URLSearchParams[] = [];
    let origin = '';
    // The shop: each page rendered with a new checkout, the API that pays server to server, and its return route.
    const shop = createServer(async (request, response) => {
      const url = new URL(request.url ?? '/', origin);
      const pageOf = pages.find(({ name }) => url.pathname === `/${name}.html`);
      if (pageOf) {
        const { checkout: kind } = pageOf.scenario;
        const order =
          kind === 'mada'
            ? { amount: '12.00', currency: 'SAR', paymentType: 'DB' as const }
            : { amount: '12.00', currency: 'EUR', paymentType: 'DB' as const };
        const checkout = kind ? await (kind === 'mada' ? mada : gateway).checkouts.create(order) : undefined;
        const html = readFileSync(join(dir, 'dist', url.pathname), 'utf8')
          .replaceAll('__CHECKOUT_ID__', checkout?.id ?? '')
          .replaceAll('__INTEGRITY__', checkout?.integrity ?? '')
          .replaceAll('__BASE_URL__', sandbox.url);
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(html);
      }
      if (url.pathname === '/api/card-payments' && request.method === 'POST') {
        const payment = await gateway.payments.create({
          paymentBrand: 'VISA',
          paymentType: 'DB',
          amount: '12.00',
          currency: 'EUR',
          card: { number: CARDS.frictionless, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: '123' },
          customer: { email: 'jane.jones@example.com', ip: '192.0.2.10' },
          billing: { street1: 'Hauptstraße 1', city: 'Wien', country: 'AT', postcode: '1010' },
          shopperResultUrl: `${origin}/3ds-return`,
        });
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payment));
      }
      if (url.pathname === '/api/card-payments/return') returns.push(url.searchParams);
      if (url.pathname === '/api/card-payments/return' || url.pathname === '/3ds-return' || url.pathname === '/shop/result')
        return void response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Back</title>');
      let asset: Buffer;
      try {
        asset = readFileSync(join(dir, 'dist', url.pathname));
      } catch {
        return void response.writeHead(404).end();
      }
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(asset);
    });
    shop.listen(0, '127.0.0.1');
    await once(shop, 'listening');
    origin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    try {
      for (const { block, scenario, name } of pages) {
        returns = [];
        const { page, errors } = await newPage();
        try {
          await page.goto(`${origin}/${name}.html`);
          await scenario.check(page, returns);
          assert.deepEqual(errors, [], `${block.file}:${block.line}: no error on its page`);
        } catch (error) {
          throw new Error(`${block.file}:${block.line} (${name}.html): ${String(error)}`, { cause: error });
        } finally {
          await page.close();
        }
      }
    } finally {
      shop.closeAllConnections();
      shop.close();
    }
  });
});

/** The JSON values printed one after another (curl -s prints answers without a line between them). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '\\') index++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === '{') {
      if (depth++ === 0) start = index;
    } else if (char === '}' && --depth === 0) values.push(JSON.parse(text.slice(start, index + 1)));
  }
  return values;
}

/** Serves a Vite build, with /shop/result standing for the shop's return route. */
async function serveBuild(dist: string): Promise<{ server: Server; url: string }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const web = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/shop/result') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('returned');
    try {
      const file = path === '/' ? 'index.html' : path.slice(1);
      const body = readFileSync(join(dist, file));
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  web.listen(0, '127.0.0.1');
  await new Promise((resolve) => web.once('listening', resolve));
  return { server: web, url: `http://127.0.0.1:${(web.address() as AddressInfo).port}` };
}

/** Builds a Vite app, opens it with a new checkout and pays; the payment is read back on the server side. */
async function payThroughBuild(dir: string, beforePaying?: (page: Page) => Promise<void>) {
  await area.tool('vite', ['build', '--logLevel', 'warn'], dir);
  const checkout = await gateway.checkouts.create({ amount: '12.00', currency: 'EUR', paymentType: 'DB' });
  const { server: web, url } = await serveBuild(join(dir, 'dist'));
  const { page, errors } = await newPage();
  try {
    await page.goto(`${url}/?${new URLSearchParams({ id: checkout.id, integrity: checkout.integrity! })}`);
    await page.waitForSelector('gw-checkout[state="ready"]');
    await beforePaying?.(page);
    await Promise.all([page.waitForURL(/\/shop\/result\?/), payInWidget(page)]);
    const payment = await gateway.handleShopperReturn(Object.fromEntries(new URL(page.url()).searchParams));
    assert.ok(server.isApproved(payment.result.code), payment.result.code);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    web.closeAllConnections();
    web.close();
  }
}

const VITE_INDEX =
  '<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Pay</title><div id="app"></div><script type="module" src="/src/main.ts"></script></html>\n';
/** What create-vite's TypeScript templates set, in short. */
const VITE_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'bundler',
    types: ['vite/client'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    verbatimModuleSyntax: true,
    jsx: 'react-jsx',
  },
  include: ['src'],
};

describe('vite-react: the components page <Pay> in a Vite + React 19 app', () => {
  let dir: string;
  before(() => {
    dir = createProject(area, 'vite-react', ['src/Pay.tsx'], { name: 'vite-react', private: true, type: 'module' });
    writeFiles(dir, {
      'index.html': VITE_INDEX.replace('/src/main.ts', '/src/main.tsx'),
      '.env': `VITE_GW_BASE_URL=${sandbox.url}\n`,
      'tsconfig.json': JSON.stringify(VITE_TSCONFIG),
      'src/main.tsx': [
        "import { StrictMode } from 'react';",
        "import { createRoot } from 'react-dom/client';",
        "import { Pay } from './Pay';",
        '',
        'const query = new URLSearchParams(location.search);',
        "const checkout = { id: query.get('id')!, integrity: query.get('integrity')! };",
        "createRoot(document.getElementById('app')!).render(<StrictMode><Pay checkout={checkout} onExpired={() => location.reload()} /></StrictMode>);",
        '',
      ].join('\n'),
    });
  });

  test('tsc type-checks it', async () => void (await area.tool('tsc', ['-p', '.'], dir)));

  test('vite builds it; the terms checkbox holds the payment back until ticked, then the shopper pays', () =>
    payThroughBuild(dir, async (page) => {
      assert.equal(await page.textContent('.wpwl-button-pay'), 'Pay 12.00 EUR');
      // Registered after React's listener, so it sees what that listener decided.
      await page.evaluate(() =>
        document
          .querySelector('gw-checkout')!
          .addEventListener('gw-before-submit', (event) => document.body.setAttribute('data-held', String(event.defaultPrevented))),
      );
      await payInWidget(page);
      await page.waitForSelector('body[data-held]');
      assert.equal(await page.getAttribute('body', 'data-held'), 'true', 'terms not accepted: the payment is held back');
      assert.equal(await page.getAttribute('gw-checkout', 'state'), 'ready');
      await page.check('input[type="checkbox"]');
    }));
});

describe('vite-vue: the components page Pay.vue in a Vite + Vue 3 app', () => {
  let dir: string;
  before(() => {
    dir = createProject(area, 'vite-vue', ['src/Pay.vue'], { name: 'vite-vue', private: true, type: 'module' });
    writeFiles(dir, {
      'index.html': VITE_INDEX,
      '.env': `VITE_GW_BASE_URL=${sandbox.url}\n`,
      'tsconfig.json': JSON.stringify({ ...VITE_TSCONFIG, include: ['src/**/*.ts', 'src/**/*.vue'] }),
      // As the components page says: the compiler is told the tag is a custom element, the typings are added once.
      'vite.config.ts': [
        "import vue from '@vitejs/plugin-vue';",
        "import { defineConfig } from 'vite';",
        '',
        "export default defineConfig({ plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('gw-') } } })] });",
        '',
      ].join('\n'),
      'src/env.d.ts': "import type {} from 'gw-elements/vue';\n",
      'src/main.ts': [
        "import { createApp } from 'vue';",
        "import Pay from './Pay.vue';",
        '',
        'const query = new URLSearchParams(location.search);',
        "const checkout = { id: query.get('id')!, integrity: query.get('integrity')! };",
        "createApp(Pay, { checkout, onExpired: () => location.reload() }).mount('#app');",
        '',
      ].join('\n'),
    });
  });

  test('vue-tsc type-checks it', async () => void (await area.tool('vue-tsc', ['-p', '.'], dir)));

  test('vite builds it and the shopper pays', () => payThroughBuild(dir));
});

/**
 * The CDN is outside this machine's reach: the pinned URL a page names (the package's own version) is
 * answered with the installed package's browser build; how often it was asked for is counted.
 */
async function answerCdn(page: Page) {
  const url = `https://cdn.jsdelivr.net/npm/gw-elements@${area.version}/dist/gw-elements.browser.js`;
  const build = readFileSync(join(area.dir, 'node_modules/gw-elements/dist/gw-elements.browser.js'));
  let loaded = 0;
  await page.route(url, (route) => {
    loaded++;
    return route.fulfill({ body: build, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' } });
  });
  return { url, loaded: () => loaded };
}

describe("three-d-secure: the recipes' server-to-server payment and its page", () => {
  let dir: string;
  before(() => {
    dir = createProject(area, 'three-d-secure', ['public/index.html', 'server.mts']);
    writeFiles(dir, { 'tsconfig.json': JSON.stringify(TSC_INIT_NODE) });
  });

  test('server.mts type-checks', async () => void (await area.tool('tsc', ['-p', '.'], dir)));

  for (const [outcome, button, shown] of [
    ['approved', 'complete', 'Paid. Thank you!'],
    ['failed', 'fail', 'The payment was declined.'],
  ] as const) {
    test(`a card with a 3-D Secure challenge, ${outcome} on the issuer's page: the page says "${shown}"`, async () => {
      const env = { GW_BASE_URL: sandbox.url, GW_TOKEN: sandbox.tokens[0]!, GW_ENTITY_ID: sandbox.entities[0]! };
      const app = await startServer(area, dir, 'server.mts', env);
      const { page, errors } = await newPage();
      const cdn = await answerCdn(page);
      try {
        await page.goto(`${app.url}/`);
        await payOnRecipePage(page, '4200000000000042');
        const acs = await frameWith(page, `button[value="${button}"]`);
        await acs.click(`button[value="${button}"]`);
        await page.locator('#outcome').getByText(shown).waitFor({ timeout: 20_000 });
        assert.equal(cdn.loaded(), 1);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
        await app.stop();
      }
    });
  }

  test('a debit the gateway answers pending, with no redirect: the page says it is being checked, never declined', async () => {
    // The sandbox has no card that stays pending at the gateway; this stand-in in front of it answers the debit as a
    // payment waiting for confirmation (800.400.500) does.
    const gateway = await pendingGateway(sandbox.url);
    const env = { GW_BASE_URL: gateway.url, GW_TOKEN: sandbox.tokens[0]!, GW_ENTITY_ID: sandbox.entities[0]! };
    const app = await startServer(area, dir, 'server.mts', env);
    const { page, errors } = await newPage();
    await answerCdn(page);
    try {
      await page.goto(`${app.url}/`);
      await payOnRecipePage(page, '4200000000000000');
      await page.locator('#outcome').getByText('The payment is being checked').waitFor({ timeout: 20_000 });
      assert.equal(gateway.rewritten(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      await app.stop();
      gateway.server.close();
    }
  });
});

/** The recipe's page: the shopper types the card `number` and presses pay. */
async function payOnRecipePage(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Name on the card').fill('Jane Jones');
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill('2034');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
}

/** A gateway in front of `target` that answers every payment POST as pending at the gateway, without a redirect. */
async function pendingGateway(target: string) {
  let rewritten = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const post = request.method === 'POST';
      const headers = { authorization: request.headers.authorization ?? '', 'content-type': request.headers['content-type'] ?? '' };
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers,
        body: post ? Buffer.concat(chunks) : undefined,
      });
      let text = await answer.text();
      if (post && request.url === '/v1/payments') {
        rewritten++;
        text = JSON.stringify({
          ...(JSON.parse(text) as object),
          result: { code: '800.400.500', description: 'Waiting for confirmation of non-instant payment. Denied for now.' },
        });
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, rewritten: () => rewritten };
}
