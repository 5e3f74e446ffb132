/**
 * For fast-check properties and models run in the browser stage: the waits they share, and a check that
 * fails with the counterexample and the invariant it broke (the test runner shows an error's message
 * only, not fast-check's report with its cause), with the console quiet while it runs.
 */
import fc from 'fast-check';

/** Resolves in the next task: after every microtask the last step queued. */
export const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `property` (seed and path in the report, to replay it). The elements say on the console what their
 * `gw-error` says; under a property that is expected, and it would bury the report.
 */
export async function assertInBrowser<Ts>(property: fc.IAsyncPropertyWithHooks<Ts>, parameters: fc.Parameters<Ts> = {}): Promise<void> {
  const { warn, error } = console;
  console.warn = console.error = () => {};
  try {
    const details = await fc.check(property, parameters);
    if (details.failed)
      throw new Error(
        `${fc.defaultReportMessage(details)}\n${details.errorInstance instanceof Error ? details.errorInstance.stack : String(details.errorInstance)}`,
      );
  } finally {
    Object.assign(console, { warn, error });
  }
}
