/**
 * Loaded before every node:test file by scripts/test-run.mjs: a file whose
 * tests have all ended exits, whatever handle a test left open, but only
 * after a grace period in which the test runner has written every result.
 *
 * Node 20's `--test-force-exit` exits the moment the last test ends, before
 * the runner's reporter has passed on all results: a run of the contract
 * suite then reported 85 of its 96 tests, passing, with the others never
 * counted (and a failure among them never seen). A lingering file is named
 * on stderr with what held it open, so the leak can be found.
 */
import { after } from 'node:test';
import { setTimeout } from 'node:timers';

/** Long enough for the reporter to flush, short against the per-file time limit. */
const GRACE_MS = 10_000;

// Only in the process that runs a test file, never in the runner that spawns them.
if (process.env.NODE_TEST_CONTEXT) {
  after(() => {
    setTimeout(() => {
      process.stderr.write(
        `${process.argv[1]}: every test ended ${GRACE_MS / 1000} s ago, yet the file was still open ` +
          `(${process.getActiveResourcesInfo().join(', ')}): exiting\n`,
      );
      process.exit();
    }, GRACE_MS).unref();
  });
}
