/**
 * The demo's composition root: the sandbox gateway, the demo merchant's back
 * end (the only holder of the access token) and the Vite dev server for the
 * pages, which proxies /api to the merchant, behind one URL. `npm start`
 * (scripts/start.mjs) calls it, and so do the end-to-end tests, so they walk
 * exactly what a newcomer sees.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from 'gw-elements/sandbox';
import { checkoutContentSecurityPolicy } from './server/csp.js';
import { startMerchant } from './server/merchant.js';
import { PAGES } from './server/route-table.js';

export interface RunningDemo {
  /** The one URL a person opens: the demo pages. */
  readonly url: string;
  /** The sandbox gateway (for tests: its clock and request log). */
  readonly sandbox: Sandbox;
  readonly sandboxUrl: string;
  readonly merchantUrl: string;
  /** Stops the pages, the merchant and the sandbox, in that order. */
  close(): Promise<void>;
}

/** Starts the sandbox, the merchant back end and the demo pages; `port` is the pages' (0 picks a free one). */
export async function startDemo({ port = 5173, quiet = false }: { port?: number; quiet?: boolean } = {}): Promise<RunningDemo> {
  // Vite is a development tool: loaded only when the demo starts.
  const { createServer } = await import('vite');
  const stops: (() => Promise<void>)[] = [];
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
      // The default sandbox is a KSA merchant's: a card entity, and a MADA entity with Apple Pay and STC Pay (the wallets page uses both).
      gateway: {
        baseUrl: sandbox.url,
        accessToken: sandbox.tokens[0]!,
        entityId: sandbox.entities[0]!,
        entities: Object.fromEntries(['MADA', 'APPLEPAY', 'APPLEPAYTKN', 'STC_PAY'].map((brand) => [brand, sandbox.entities[1]!])),
      },
      advanceGatewayClock: (seconds) => sandbox.clock.advance(seconds),
      gatewayNow: () => sandbox.clock.now().getTime(),
      // The sandbox plays the card issuers' 3DS pages too.
      threeDsHosts: [sandbox.url],
      notificationSecret,
    });
    stops.push(() => merchant.close());
    sandbox.notifications.configure({ url: `${merchant.url}/api/notifications`, secret: notificationSecret });
    const vite = await createServer({
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      logLevel: quiet ? 'silent' : 'warn',
      clearScreen: false,
      server: {
        port,
        strictPort: false,
        proxy: Object.fromEntries(['/api', ...Object.keys(PAGES)].map((path) => [path, { target: merchant.url, xfwd: true }])),
        // The static pages run under the README's policy (the sandbox plays the gateway and the card issuers' 3DS pages);
        // the merchant sends the payment pages it renders under the same policy with their nonce.
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
