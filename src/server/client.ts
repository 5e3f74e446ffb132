/** `createGatewayClient`: the resources over one transport, with the documented defaults. */
import { createTransport } from './request.js';
import { checkouts } from './resources/checkouts.js';
import { payments } from './resources/payments.js';
import { payouts } from './resources/payouts.js';
import { registrations } from './resources/registrations.js';
import { reports } from './resources/reports.js';
import { shopperReturnHandler } from './shopper-return.js';
import { createMemoryStatusStore, type StatusStore } from './status-store.js';
import type { TestMode } from './types.js';
import { verifyPayment } from './verify.js';

export const VERSION = '0.1.0';

/** The defaults the README documents; a test holds the two together. */
export const DEFAULTS = {
  /** Per request, through AbortSignal. */
  timeoutMs: 60_000,
  /** Extra attempts of a GET after a network failure or a 5xx; POSTs get none. */
  maxNetworkRetries: 2,
  /** Waits before each look-up of a payment whose outcome is uncertain. */
  reconcileDelaysMs: [500, 2000, 5000],
  userAgent: `gw-elements/${VERSION}`,
} as const;

export interface GatewayClientOptions {
  /** The gateway's base address, e.g. `https://eu-test.oppwa.com` or a gw-sandbox URL. */
  baseUrl: string;
  /** The Bearer access token. Server side only: never send it to a browser. */
  accessToken: string;
  /** The channel id (AN32) sent with every request. */
  entityId: string;
  timeoutMs?: number;
  /** Any web-standard fetch; the global one by default. */
  fetch?: typeof fetch;
  /** Sent on every POST unless the request sets its own (test environment only). */
  testMode?: TestMode;
  userAgent?: string;
  maxNetworkRetries?: number;
  reconcileDelaysMs?: readonly number[];
  /** Where shopper returns are remembered; in memory by default. Share one between instances. */
  statusStore?: StatusStore;
  /** The clock of the status-call limit (ms since the epoch). */
  now?: () => number;
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;

/** A client for every endpoint of the gateway. Throws in a browser: the access token must never reach one. */
export function createGatewayClient(options: GatewayClientOptions) {
  if (typeof globalThis.window !== 'undefined' || typeof globalThis.document !== 'undefined') {
    throw new Error('gw-elements/server runs on a server only: the access token must never reach a browser');
  }
  const { baseUrl, accessToken, entityId, testMode } = options;
  if (!baseUrl || !accessToken || !entityId) throw new TypeError('createGatewayClient needs baseUrl, accessToken and entityId');
  const now = options.now ?? Date.now;
  const transport = createTransport({
    baseUrl,
    accessToken,
    entityId,
    testMode,
    now,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
    maxNetworkRetries: options.maxNetworkRetries ?? DEFAULTS.maxNetworkRetries,
    reconcileDelaysMs: options.reconcileDelaysMs ?? DEFAULTS.reconcileDelaysMs,
  });
  const resources = { checkouts: checkouts(transport), payments: payments(transport) };
  return {
    ...resources,
    payouts: payouts(transport),
    registrations: registrations(transport),
    reports: reports(transport),
    handleShopperReturn: shopperReturnHandler(transport, options.statusStore ?? createMemoryStatusStore({ now }), resources),
    verifyPayment,
  };
}
