/**
 * The demo merchant's back end: a `node:http` server for the demo pages'
 * `/api` routes, talking to the gateway through the server helper. The access
 * token is read here and never sent to a browser; each answer carries the
 * gateway calls it caused (masked) so the pages can show them.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError, createGatewayClient, type GatewayClient } from '../../src/server/index.js';
import { CHALLENGE_WINDOWS } from '../../src/contract/formats.js';
import { TEST_CARDS } from '../../src/sandbox/triggers.js';
import { recordingFetch, type GatewayCall } from './call-recorder.js';
import { BadRequest, route, router, text, type RouteContext } from './http.js';
import { CURRENCY, PRODUCTS } from './catalogue.js';
import { Shop, type BrowserContext, type ShopperCard } from './shop.js';

export interface MerchantOptions {
  /** The gateway (or sandbox) the merchant talks to. */
  readonly gateway: { readonly baseUrl: string; readonly accessToken: string; readonly entityId: string };
  /** Moves the sandbox's clock, for the demo's "let the checkout expire" button; absent against a real gateway. */
  readonly advanceGatewayClock?: (seconds: number) => void;
  readonly port?: number;
  readonly host?: string;
}

export interface RunningMerchant {
  readonly url: string;
  close(): Promise<void>;
}

const AMOUNT = /^[0-9]{1,10}\.[0-9]{2}$/;
/** A gateway call's error as the page may show it (the helper's messages hold no card data or token). */
class GatewayFailure extends Error {
  constructor(
    readonly reason: unknown,
    readonly calls: readonly GatewayCall[],
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/** Test card details from a page: the number is the only thing the shopper chooses in the demo. */
function cardFrom(body: Record<string, unknown>): ShopperCard {
  const number = text(body, 'cardNumber', /^[0-9]{12,19}$/);
  return {
    number,
    holder: typeof body.holder === 'string' && body.holder ? body.holder : 'Jane Jones',
    expiryMonth: '12',
    expiryYear: String(new Date().getFullYear() + 2),
    cvv: '123',
  };
}

/** The shopper's IP as the gateway wants it (IPv4 text for IPv4-mapped addresses). */
function shopperIp(request: IncomingMessage): string {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || request.socket.remoteAddress || '127.0.0.1';
  return first.replace(/^::ffff:/, '');
}

function browserFrom(context: RouteContext): BrowserContext {
  const browser = (context.body.browser ?? {}) as Record<string, unknown>;
  const field = (name: string, fallback: string) => (typeof browser[name] === 'string' || typeof browser[name] === 'number' ? String(browser[name]) : fallback);
  const window = CHALLENGE_WINDOWS.find((candidate) => candidate === context.body.challengeWindow) ?? '05';
  return {
    ip: shopperIp(context.request),
    acceptHeader: context.request.headers.accept ?? 'text/html',
    userAgent: context.request.headers['user-agent'] ?? 'unknown',
    language: field('language', 'en-US'),
    screenWidth: field('screenWidth', '1280'),
    screenHeight: field('screenHeight', '800'),
    screenColorDepth: field('screenColorDepth', '24'),
    timezone: field('timezone', '0'),
    challengeWindow: window,
  };
}

/** Starts the merchant server on `port` (0 picks a free one). */
export async function startMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  const shop = new Shop();
  const clientFor = (calls: GatewayCall[]): GatewayClient =>
    // Short reconcile waits: the demo's uncertain-outcome card should settle while the shopper watches.
    createGatewayClient({ ...options.gateway, fetch: recordingFetch(calls), statusStore: shop.statusStore, reconcileDelaysMs: [300, 1000] });

  /** A route that talks to the gateway: gets its own recorded client, answers with the calls made. */
  const gatewayRoute = (method: string, path: string, act: (context: RouteContext, gateway: GatewayClient) => Promise<object>) =>
    route(method, path, async (context) => {
      const calls: GatewayCall[] = [];
      try {
        return { ...(await act(context, clientFor(calls))), calls };
      } catch (error) {
        if (error instanceof BadRequest) throw error;
        throw new GatewayFailure(error, calls);
      }
    });

  const routes = [
    route('GET', '/api/config', async () => ({
      currency: CURRENCY,
      gatewayUrl: options.gateway.baseUrl,
      products: PRODUCTS,
      testCards: TEST_CARDS,
      canExpireCheckouts: Boolean(options.advanceGatewayClock),
    })),
    gatewayRoute('POST', '/api/orders', async ({ body }, gateway) => {
      const lines = Array.isArray(body.lines) ? (body.lines as { sku: string; quantity: number }[]) : [];
      return { order: await shop.createOrder(gateway, lines) };
    }),
    route('GET', '/api/orders/:id', async ({ params }) => ({ order: shop.getOrder(params.id!) })),
    gatewayRoute('POST', '/api/orders/:id/checkout', async ({ params }, gateway) => ({ order: await shop.restartCheckout(gateway, params.id!) })),
    gatewayRoute('GET', '/api/orders/:id/payment', async ({ params, query }, gateway) =>
      shop.orderReturn(gateway, params.id!, { id: query.get('id') ?? undefined, resourcePath: query.get('resourcePath') ?? undefined }),
    ),
    route('POST', '/api/sandbox/expire-checkouts', async () => {
      if (!options.advanceGatewayClock) throw new BadRequest('only the sandbox gateway can move its clock');
      // One minute past the checkout lifetime of 30 minutes.
      options.advanceGatewayClock(31 * 60);
      return { advancedSeconds: 31 * 60 };
    }),
    gatewayRoute('POST', '/api/card-payments', async (context, gateway) =>
      shop.payByCard(gateway, cardFrom(context.body), text(context.body, 'amount', AMOUNT), browserFrom(context), `${context.origin}/three-ds-return.html`),
    ),
    gatewayRoute('GET', '/api/card-payments/return', async ({ query }, gateway) =>
      shop.cardPaymentReturn(gateway, { id: query.get('id') ?? undefined, resourcePath: query.get('resourcePath') ?? undefined }),
    ),
    route('GET', '/api/reservations', async () => ({ reservations: shop.reservations() })),
    gatewayRoute('POST', '/api/reservations', async (context, gateway) =>
      shop.reserve(gateway, cardFrom(context.body), text(context.body, 'amount', AMOUNT), shopperIp(context.request)),
    ),
    gatewayRoute('POST', '/api/reservations/:id/captures', async ({ params, body }, gateway) => shop.capture(gateway, params.id!, text(body, 'amount', AMOUNT))),
    gatewayRoute('POST', '/api/reservations/:id/refunds', async ({ params, body }, gateway) =>
      shop.refund(gateway, params.id!, text(body, 'captureId'), text(body, 'amount', AMOUNT)),
    ),
    route('GET', '/api/saved-cards', async () => ({ savedCards: shop.savedCards() })),
    gatewayRoute('POST', '/api/saved-cards', async (context, gateway) => shop.saveCard(gateway, cardFrom(context.body), shopperIp(context.request))),
    gatewayRoute('POST', '/api/payouts', async ({ body }, gateway) => shop.payout(gateway, text(body, 'registrationId'), text(body, 'amount', AMOUNT))),
    route('GET', '/api/references', async () => ({ references: shop.references() })),
    gatewayRoute('GET', '/api/transactions', async ({ query }, gateway) => {
      const merchantTransactionId = query.get('merchantTransactionId') ?? '';
      if (!merchantTransactionId) throw new BadRequest('merchantTransactionId is missing');
      return { merchantTransactionId, payments: await shop.transactions(gateway, merchantTransactionId) };
    }),
  ];

  const server = createServer(
    router(routes, (error) => {
      if (error instanceof GatewayFailure) {
        const cause = error.reason;
        const status = cause instanceof GatewayError ? 502 : 500;
        if (!(cause instanceof GatewayError)) console.error('demo merchant:', cause);
        return { status, body: { error: error.message, resultCode: cause instanceof GatewayError ? cause.resultCode : undefined, calls: error.calls } };
      }
      console.error('demo merchant:', error);
      return { status: 500, body: { error: 'the shop\'s server failed; see its console' } };
    }),
  );
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
