/**
 * `npm start`: the whole demo behind one printed URL (demo/main.ts assembles
 * it: sandbox, merchant back end, pages). Ctrl-C stops all three.
 */
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

// The demo is TypeScript, run as it is (no build needed); its imports of gw-elements/* resolve to the sources.
const { startDemo } = await tsImport('../demo/main.ts', import.meta.url);
export { startDemo };

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const requested = Number(process.env.PORT ?? 5173);
  const demo = await startDemo({ port: Number.isInteger(requested) ? requested : 5173 });
  console.log(`\n  gw-elements demo: ${demo.url}\n\n  (sandbox gateway, demo merchant and pages; Ctrl-C stops all)\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(130);
    stopping = true;
    await demo.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
