/**
 * `npm start`: the whole demo behind one printed URL. It starts the sandbox
 * gateway, the demo merchant's back end (the only holder of the access token)
 * and the Vite dev server for demo/, which proxies /api to the merchant.
 * Ctrl-C stops all three. The end-to-end test calls `startDemo` itself, so it
 * walks exactly what a newcomer sees.
 */
import { randomBytes } from 'node:crypto';
import { URL, fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Starts the sandbox, the merchant back end and the demo pages.
 * @param {{ port?: number, quiet?: boolean }} [options] port of the demo pages (0 picks a free one)
 */
export async function startDemo({ port = 5173, quiet = false } = {}) {
  // The sandbox and the merchant are TypeScript sources, run as they are (no build needed).
  const { startSandbox } = await tsImport('../src/sandbox/index.ts', import.meta.url);
  const { startMerchant } = await tsImport('../demo/server/merchant.ts', import.meta.url);
  const { checkoutContentSecurityPolicy } = await tsImport('../demo/server/csp.ts', import.meta.url);
  const { createServer } = await import('vite');

  const stops = [];
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    stops.push(() => sandbox.close());
    // The listener's secret, shared by the sandbox (which encrypts) and the merchant (which decrypts), as a gateway account's would be.
    const notificationSecret = randomBytes(32).toString('hex');
    const merchant = await startMerchant({
      port: 0,
      // The default sandbox is a KSA merchant's: a card entity and a MADA entity with the wallets (the wallets page uses both).
      gateway: { baseUrl: sandbox.url, accessToken: sandbox.tokens[0], entityId: sandbox.entities[0], entities: Object.fromEntries(['MADA', 'APPLEPAY', 'APPLEPAYTKN', 'STC_PAY'].map((brand) => [brand, sandbox.entities[1]])) },
      advanceGatewayClock: (seconds) => sandbox.clock.advance(seconds),
      gatewayNow: () => sandbox.clock.now().getTime(),
      notificationSecret,
    });
    stops.push(() => merchant.close());
    sandbox.notifications.configure({ url: `${merchant.url}/api/notifications`, secret: notificationSecret });
    const vite = await createServer({
      configFile: here('../vite.config.ts'),
      logLevel: quiet ? 'silent' : 'warn',
      clearScreen: false,
      server: {
        port,
        strictPort: false,
        proxy: { '/api': { target: merchant.url, xfwd: true } },
        // The pages run under the README's policy (the sandbox plays the gateway and the card issuers' 3DS pages).
        headers: { 'content-security-policy': checkoutContentSecurityPolicy(sandbox.url, { threeDsHosts: [sandbox.url] }) },
      },
    });
    stops.push(() => vite.close());
    await vite.listen();
    const url = vite.resolvedUrls?.local[0];
    if (!url) throw new Error('the Vite dev server did not report a URL');
    return { url, sandboxUrl: sandbox.url, merchantUrl: merchant.url, sandbox, close };
  } catch (error) {
    await close();
    throw error;
  }
}

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
