/**
 * Headless system Chromium through playwright-core (nothing downloaded), a
 * page wrapper that records console errors and uncaught exceptions, so a test
 * can fail on any of them, and the search for a frame showing something.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Frame, Page } from 'playwright-core';

export { launchChromium } from '../../scripts/chromium.mjs';

/** A new page whose console errors and page errors are collected in `problems`. */
export async function watchedPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return { page, problems };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * WCAG 2 A and AA violations axe-core finds on the page, as "rule: selector"
 * lines. Evaluated through the DevTools protocol, so the page's
 * Content-Security-Policy (which rightly refuses injected scripts) stays on.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(`${AXE_SOURCE};undefined`);
  return page.evaluate(async () => {
    const { violations } = await (
      globalThis as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
  });
}

/**
 * The first frame of the page that shows `selector` (the sandbox's challenge page, in a frame or as the page itself
 * after a full-page redirect), waited for up to 20 s. A frame removed or navigating while it is searched (a 3-D Secure
 * method frame ending) is passed over: its search throws, and a loaded machine makes that likely.
 */
export async function frameWith(page: Page, selector: string): Promise<Frame> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    for (const frame of page.frames()) {
      if (await frame.$(selector).catch(() => null)) return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no frame with ${selector}`);
}
