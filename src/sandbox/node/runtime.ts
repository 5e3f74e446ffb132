/** The sandbox's runtime on Node: the real clock, node:crypto's randomness, the widget script bundled or read from dist/. */
import { randomBytes } from 'node:crypto';
import type { SandboxRuntime } from '../core/runtime.js';
import { loadWidgetScript } from './widget-bundle.js';

export const NODE_RUNTIME: SandboxRuntime = {
  now: () => Date.now(),
  randomBytes: (size) => randomBytes(size),
  widgetScript: loadWidgetScript,
};
