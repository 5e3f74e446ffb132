// Types of scripts/start.mjs for the TypeScript callers (the end-to-end test).
import type { Sandbox } from '../src/sandbox/index.js';

export interface RunningDemo {
  /** The one URL a person opens: the demo pages. */
  readonly url: string;
  /** The sandbox gateway (for tests: its clock and request log). */
  readonly sandbox: Sandbox;
  readonly sandboxUrl: string;
  readonly merchantUrl: string;
  close(): Promise<void>;
}

export function startDemo(options?: { port?: number; quiet?: boolean }): Promise<RunningDemo>;
