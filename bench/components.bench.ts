/**
 * Components benchmark: (1) minified + gzipped size of each browser entry
 * (`gw-elements/checkout`, `gw-elements/3ds-handler`, both), without Lit and
 * with Lit; (2) the headline: time from NAVIGATION START to the widget being
 * ready, what a shopper waits for, on the recommended page (the server's
 * `renderCheckout` HTML, whose inline script loads the element's module once
 * the widget is ready) against a page with the platform's two plain HTML lines
 * loading the same widget, in the same run; beside it the element without a
 * hint, with `widgetPreload`'s tag and with its `Link` header. Cold (a fresh
 * browser context: no cache, no open connection) and warm, on loopback, on
 * Chromium's emulated Fast 4G and Slow 4G (DevTools' presets) and on the same
 * two profiles without DevTools' latency multipliers.
 * Builds what it needs itself (esbuild, with the build's template minifier),
 * drives the system Chromium through playwright-core.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../scripts/chromium.mjs';
import { ENTRIES, bundleEntry, gzippedSize } from '../scripts/entry-size.js';
import { startSandbox } from 'gw-elements/sandbox';
import { renderCheckout, widgetPreload } from 'gw-elements/server';
import { median, ratioInterval } from './statistics.js';

const KB = 1024;
/** The headline: the server-rendered page within the harness's run-to-run noise of the platform's two lines, cold. */
const RATIO_TARGET = 1.02;
/** Loads per page and condition: loopback is quick and noisy, the emulated networks slow and steady. */
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const THROTTLED_RUNS = Number(process.env.BENCH_THROTTLED_RUNS ?? 15);
/** Only the networks whose name holds one of these (comma-separated), e.g. `BENCH_NETWORKS='60 ms'` to look closer at one profile. */
const ONLY_NETWORKS = process.env.BENCH_NETWORKS?.split(',').filter(Boolean);

const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;
const verdict = (bytes: number, limit: { budget: number; ceiling?: number } | undefined) =>
  limit === undefined
    ? ''
    : `budget ≤ ${kb(limit.budget)}  ${bytes <= limit.budget ? 'ok' : `OVER by ${bytes - limit.budget} B`}` +
      (limit.ceiling === undefined ? '' : `  (ceiling ${kb(limit.ceiling)}: ${bytes <= limit.ceiling ? 'ok' : 'OVER'})`);

