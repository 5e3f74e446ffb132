/**
 * The one place that says how this project starts the system Chromium: the
 * browser tests, the e2e and Storybook tests, the benchmarks and the screenshot
 * script all launch it with these flags (a closed network refuses Chromium's
 * background connections, so they are switched off).
 */
import { chromium } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** CHROME_PATH when set (scripts/ensure-chromium sets it for the tests), else Debian's chromium. */
export const chromiumPath = () => process.env.CHROME_PATH || '/usr/bin/chromium';

/** Headless system Chromium through playwright-core; nothing is downloaded. */
export function launchChromium() {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
}
