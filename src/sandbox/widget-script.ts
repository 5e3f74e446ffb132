/**
 * The payment widget script the sandbox serves, and its integrity value. The
 * bytes are read as they are (never transformed), so the `sha384-…` a checkout
 * answers always matches what `/v1/paymentWidgets.js` serves.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WidgetScript {
  readonly bytes: Buffer;
  /** `sha384-` + base64(sha384(bytes)), for the script element's integrity attribute. */
  readonly integrity: string;
}

/**
 * Where the script sits: next to the bundle in `dist/` (copied there by the
 * build), or under `widget/` beside this module when running from source.
 * (A `new URL('…', import.meta.url)` would be inlined by Vite, so the path is computed.)
 */
export function widgetScriptPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'payment-widgets.js'), join(here, 'widget', 'payment-widgets.js'), join(here, '..', 'payment-widgets.js')];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`payment widget script not found; looked in ${candidates.join(', ')}`);
  return found;
}

export function loadWidgetScript(path = widgetScriptPath()): WidgetScript {
  const bytes = readFileSync(path);
  return { bytes, integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}` };
}
