/**
 * Components benchmark: (1) minified + gzipped size of each browser entry
 * (`gw-elements/checkout`, `gw-elements/3ds-handler`, both), without Lit and
 * with Lit; (2) the headline: time from NAVIGATION START to the widget being
 * ready, what a shopper waits for, on the element's page against a page with
 * the seed's two plain HTML lines loading the same widget, in the same run.
 * Builds what it needs itself (esbuild, with the build's template minifier),
 * drives the system Chromium through playwright-core.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { launchChromium } from '../scripts/chromium.mjs';
import { esbuildMinifyTemplates } from '../scripts/minify-templates.js';
import { startSandbox } from 'gw-elements/sandbox';

const KB = 1024;
const RATIO_TARGET = 1.05;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

/** Each browser entry and its targets (own code: Lit left to the page's bundle). */
const ENTRIES = [
  { name: 'gw-elements/checkout', file: 'src/checkout.ts', ownTarget: 3 * KB, withLitTarget: 9 * KB },
  { name: 'gw-elements/3ds-handler', file: 'src/3ds-handler.ts' },
  { name: 'gw-elements (both)', file: 'src/index.ts', ownTarget: 6 * KB },
] as const satisfies readonly { name: string; file: string; ownTarget?: number; withLitTarget?: number }[];

/** An entry bundled and minified as a page's build would; `lit` external or included. */
async function bundleEntry(file: string, withLit: boolean): Promise<string> {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    plugins: [esbuildMinifyTemplates()],
    external: withLit ? [] : ['lit', 'lit/*', 'lit-html', 'lit-html/*', 'lit-element', 'lit-element/*', '@lit/*', '@lit-labs/*'],
  });
  return result.outputFiles[0]!.text;
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;
const gzipped = (code: string) => gzipSync(code, { level: 9 }).length;
const verdict = (bytes: number, target: number | undefined) => (target === undefined ? '' : `target ≤ ${kb(target)}  ${bytes <= target ? 'ok' : 'OVER'}`);

