/**
 * `npm start`: the whole demo behind one printed URL (demo/main.ts assembles
 * it: sandbox, merchant back end, pages). Ctrl-C stops all three, and so does
 * the end of the npm process that started it, however it ended.
 */
import { readFileSync } from 'node:fs';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

// The demo is TypeScript, run as it is (no build needed); its imports of gw-elements/* resolve to the sources.
const { startDemo } = await tsImport('../demo/main.ts', import.meta.url);
export { startDemo };

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Who launched this process, read before the URL is printed: from then on the launcher may be stopped at any
  // moment, and a process that reads its parent after that finds the one it was handed to and waits for it forever.
  const launchers = launchersOfThisProcess();
  const requested = Number(process.env.PORT ?? 5173);
  const demo = await startDemo({ port: Number.isInteger(requested) ? requested : 5173 });
  console.log(`\n  gw-elements demo: ${demo.url}\n\n  (sandbox gateway, demo merchant and pages; Ctrl-C stops all)\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(130);
    stopping = true;
    // Open connections (a browser tab's keep-alive, Vite's HMR socket) get a few seconds, not forever.
    setTimeout(() => process.exit(0), 5000).unref();
    await demo.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  watchLaunchers(launchers, stop);
}

/**
 * `npm start` runs this file under `sh -c`, under npm. Killing npm by its pid
 * (with SIGKILL, which npm cannot pass on, or on systems where it does not)
 * leaves the shell and this process running, still serving the demo. So the
 * demo watches its parent and, when npm started it, npm too, and stops when
 * either is gone. They are read once, when this process starts.
 */
function launchersOfThisProcess() {
  const launchers = [process.ppid];
  if (process.env.npm_lifecycle_event) {
    try {
      // /proc/PID/stat: "pid (name) state ppid …"; elsewhere only the parent is watched.
      const grandparent = Number(readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      if (grandparent > 1) launchers.push(grandparent);
    } catch {
      // no /proc: the parent alone
    }
  }
  return launchers;
}

/** Stops the demo when one of `launchers` (this process's parent first) is gone. */
function watchLaunchers(launchers, stop) {
  const gone = (pid) => {
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return error.code === 'ESRCH';
    }
  };
  const timer = setInterval(() => {
    if (process.ppid === launchers[0] && !launchers.some(gone)) return;
    clearInterval(timer);
    console.error('gw-elements demo: npm start was stopped; stopping the demo');
    void stop();
  }, 1000);
  timer.unref();
}
