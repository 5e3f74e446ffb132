/**
 * Stands in for the sandbox's widget-script.ts in the service worker's bundle:
 * there is no file system to read the script from, so the worker hands over
 * the bytes it carries and their integrity (computed with Web Crypto) before
 * it creates the sandbox's state.
 */
import type { WidgetScript } from './engine.js';

let provided: WidgetScript | undefined;

export function provideWidgetScript(widget: WidgetScript): void {
  provided = widget;
}

export function loadWidgetScript(): WidgetScript {
  if (!provided) throw new Error('the widget script is provided before the sandbox state is created');
  return provided;
}