/** Prints every entry's size; returns the checkout entry and both elements' entry with Lit (what the pages load), and whether a target was missed. */
async function measureSize(): Promise<{ withLit: { checkout: string; both: string }; failed: boolean }> {
  console.log('size of each browser entry, esbuild bundle + minify, gzip -9:');
  let failed = false;
  const bundles = { checkout: '', both: '' };
  for (const entry of ENTRIES) {
    const ours = await bundleEntry(entry.file, false);
    const withLit = await bundleEntry(entry.file, true);
    if (entry.file === 'src/checkout.ts') bundles.checkout = withLit;
    if (entry.file === 'src/index.ts') bundles.both = withLit;
    const own = gzipped(ours);
    const all = gzipped(withLit);
    const ownTarget = 'ownTarget' in entry ? entry.ownTarget : undefined;
    const withLitTarget = 'withLitTarget' in entry ? entry.withLitTarget : undefined;
    failed ||= (ownTarget !== undefined && own > ownTarget) || (withLitTarget !== undefined && all > withLitTarget);
    console.log(`  ${entry.name}`);
    console.log(`    own code (lit external) ${kb(own).padStart(9)}  (minified ${kb(ours.length)})  ${verdict(own, ownTarget)}`);
    console.log(`    with Lit                ${kb(all).padStart(9)}  (minified ${kb(withLit.length)})  ${verdict(all, withLitTarget)}`);
  }
  return { withLit: bundles, failed };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

type PageKind = 'plain' | 'element' | 'element-before';
const PAGES: readonly PageKind[] = ['plain', 'element', 'element-before'];

/**
 * The pages, each as its server would render it for a checkout it just created
 * (so both know the checkout id and integrity when the HTML is written):
 * - `plain`: the seed's two HTML lines (script + form);
 * - `element`: the README's page, `<gw-checkout>` in the HTML and the `gw-elements/checkout` module in `<head>`;
 * - `element-before`: this benchmark's page before the per-element entry points (a module script importing
 *   both elements creates the element), kept as the same-run reference for the change.
 * Each records `__ready` (ms since navigation start) when the widget reports ready.
 */
function pageFor(kind: PageKind, query: URLSearchParams, sandboxUrl: string, resultUrl: string): string {
  const checkoutId = query.get('checkoutId') ?? '';
  const integrity = query.get('integrity') ?? '';
  const widgetUrl = `${sandboxUrl}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(checkoutId)}`;
  if (kind === 'plain') {
    return `<!doctype html><html lang="en"><head><title>plain</title></head><body>
<script>window.wpwlOptions = { onReady() { window.__ready = performance.now(); } };</script>
<script src="${escapeHtml(widgetUrl)}" integrity="${escapeHtml(integrity)}" crossorigin="anonymous"></script>
<form action="${escapeHtml(resultUrl)}" class="paymentWidgets" data-brands="VISA MASTER"></form>
</body></html>`;
  }
  if (kind === 'element-before') {
    const settings = JSON.stringify({ checkoutId, integrity, baseUrl: sandboxUrl, shopperResultUrl: resultUrl }).replace(/</g, '\\u003c');
    return `<!doctype html><html lang="en"><head><title>element (before)</title></head><body>
<script type="module">
import '/gw-elements/index.js';
const element = document.createElement('gw-checkout');
Object.assign(element, ${settings});
element.addEventListener('gw-ready', () => { window.__ready = performance.now(); });
document.body.append(element);
</script>
</body></html>`;
  }
  return `<!doctype html><html lang="en"><head><title>element</title>
<script type="module" src="/gw-elements/checkout.js"></script>
</head><body>
<script>document.addEventListener('gw-ready', () => { window.__ready = performance.now(); });</script>
<gw-checkout checkout-id="${escapeHtml(checkoutId)}" integrity="${escapeHtml(integrity)}" base-url="${escapeHtml(sandboxUrl)}" shopper-result-url="${escapeHtml(resultUrl)}"></gw-checkout>
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

async function measureTimeToReady(bundles: { checkout: string; both: string }): Promise<boolean> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  let site: { server: Server; url: string } | undefined;
  const browser = await launchChromium();
  try {
    const resultPath = '/result';
    site = await serve((path, query) => {
      if (path === '/gw-elements/checkout.js') return { type: 'text/javascript', body: bundles.checkout };
      if (path === '/gw-elements/index.js') return { type: 'text/javascript', body: bundles.both };
      const kind = PAGES.find((page) => path === `/${page}.html`);
      if (kind) return { type: 'text/html', body: pageFor(kind, query, sandbox.url, `http://127.0.0.1${resultPath}`) };
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
    const ready = new Map<PageKind, number[]>(PAGES.map((kind) => [kind, []]));
    const requested = new Map<PageKind, number[]>(PAGES.map((kind) => [kind, []]));
    const once = async (kind: PageKind) => {
      await page.goto(`${site!.url}/${kind}.html?${await createCheckout()}`);
      await page.waitForFunction(() => (window as { __ready?: number }).__ready !== undefined, undefined, { timeout: 10_000 });
      // Both in ms since navigation start: widget-ready, and when the widget script was asked for.
      return page.evaluate(() => ({
        ready: (window as unknown as { __ready: number }).__ready,
        requested: performance.getEntriesByType('resource').find((entry) => entry.name.includes('/v1/paymentWidgets.js'))?.startTime ?? NaN,
      }));
    };
    // Warm every page once (HTTP cache, Chromium's code caches), then rotate the order so drift hits all alike.
    for (const kind of PAGES) await once(kind);
    for (let run = 0; run < RUNS; run++) {
      for (let index = 0; index < PAGES.length; index++) {
        const kind = PAGES[(run + index) % PAGES.length]!;
        const times = await once(kind);
        ready.get(kind)!.push(times.ready);
        requested.get(kind)!.push(times.requested);
      }
    }
    const plain = median(ready.get('plain')!);
    const ratio = median(ready.get('element')!) / plain;
    const ratioBefore = median(ready.get('element-before')!) / plain;
    const row = (label: string, kind: PageKind) =>
      `  ${label.padEnd(44)} ${median(ready.get(kind)!).toFixed(1).padStart(6)} ms   (widget script requested at ${median(requested.get(kind)!).toFixed(1)} ms)`;
    console.log(`\ntime to widget-ready from navigation start, local sandbox, median of ${RUNS} runs each (Chromium, rotating order):`);
    console.log(row("seed's two HTML lines", 'plain'));
    console.log(row('<gw-checkout> + gw-elements/checkout', 'element'));
    console.log(row('before: module creates it, both elements', 'element-before'));
    console.log(`  HEADLINE ratio (element page / seed's lines) ${ratio.toFixed(3)}  target ≤ ${RATIO_TARGET}  ${ratio <= RATIO_TARGET ? 'ok' : 'OVER'}`);
    console.log(`  the page before this change, same run        ${ratioBefore.toFixed(3)}`);
    return ratio > RATIO_TARGET;
  } finally {
    await browser.close();
    site?.server.close();
    await sandbox.close();
  }
}

const size = await measureSize();
const slow = await measureTimeToReady(size.withLit);
// Targets are reported, not enforced: a benchmark's numbers depend on the machine.
if (size.failed || slow) console.log('\nsome targets were missed (see above)');
