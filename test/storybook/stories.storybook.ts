/**
 * Builds Storybook (offline, telemetry off) and opens every story and docs
 * page of the build in headless Chromium, served as a static host would serve
 * it (files only, under a sub-path): the sandbox the stories talk to is the
 * build's own service worker. A story fails when its render or play function
 * fails (each play waits for the state the story shows) or when anything logs
 * a console error. Each story and docs page is photographed at 1024 and 390
 * px wide into reports/screenshots/storybook/ (the test run's artefacts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { frameWith, launchChromium, watchedPage } from '../e2e/browser.js';
import { serveStorybook, type ServedStorybook } from './serve-storybook.js';

const OUTPUT = join('.cache', 'storybook-test');
const SCREENSHOTS = join('reports', 'screenshots', 'storybook');

/** The preview's global: the current render and its phase (`finished` once the play function is done). */
type PreviewWindow = { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } };

interface IndexEntry {
  readonly id: string;
  readonly title: string;
  readonly name: string;
  readonly type: 'story' | 'docs';
  /** The file the entry comes from: a `.stories.ts` file for an element's docs page, an `.mdx` file for a written one. */
  readonly importPath: string;
}

rmSync(OUTPUT, { recursive: true, force: true });
execFileSync(
  process.execPath,
  ['node_modules/storybook/dist/bin/dispatcher.js', 'build', '--disable-telemetry', '--quiet', '--output-dir', OUTPUT],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1' },
  },
);
const entries = Object.values(
  (JSON.parse(readFileSync(join(OUTPUT, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> }).entries,
);

let served: ServedStorybook;
let browser: Browser;
let page: Page;
let problems: string[];

before(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  served = await serveStorybook(OUTPUT, '/designs/storybook/');
  browser = await launchChromium();
  ({ page, problems } = await watchedPage(browser, { width: 1024, height: 768 }));
});

after(async () => {
  await browser?.close();
  await served?.close();
});

/** Where Storybook's preview is with the current story: `finished`, or how it failed. */
async function settledPhase(): Promise<string> {
  const handle = await page.waitForFunction(
    () => {
      const phase = (globalThis as PreviewWindow).__STORYBOOK_PREVIEW__?.currentRender?.phase;
      return phase && ['finished', 'completed', 'errored', 'aborted'].includes(phase) ? phase : undefined;
    },
    undefined,
    { timeout: 20_000, polling: 100 },
  );
  return (await handle.jsonValue()) as string;
}

describe('Storybook', () => {
  test('the build has stories for every state of both elements', () => {
    const names = (title: string) => entries.filter((entry) => entry.type === 'story' && entry.title === title).map((entry) => entry.name);
    assert.deepEqual(
      names('Elements/gw-checkout').sort(),
      [
        'Error',
        'Expired',
        'Expired (ar, right to left)',
        'Idle',
        'Loading',
        'Ready',
        'Ready (ar, right to left)',
        'Ready (de, plain)',
        'Saved cards (one-click)',
        'Submitting',
        'Wallets and MADA',
        'Google Pay and cards (MADA steered off)',
      ].sort(),
    );
    assert.deepEqual(
      names('Elements/gw-3ds-handler').sort(),
      [
        '3DS method',
        'Challenge 01 (250 × 400)',
        'Challenge 02 (390 × 400)',
        'Challenge 03 (500 × 600)',
        'Challenge 04 (600 × 400)',
        'Challenge 05 (full screen)',
        '3DS method (ar, right to left)',
        'Complete',
        'Timeout',
        'Timeout (ar, right to left)',
        'Unsafe URL',
      ].sort(),
    );
  });

  test("the build's service worker serves the widget script whose sha384 is the integrity a checkout answers, and keeps the token", async () => {
    await page.goto(
      `${served.url}iframe.html?${new URLSearchParams({ id: entries.find((entry) => entry.type === 'story')!.id, viewMode: 'story' })}`,
    );
    await settledPhase();
    const seen = await page.evaluate(async () => {
      const configText = await (await fetch('__gw/config.json')).text();
      const { sandboxUrl, entityId } = JSON.parse(configText) as { sandboxUrl: string; entityId: string };
      const created = await fetch('__gw/api/v1/checkouts', {
        method: 'POST',
        body: new URLSearchParams({ entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }),
      });
      const { id, integrity } = (await created.json()) as { id: string; integrity: string };
      const script = await fetch(`${sandboxUrl}/v1/paymentWidgets.js?checkoutId=${id}`);
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', await script.arrayBuffer()));
      const unauthorised = await fetch(`${sandboxUrl}/v1/checkouts`, {
        method: 'POST',
        body: new URLSearchParams({ entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB' }),
      });
      return {
        configText,
        sandboxUrl,
        integrity,
        hashed: `sha384-${btoa(String.fromCharCode(...digest))}`,
        scriptType: script.headers.get('content-type'),
        unauthorisedStatus: unauthorised.status,
      };
    });
    assert.ok(seen.sandboxUrl.startsWith(served.url), `the gateway lives under the build's own path: ${seen.sandboxUrl}`);
    assert.match(seen.integrity, /^sha384-[A-Za-z0-9+/]{64}$/);
    assert.equal(seen.integrity, seen.hashed);
    assert.match(seen.scriptType ?? '', /^application\/javascript/);
    // The page reaches the gateway's merchant endpoints only through the proxy routes: the token never reaches it.
    assert.equal(seen.unauthorisedStatus, 401);
    assert.doesNotMatch(seen.configText, /token|Bearer/i);
  });

  for (const entry of entries) {
    test(`${entry.title} › ${entry.name} (${entry.type}) renders without a console error`, async () => {
      problems.length = 0;
      await page.goto(`${served.url}iframe.html?${new URLSearchParams({ id: entry.id, viewMode: entry.type })}`);
      if (entry.type === 'story') {
        assert.equal(await settledPhase(), 'finished', 'the story or its play function failed');
      } else {
        await page.locator('#storybook-docs .sbdocs-content').waitFor({ timeout: 20_000 });
      }
      if (entry.type === 'docs' && entry.importPath.endsWith('.stories.ts')) {
        // An element's docs page: the API table from custom-elements.json and the primary story in its frame
        // (the other frames load lazily; each story is opened on its own above).
        await page.locator('#storybook-docs .sbdocs-content table').first().waitFor({ timeout: 20_000 });
        await page.waitForFunction(
          () => {
            const frame = document.querySelector<HTMLIFrameElement>('#storybook-docs iframe');
            return (frame?.contentWindow as PreviewWindow | null)?.__STORYBOOK_PREVIEW__?.currentRender?.phase === 'finished';
          },
          undefined,
          { timeout: 20_000, polling: 100 },
        );
      }
      // A story of an element's error state shows what a developer then reads on the console (the element repeats its gw-error there).
      const expected =
        entry.type === 'story' && /^(Error|Timeout|Unsafe URL)$/.test(entry.name)
          ? /^console error: <gw-(checkout|3ds-handler)>: /
          : undefined;
      assert.deepEqual(expected ? problems.filter((problem) => !expected.test(problem)) : problems, []);
      const window = /^Challenge 0([12]) /.exec(entry.name);
      if (window) {
        // The issuer's page fits the smallest challenge windows whole: no scrolling to reach its buttons.
        const frame = await frameWith(page, 'button[value="complete"]');
        const fits = await frame.evaluate(() => ({
          overflowY: document.documentElement.scrollHeight - innerHeight,
          overflowX: document.documentElement.scrollWidth - innerWidth,
          size: `${innerWidth} × ${innerHeight}`,
        }));
        assert.ok(
          fits.overflowY <= 0 && fits.overflowX <= 0,
          `the challenge page overflows its ${fits.size} window: ${JSON.stringify(fits)}`,
        );
      }
      for (const [size, width] of [
        ['desktop', 1024],
        ['phone', 390],
      ] as const) {
        await page.setViewportSize({ width, height: 768 });
        await page.waitForTimeout(200); // a layout pass after the resize
        await page.screenshot({ path: join(SCREENSHOTS, `${entry.id}-${size}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1024, height: 768 });
    });
  }
});
