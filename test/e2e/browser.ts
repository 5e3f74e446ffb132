/**
 * Headless system Chromium through playwright-core (nothing downloaded), and a
 * page wrapper that records console errors and uncaught exceptions, so a test
 * can fail on any of them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';

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
