/** `gw-sandbox`: starts the sandbox gateway from the command line. */
import { startSandbox } from './index.js';

const sandbox = await startSandbox({ port: Number(process.argv[process.argv.indexOf('--port') + 1] ?? 8080) || 0 });
console.log(`gw-sandbox listening on ${sandbox.url}`);
