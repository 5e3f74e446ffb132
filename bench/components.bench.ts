/**
 * Components benchmark: (1) minified + gzipped size of the `gw-elements`
 * browser entry (both elements), without Lit and with Lit; (2) time from
 * connecting <gw-checkout> to `gw-ready` against a sandbox, compared in the
 * same run with the seed's two plain HTML lines (script + form) loading the
 * same widget. Builds what it needs itself (esbuild), drives the system
 * Chromium through playwright-core.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { launchChromium } from '../scripts/chromium.mjs';
import { startSandbox } from '../src/sandbox/index.js';

const SIZE_TARGET_OURS = 3 * 1024;
const SIZE_TARGET_WITH_LIT = 9 * 1024;
const RATIO_TARGET = 1.05;
const RUNS = Number(process.env.BENCH_RUNS ?? 25);

/** The browser entry bundled and minified as a page's build would; `lit` external or included. */
async function bundleEntry(withLit: boolean): Promise<string> {
  const result = await build({
    entryPoints: ['src/index.ts'],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    external: withLit ? [] : ['lit', 'lit/*', 'lit-html', 'lit-html/*', 'lit-element', 'lit-element/*', '@lit/*', '@lit-labs/*'],
  });
  return result.outputFiles[0]!.text;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const gzipped = (code: string) => gzipSync(code, { level: 9 }).length;

async function measureSize(): Promise<{ withLitCode: string; failed: boolean }> {
  const ours = await bundleEntry(false);
  const withLit = await bundleEntry(true);
  const oursGzip = gzipped(ours);
  const withLitGzip = gzipped(withLit);
  console.log('size of src/index.ts (both elements), esbuild bundle + minify, gzip -9:');
  console.log(`  ours (lit external)  ${kb(oursGzip).padStart(9)}  (minified ${kb(ours.length)})  target < ${kb(SIZE_TARGET_OURS)}  ${oursGzip < SIZE_TARGET_OURS ? 'ok' : 'OVER'}`);
  console.log(`  with Lit             ${kb(withLitGzip).padStart(9)}  (minified ${kb(withLit.length)})  target < ${kb(SIZE_TARGET_WITH_LIT)}  ${withLitGzip < SIZE_TARGET_WITH_LIT ? 'ok' : 'OVER'}`);
  return { withLitCode: withLit, failed: oursGzip >= SIZE_TARGET_OURS || withLitGzip >= SIZE_TARGET_WITH_LIT };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The two pages. Each records `__start` when the widget is asked for (the
 * element's connection / the parser reaching the script tag) and `__ready`
 * when it reports ready, both in ms since navigation start.
 */
function pageFor(kind: 'element' | 'plain', query: URLSearchParams, sandboxUrl: string, resultUrl: string): string {
  const checkoutId = query.get('checkoutId') ?? '';
  const integrity = query.get('integrity') ?? '';
  if (kind === 'plain') {
    const src = `${sandboxUrl}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(checkoutId)}`;
    return `<!doctype html><html lang="en"><head><title>plain</title></head><body>
<script>window.wpwlOptions = { onReady() { window.__ready = performance.now(); } }; window.__start = performance.now();</script>
<script src="${escapeHtml(src)}" integrity="${escapeHtml(integrity)}" crossorigin="anonymous"></script>
<form action="${escapeHtml(resultUrl)}" class="paymentWidgets" data-brands="VISA MASTER"></form>
</body></html>`;
  }
  const settings = JSON.stringify({ checkoutId, integrity, baseUrl: sandboxUrl, shopperResultUrl: resultUrl }).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><title>element</title></head><body>
<script type="module">
import '/gw-elements.js';
const element = document.createElement('gw-checkout');
Object.assign(element, ${settings});
element.addEventListener('gw-ready', () => { window.__ready = performance.now(); });
window.__start = performance.now();
document.body.append(element);
</script>
</body></html>`;
}

function serve(handler: (path: string, query: URLSearchParams) => { type: string; body: string } | undefined): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const answer = handler(url.pathname, url.searchParams);
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': answer.type, 'cache-control': 'max-age=3600' }).end(answer.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function measureTimeToReady(bundle: string): Promise<boolean> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  let site: { server: Server; url: string } | undefined;
  const browser = await launchChromium();
  try {
    const resultPath = '/result';
    site = await serve((path, query) => {
      if (path === '/gw-elements.js') return { type: 'text/javascript', body: bundle };
      if (path === '/element.html' || path === '/plain.html') {
        return { type: 'text/html', body: pageFor(path === '/element.html' ? 'element' : 'plain', query, sandbox.url, `http://127.0.0.1${resultPath}`) };
      }
      if (path === resultPath) return { type: 'text/html', body: '<!doctype html><title>result</title>' };
      return undefined;
    });
    const createCheckout = async () => {
      const response = await fetch(`${sandbox.url}/v1/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.tokens[0]}`, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: new URLSearchParams({ entityId: sandbox.entities[0]!, amount: '12.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }),
      });
      const body = (await response.json()) as { id: string; integrity: string };
      return new URLSearchParams({ checkoutId: body.id, integrity: body.integrity });
    };
    const page = await browser.newPage();
    const times = { element: [] as number[], plain: [] as number[], elementFromNavigation: [] as number[], plainFromNavigation: [] as number[], elementUntilRequest: [] as number[] };
    const once = async (kind: 'element' | 'plain') => {
      await page.goto(`${site!.url}/${kind}.html?${await createCheckout()}`);
      await page.waitForFunction(() => (window as { __ready?: number }).__ready !== undefined, undefined, { timeout: 10_000 });
      return page.evaluate(() => {
        const marks = window as unknown as { __start: number; __ready: number };
        const fetchStart = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/v1/paymentWidgets.js'))?.startTime ?? NaN;
        // The seed's static tag is fetched by the preload scanner before the parser reaches it: count from the earlier of the two.
        const start = Math.min(marks.__start, fetchStart);
        return { sinceStart: marks.__ready - start, sinceNavigation: marks.__ready, untilRequest: fetchStart - marks.__start };
      });
    };
    // Warm both paths once (HTTP cache, Chromium's code caches), then alternate so drift hits both alike.
    await once('element');
    await once('plain');
    for (let run = 0; run < RUNS; run++) {
      for (const kind of run % 2 ? (['plain', 'element'] as const) : (['element', 'plain'] as const)) {
        const { sinceStart, sinceNavigation, untilRequest } = await once(kind);
        if (kind === 'element') times.elementUntilRequest.push(untilRequest);
        times[kind].push(sinceStart);
        times[kind === 'element' ? 'elementFromNavigation' : 'plainFromNavigation'].push(sinceNavigation);
      }
    }
    const ratio = median(times.element) / median(times.plain);
    const ratioFromNavigation = median(times.elementFromNavigation) / median(times.plainFromNavigation);
    console.log(`\ntime to ready against a local sandbox, median of ${RUNS} runs each (Chromium, alternating):`);
    console.log(`  <gw-checkout> connection → gw-ready       ${median(times.element).toFixed(1).padStart(7)} ms`);
    console.log(`  seed's two HTML lines: request → onReady  ${median(times.plain).toFixed(1).padStart(7)} ms`);
    console.log(`  ratio ${ratio.toFixed(3)}  target ≤ ${RATIO_TARGET}  ${ratio <= RATIO_TARGET ? 'ok' : 'OVER'}`);
    console.log(`  the element's own share: connection → widget script requested ${median(times.elementUntilRequest).toFixed(1)} ms (the rest is the widget's work, the same on both pages)`);
    console.log(`  (from navigation start, including loading our bundle: ${median(times.elementFromNavigation).toFixed(1)} ms vs ${median(times.plainFromNavigation).toFixed(1)} ms, ratio ${ratioFromNavigation.toFixed(3)})`);
    return ratio > RATIO_TARGET;
  } finally {
    await browser.close();
    site?.server.close();
    await sandbox.close();
  }
}

const size = await measureSize();
const slow = await measureTimeToReady(size.withLitCode);
// Targets are reported, not enforced: a benchmark's numbers depend on the machine.
if (size.failed || slow) console.log('\nsome targets were missed (see above)');