/** Prints every entry's size in bytes; returns the checkout entry with Lit (what the pages load), and whether a budget was missed. */
async function measureSize(): Promise<{ withLit: { checkout: string }; failed: boolean }> {
  console.log('size of each browser entry, esbuild bundle + minify, gzip -9:');
  let failed = false;
  const bundles = { checkout: '' };
  for (const entry of ENTRIES) {
    const ours = await bundleEntry(entry.file, false);
    const withLit = await bundleEntry(entry.file, true);
    if (entry.file === 'src/checkout.ts') bundles.checkout = withLit;
    const own = gzippedSize(ours);
    const all = gzippedSize(withLit);
    const ownLimit = 'own' in entry ? entry.own : undefined;
    const withLitLimit = 'withLit' in entry ? entry.withLit : undefined;
    failed ||= (ownLimit !== undefined && own > ownLimit.budget) || (withLitLimit !== undefined && all > withLitLimit.budget);
    console.log(`  ${entry.name}`);
    console.log(`    own code (lit external) ${String(own).padStart(6)} B  (minified ${ours.length} B)  ${verdict(own, ownLimit)}`);
    console.log(`    with Lit                ${String(all).padStart(6)} B  (minified ${withLit.length} B)  ${verdict(all, withLitLimit)}`);
  }
  return { withLit: bundles, failed };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

type PageKind = 'plain' | 'rendered' | 'element' | 'preload' | 'early-hint';
const PAGES: readonly PageKind[] = ['plain', 'rendered', 'element', 'preload', 'early-hint'];

/**
 * DevTools' throttling presets (devtools-frontend NetworkManager: Fast 4G and Slow 4G, whose latency
 * is the profile's times 2.75 and 3.75), and the same two profiles bare, in CDP's units (bytes/s, ms).
 */
const NETWORKS = [
  { name: 'loopback', conditions: undefined, runs: RUNS },
  {
    name: 'Fast 4G',
    conditions: { latency: 60 * 2.75, downloadThroughput: ((9 * 1e6) / 8) * 0.9, uploadThroughput: ((1.5 * 1e6) / 8) * 0.9 },
    runs: THROTTLED_RUNS,
  },
  {
    name: 'Slow 4G',
    conditions: { latency: 150 * 3.75, downloadThroughput: ((1.6 * 1e6) / 8) * 0.9, uploadThroughput: ((750 * 1e3) / 8) * 0.9 },
    runs: THROTTLED_RUNS,
  },
  {
    name: '4G (60 ms, 9 Mbps)',
    conditions: { latency: 60, downloadThroughput: (9 * 1e6) / 8, uploadThroughput: (1.5 * 1e6) / 8 },
    runs: THROTTLED_RUNS,
  },
  {
    name: 'slow 4G (150 ms, 1.6 Mbps)',
    conditions: { latency: 150, downloadThroughput: (1.6 * 1e6) / 8, uploadThroughput: (750 * 1e3) / 8 },
    runs: THROTTLED_RUNS,
  },
] as const;

/**
 * The pages, each as its server would render it for a checkout it just created
 * (so each knows the checkout id and integrity when the HTML is written):
 * - `plain`: the platform's two HTML lines (script + form);
 * - `rendered`: the recommended page as the README writes it, `renderCheckout(checkout).html` in the body
 *   (its inline script loads `gw-elements/checkout` once the widget is ready), `.head` first in `<head>` and
 *   `.link` as a header;
 * - `element`: `<gw-checkout>` in the HTML and the `gw-elements/checkout` module in `<head>`, no hint;
 * - `preload`: the element's page with `widgetPreload(checkout).html` first in `<head>`;
 * - `early-hint`: the same with `widgetPreload(checkout).link` as a `Link` header instead of the tag.
 * Each records `__ready` (ms since navigation start) when the widget's pay button is in the page: the
 * same moment on every page (the widget adds it in the task that calls `onReady`, and the element fires
 * `gw-ready` from that call), whoever runs the widget. `__adopted` is when `<gw-checkout>` fired `gw-ready`.
 */
const READY_PROBE = `<script>new MutationObserver((_, observer) => {
  if (!document.querySelector('.wpwl-button-pay')) return;
  window.__ready = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
document.addEventListener('gw-ready', () => { window.__adopted = performance.now(); });</script>`;

function pageFor(kind: PageKind, query: URLSearchParams, sandboxUrl: string, resultUrl: string): string {
  const checkoutId = query.get('checkoutId') ?? '';
  const integrity = query.get('integrity') ?? '';
  if (kind === 'plain') {
    const widgetUrl = `${sandboxUrl}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(checkoutId)}`;
    return `<!doctype html><html lang="en"><head><title>plain</title>${READY_PROBE}</head><body>
<script src="${escapeHtml(widgetUrl)}" integrity="${escapeHtml(integrity)}" crossorigin="anonymous"></script>
<form action="${escapeHtml(resultUrl)}" class="paymentWidgets" data-brands="VISA MASTER"></form>
</body></html>`;
  }
  if (kind === 'rendered') {
    // As the README's recommended page has it: `head` first in <head> (and `link` as a header, added where the page is served).
    const { html, head } = renderCheckout(
      { id: checkoutId, integrity },
      { baseUrl: sandboxUrl, shopperResultUrl: resultUrl, elementScript: '/gw-elements/checkout.js' },
    );
    return `<!doctype html><html lang="en"><head>${head}<title>rendered</title>${READY_PROBE}</head><body>
${html}
</body></html>`;
  }
  const hint = kind === 'preload' ? widgetPreload({ id: checkoutId, integrity }, { baseUrl: sandboxUrl }).html : '';
  return `<!doctype html><html lang="en"><head><title>${kind}</title>
${hint}<script type="module" src="/gw-elements/checkout.js"></script>${READY_PROBE}
</head><body>
<gw-checkout checkout-id="${escapeHtml(checkoutId)}" integrity="${escapeHtml(integrity)}" base-url="${escapeHtml(sandboxUrl)}" shopper-result-url="${escapeHtml(resultUrl)}"></gw-checkout>
</body></html>`;
}

interface Answer {
  type: string;
  body: string;
  headers?: Record<string, string>;
}

function serve(handler: (path: string, query: URLSearchParams) => Answer | undefined): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const answer = handler(url.pathname, url.searchParams);
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    // Compressed, as any production server sends scripts and pages: the byte budgets are gzip sizes.
    const body = gzipSync(answer.body, { level: 9 });
    response
      .writeHead(200, { 'content-type': answer.type, 'content-encoding': 'gzip', 'cache-control': 'max-age=3600', ...answer.headers })
      .end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

interface Load {
  ready: number;
  /** When `<gw-checkout>` fired `gw-ready` (NaN on the plain page): on the rendered page, after its code arrived and adopted the widget. */
  adopted: number;
  /** When the page asked for the element's module (NaN on the plain page). */
  moduleRequested: number;
  requested: number;
  /** Requests for the widget script the page made: 1 when the element reused the preload. */
  fetches: number;
}

async function measureTimeToReady(bundles: { checkout: string }): Promise<boolean> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  let site: { server: Server; url: string } | undefined;
  const browser = await launchChromium();
  try {
    const resultPath = '/result';
    site = await serve((path, query) => {
      if (path === '/gw-elements/checkout.js') return { type: 'text/javascript', body: bundles.checkout };
      const kind = PAGES.find((page) => path === `/${page}.html`);
      if (kind) {
        const body = pageFor(kind, query, sandbox.url, `http://127.0.0.1${resultPath}`);
        if (kind !== 'early-hint' && kind !== 'rendered') return { type: 'text/html', body };
        const checkout = { id: query.get('checkoutId') ?? '', integrity: query.get('integrity') ?? '' };
        return { type: 'text/html', body, headers: { link: widgetPreload(checkout, { baseUrl: sandbox.url }).link } };
      }
      if (path === resultPath) return { type: 'text/html', body: '<!doctype html><title>result</title>' };
      return undefined;
    });
    const createCheckout = async () => {
      const response = await fetch(`${sandbox.url}/v1/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.tokens[0]}`, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: new URLSearchParams({
          entityId: sandbox.entities[0]!,
          amount: '12.00',
          currency: 'EUR',
          paymentType: 'DB',
          integrity: 'true',
        }),
      });
      const body = (await response.json()) as { id: string; integrity: string };
      return new URLSearchParams({ checkoutId: body.id, integrity: body.integrity });
    };
    /** A tab in its own browser context (own cache and connections), throttled as `network` says. */
    const openTab = async (network: (typeof NETWORKS)[number]) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (network.conditions) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network.conditions });
      }
      return { page, close: () => context.close() };
    };
    const load = async (page: Awaited<ReturnType<typeof openTab>>['page'], kind: PageKind): Promise<Load> => {
      await page.goto(`${site!.url}/${kind}.html?${await createCheckout()}`);
      await page.waitForFunction(() => (window as { __ready?: number }).__ready !== undefined, undefined, { timeout: 60_000 });
      if (kind !== 'plain')
        await page.waitForFunction(() => (window as { __adopted?: number }).__adopted !== undefined, undefined, { timeout: 60_000 });
      // In ms since navigation start: widget-ready, and when the widget script was first asked for.
      return page.evaluate(() => {
        const widget = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/v1/paymentWidgets.js'));
        const module = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/gw-elements/checkout.js'));
        return {
          ready: (window as unknown as { __ready: number }).__ready,
          adopted: (window as unknown as { __adopted?: number }).__adopted ?? NaN,
          moduleRequested: module?.startTime ?? NaN,
          requested: widget[0]?.startTime ?? NaN,
          fetches: widget.length,
        };
      });
    };

    let missed = false;
    console.log(
      `\ntime to widget-ready from navigation start, local sandbox (Chromium, pages in rotating order); median, ratio to the platform's two lines, widget script fetches:`,
    );
    for (const network of NETWORKS.filter(({ name }) => !ONLY_NETWORKS || ONLY_NETWORKS.some((part) => name.includes(part)))) {
      for (const cache of ['cold', 'warm'] as const) {
        const loads = new Map<PageKind, Load[]>(PAGES.map((kind) => [kind, []]));
        // Warm: one tab per page kept across runs (its module cached, its connections open), each page loaded once first.
        const warmTabs =
          cache === 'warm' ? new Map(await Promise.all(PAGES.map(async (kind) => [kind, await openTab(network)] as const))) : undefined;
        if (warmTabs) for (const [kind, tab] of warmTabs) await load(tab.page, kind);
        for (let run = 0; run < network.runs; run++) {
          for (let index = 0; index < PAGES.length; index++) {
            const kind = PAGES[(run + index) % PAGES.length]!;
            const tab = warmTabs?.get(kind) ?? (await openTab(network));
            loads.get(kind)!.push(await load(tab.page, kind));
            if (!warmTabs) await tab.close();
          }
        }
        if (warmTabs) for (const tab of warmTabs.values()) await tab.close();
        const plainLoads = loads.get('plain')!.map((one) => one.ready);
        const plain = median(plainLoads);
        console.log(`  ${network.name}, ${cache} (${network.runs} loads each):`);
        for (const kind of PAGES) {
          const runs = loads.get(kind)!;
          const ready = median(runs.map((one) => one.ready));
          const ratio = ready / plain;
          const { low, high } = ratioInterval(
            runs.map((one) => one.ready),
            plainLoads,
          );
          const interval = kind === 'plain' ? '             ' : ` [${low.toFixed(2)}–${high.toFixed(2)}]`;
          const headline = kind === 'rendered' && network.conditions !== undefined;
          if (headline && ratio > RATIO_TARGET) missed = true;
          // Whether these loads resolve the target: the 95% interval on one side of it, or across it.
          const resolved = high <= RATIO_TARGET ? 'within it' : low > RATIO_TARGET ? 'over it' : 'not resolved by these loads';
          const verdictText = headline
            ? `  HEADLINE target ≤ ${RATIO_TARGET} ${ratio <= RATIO_TARGET ? 'ok' : 'OVER'} (95% interval: ${resolved})`
            : '';
          const element =
            kind === 'plain'
              ? ''
              : `, element's module asked for at ${median(runs.map((one) => one.moduleRequested)).toFixed(0)} ms, gw-ready at ${median(runs.map((one) => one.adopted)).toFixed(0)} ms`;
          console.log(
            `    ${kind.padEnd(11)} ${ready.toFixed(0).padStart(6)} ms  ${ratio.toFixed(3)}${interval}  (widget script asked for at ${median(runs.map((one) => one.requested)).toFixed(0)} ms, fetched ${Math.max(...runs.map((one) => one.fetches))}×${element})${verdictText}`,
          );
        }
      }
    }
    return missed;
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
