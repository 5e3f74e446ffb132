/** Types of scripts/test-run.mjs, for the test of the watchdog. */
export interface RunResult {
  readonly code: number;
  readonly output: string;
  /** Why the command was killed for silence; empty when it was not. */
  readonly stalled: string;
}
export interface RunOptions {
  env?: Record<string, string | undefined>;
  progressLog?: string;
  idleMs: number;
  echo?: boolean;
}
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult>;
export function nodeTest(
  files: readonly string[],
  options: { concurrency: number; fileTimeoutMs: number; idleMs: number; env?: Record<string, string | undefined>; echo?: boolean },
): Promise<RunResult>;
export function stalledIn(progressLog: string): string[];
export function failuresIn(output: string, maxLines?: number): string[];
export function lastNumber(output: string, pattern: RegExp): number;
export function nodeTestTotals(output: string): { passed: number; failed: number };
