/**
 * The demo merchant's back end: an Express 5 app for the demo pages' `/api`
 * routes, its input checked by zod schemas (input.ts), talking to the gateway
 * through the server helper. The access token is read here and never sent to
 * a browser; each answer carries the gateway calls it caused (masked) so the
 * pages can show them.
 */
import { STATUS_CODES } from 'node:http';
import { inspect } from 'node:util';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { GatewayError, NotificationError, createFulfilment, createGatewayClient, createMemoryStatusStore, type GatewayClient, type GatewayClientOptions, type StatusStore } from '../../src/server/index.js';
import { createRedactor } from '../../src/contract/redaction.js';
import { TEST_CARDS } from '../../src/sandbox/engine/triggers.js';
import { recordingFetch, type GatewayCall } from './call-recorder.js';
import { CURRENCY, PRODUCTS, cartSchema } from './catalogue.js';
import { BadRequest, NotFound, amount, browserInput, cardInput, challengeWindow, merchantTransactionId, parseInput, reference, shopperReturnQuery } from './input.js';
import { NotificationInbox } from './notifications.js';
import { Shop, type BrowserContext, type ShopperCard } from './shop.js';
import { createDemoDatabase, type DemoDatabase } from './database.js';
import { demoStatusStore } from './status-store.js';
import { PLAN, Subscriptions } from './subscriptions.js';
import { createWalletCheckout, walletCheckoutInput, walletReturn } from './wallets.js';

export interface MerchantOptions {
  /** The gateway (or sandbox) the merchant talks to. */
  /** `entities`: the entity of each brand not on `entityId` (the wallets page's MADA entity). */
  readonly gateway: { readonly baseUrl: string; readonly accessToken: string; readonly entityId: string; readonly entities?: GatewayClientOptions['entities'] };
  /** Moves the sandbox's clock, for the demo's "let the checkout expire" and "next month" buttons; absent against a real gateway. */
  readonly advanceGatewayClock?: (seconds: number) => void;
  /** The gateway's time (the sandbox's clock), when subscription charges are due; the real time by default. */
  readonly gatewayNow?: () => number;
  /** The notification listener's secret (64 hex characters): with it, the gateway's notifications are received at `/api/notifications`. */
  readonly notificationSecret?: string;
  /** Where approved statuses, the status-call limit and the claims on money calls are kept; unless given, on Redis when REDIS_URL is set, else in memory. */
  readonly statusStore?: StatusStore;
  /** The shop's orders and subscriptions (a real shop's database); merchants given the same one act as instances of one shop. */
  readonly database?: DemoDatabase;
  /** The server helper's patience; the demo's defaults let an uncertain outcome settle while the shopper watches. */
  readonly client?: Pick<GatewayClientOptions, 'timeoutMs' | 'maxNetworkRetries' | 'reconcileDelaysMs'>;
  readonly port?: number;
  readonly host?: string;
}

export interface RunningMerchant {
  readonly url: string;
  close(): Promise<void>;
}

/** A gateway call's error as the page may show it (the helper's messages hold no card data or token). */
class GatewayFailure extends Error {
  constructor(
    readonly reason: unknown,
    readonly calls: readonly GatewayCall[],
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/** Test card details from a page: the number (and optionally the name) is all the shopper chooses in the demo. */
function cardFrom(input: z.infer<typeof cardInput>): ShopperCard {
  return {
    number: input.cardNumber,
    holder: input.holder || 'Jane Jones',
    expiryMonth: '12',
    expiryYear: String(new Date().getFullYear() + 2),
    cvv: '123',
  };
}

/** The shopper's IP as the gateway wants it (IPv4 text for IPv4-mapped addresses); behind the dev server's proxy, from X-Forwarded-For. */
function shopperIp(request: Request): string {
  return (request.ip ?? '127.0.0.1').replace(/^::ffff:/, '');
}

/** The origin the shopper's browser used (behind the dev server's proxy), for return URLs. */
function originOf(request: Request): string {
  return `${request.protocol}://${request.host ?? 'localhost'}`;
}

function browserFrom(request: Request, browser: z.infer<typeof browserInput>, window: z.infer<typeof challengeWindow>): BrowserContext {
  return {
    ip: shopperIp(request),
    acceptHeader: request.get('accept') ?? 'text/html',
    userAgent: request.get('user-agent') ?? 'unknown',
    language: browser?.language ?? 'en-US',
    screenWidth: browser?.screenWidth ?? '1280',
    screenHeight: browser?.screenHeight ?? '800',
    screenColorDepth: browser?.screenColorDepth ?? '24',
    timezone: browser?.timezone ?? '0',
    challengeWindow: window ?? '05',
  };
}

/** One route's input: the path parameters, the query and the JSON body, each checked by its schema (unchecked parts are ignored). */
function input<Params extends z.ZodType = z.ZodUnknown, Query extends z.ZodType = z.ZodUnknown, Body extends z.ZodType = z.ZodUnknown>(parts: {
  params?: Params;
  query?: Query;
  body?: Body;
}) {
  return z.object({ params: parts.params ?? z.unknown(), query: parts.query ?? z.unknown(), body: parts.body ?? z.unknown() }) as z.ZodObject<{ params: Params; query: Query; body: Body }>;
}

const noInput = input({});

/** The answer to anything that went wrong: a JSON body with a message the page can show, never a stack. */
function failureAnswer(error: unknown): { status: number; body: object; unexpected?: unknown } {
  if (error instanceof BadRequest) return { status: error instanceof NotFound ? 404 : 400, body: { error: error.message } };
  if (error instanceof GatewayFailure) {
    const cause = error.reason;
    // The client's outcome kind decides: fields the gateway refused came from the page (400), a reference it does not know
    // too (404); everything else is the gateway failing the shop (502).
    if (cause instanceof GatewayError) {
      const status = cause.outcome === 'invalid' ? 400 : cause.outcome === 'not_found' ? 404 : 502;
      return { status, body: { outcome: cause.outcome, error: error.message, resultCode: cause.resultCode, calls: error.calls } };
    }
    return { status: 500, body: { error: 'the shop\'s server failed; see its console', calls: error.calls }, unexpected: cause };
  }
  // Express's own refusals (a body over the limit, malformed JSON, a path it cannot decode) carry a 4xx status; their
  // messages may quote the input, so only the status is kept.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, body: { error: `the request was refused: ${STATUS_CODES[status] ?? 'bad request'}` } };
  return { status: 500, body: { error: 'the shop\'s server failed; see its console' }, unexpected: error };
}

/** Starts the merchant server on `port` (0 picks a free one). */
export async function startMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  // A store the caller gives (the tests' failing one) comes first; else Redis when REDIS_URL is set, else memory.
  const statusStore = options.statusStore ? { store: options.statusStore, close: async () => undefined } : await demoStatusStore(createMemoryStatusStore());
  const shop = new Shop(statusStore.store, options.database ?? createDemoDatabase());
  const subscriptions = new Subscriptions(shop, createFulfilment({ store: statusStore.store }), options.gatewayNow ?? Date.now);
  const clientFor = (calls: GatewayCall[]): GatewayClient =>
    // Short reconcile waits: the demo's uncertain-outcome card should settle while the shopper watches.
    createGatewayClient({ ...options.gateway, fetch: recordingFetch(calls), statusStore: shop.statusStore, reconcileDelaysMs: [300, 1000], ...options.client });
  const inbox = options.notificationSecret ? new NotificationInbox(options.notificationSecret, subscriptions, shop, () => clientFor([])) : undefined;

  /**
   * Every answer as JSON, scrubbed once more on the way out: the access token and the card number this request
   * carried by value, any other card number by shape. The answers are built not to hold them; this is the net.
   */
  const redactorFor = (request: Request) => {
    const cardNumber = (request.body as { cardNumber?: unknown } | undefined)?.cardNumber;
    return createRedactor({ accessToken: options.gateway.accessToken, cardNumber: typeof cardNumber === 'string' ? cardNumber : undefined });
  };
  const send = (request: Request, response: Response, status: number, body: object) => {
    response.status(status).json(redactorFor(request).deep(body));
  };

  /** A route handler: the request checked by `schema`, the answer `act`'s value. */
  const handle =
    <Schema extends z.ZodType>(schema: Schema, act: (input: z.infer<Schema>, request: Request) => object | Promise<object>): RequestHandler =>
    async (request, response) => {
      const checked = parseInput(schema, { params: request.params, query: request.query, body: request.body ?? {} });
      send(request, response, 200, await act(checked, request));
    };

  /** A route that talks to the gateway: gets its own recorded client, answers with the calls made. */
  const gatewayHandle = <Schema extends z.ZodType>(schema: Schema, act: (input: z.infer<Schema>, gateway: GatewayClient, request: Request) => Promise<object>) =>
    handle(schema, async (checked, request) => {
      const calls: GatewayCall[] = [];
      try {
        return { ...(await act(checked, clientFor(calls), request)), calls };
      } catch (error) {
        if (error instanceof BadRequest) throw error;
        throw new GatewayFailure(error, calls);
      }
    });

  const app = express();
  app.disable('x-powered-by');
  // The Vite dev server proxies /api from the same machine with X-Forwarded-*: the shopper's address and origin come from there.
  app.set('trust proxy', 'loopback');
  app.use((_request, response, next) => {
    response.set('cache-control', 'no-store');
    next();
  });
  // The gateway's notifications: a hex body (text/plain), read raw; answered 2xx only once stored, else the gateway retries.
  app.post('/api/notifications', express.text({ type: () => true, limit: '1mb' }), async (request, response) => {
    if (!inbox) {
      response.status(404).json({ error: 'notifications are not configured' });
      return;
    }
    try {
      const received = await inbox.receive({ body: typeof request.body === 'string' ? request.body : '', headers: request.headers });
      // Another report of this payment is still being fulfilled, or the order's charges could not be looked up: not done yet,
      // so the gateway is to send it again.
      response.status(received.fulfilment === 'in progress elsewhere' || received.fulfilment === 'not settled yet' ? 503 : 200).end();
    } catch (error) {
      if (!(error instanceof NotificationError)) throw error;
      response.status(400).json({ error: error.message });
    }
  });
  app.use(express.json({ limit: '64kb' }));

  // Sent as it is: the only card numbers in any answer, the sandbox's public test cards for the pages' tables.
  app.get('/api/config', (_request, response) => {
    response.json({ currency: CURRENCY, gatewayUrl: options.gateway.baseUrl, products: PRODUCTS, testCards: TEST_CARDS, canExpireCheckouts: Boolean(options.advanceGatewayClock) });
  });

  const orderParams = z.object({ id: reference });
  app.post('/api/orders', gatewayHandle(input({ body: z.object({ lines: cartSchema }) }), async ({ body }, gateway) => ({ order: await shop.createOrder(gateway, body.lines) })));
  app.get('/api/orders/:id', handle(input({ params: orderParams }), ({ params }) => ({ order: shop.getOrder(params.id) })));
  app.post('/api/orders/:id/checkout', gatewayHandle(input({ params: orderParams }), async ({ params }, gateway) => ({ order: await shop.restartCheckout(gateway, params.id) })));
  app.get('/api/orders/:id/payment', gatewayHandle(input({ params: orderParams, query: shopperReturnQuery }), ({ params, query }, gateway) => shop.orderReturn(gateway, params.id, query)));
  // The shop's reconciliation job for one order: every charge found by the order's reference, a second one refunded.
  app.post('/api/orders/:id/reconcile', gatewayHandle(input({ params: orderParams }), async ({ params }, gateway) => ({ order: await shop.reconcileOrder(gateway, params.id) })));
  // The wallets page: one checkout on the entity of the brands it shows, and the shopper's return read on it.
  app.post('/api/wallets/checkout', gatewayHandle(input({ body: walletCheckoutInput }), ({ body }, gateway) => createWalletCheckout(gateway, body.brands)));
  app.get('/api/wallets/payment', gatewayHandle(input({ query: shopperReturnQuery }), ({ query }, gateway) => walletReturn(gateway, query)));
  app.post('/api/sandbox/expire-checkouts', handle(noInput, () => {
    if (!options.advanceGatewayClock) throw new BadRequest('only the sandbox gateway can move its clock');
    // One minute past the checkout lifetime of 30 minutes.
    options.advanceGatewayClock(31 * 60);
    return { advancedSeconds: 31 * 60 };
  }));

  app.post('/api/card-payments', gatewayHandle(
    input({ body: cardInput.extend({ amount, challengeWindow, browser: browserInput }) }),
    ({ body }, gateway, request) =>
      shop.payByCard(gateway, cardFrom(body), body.amount, browserFrom(request, body.browser, body.challengeWindow), `${originOf(request)}/three-ds-return.html`),
  ));
  app.get('/api/card-payments/return', gatewayHandle(input({ query: shopperReturnQuery }), ({ query }, gateway) => shop.cardPaymentReturn(gateway, query)));

  const reservationParams = z.object({ id: reference });
  app.get('/api/reservations', handle(noInput, () => ({ reservations: shop.reservations() })));
  app.post('/api/reservations', gatewayHandle(input({ body: cardInput.extend({ amount }) }), ({ body }, gateway, request) => shop.reserve(gateway, cardFrom(body), body.amount, shopperIp(request))));
  app.post('/api/reservations/:id/captures', gatewayHandle(input({ params: reservationParams, body: z.object({ amount }) }), ({ params, body }, gateway) => shop.capture(gateway, params.id, body.amount)));
  app.post('/api/reservations/:id/refunds', gatewayHandle(
    input({ params: reservationParams, body: z.object({ captureId: reference, amount }) }),
    ({ params, body }, gateway) => shop.refund(gateway, params.id, body.captureId, body.amount),
  ));

  app.get('/api/saved-cards', handle(noInput, () => ({ savedCards: shop.savedCards() })));
  app.post('/api/saved-cards', gatewayHandle(input({ body: cardInput }), ({ body }, gateway) => shop.saveCard(gateway, cardFrom(body))));
  app.post('/api/payouts', gatewayHandle(input({ body: z.object({ registrationId: reference, amount }) }), ({ body }, gateway) => shop.payout(gateway, body.registrationId, body.amount)));

  const subscriptionsAnswer = () => ({ plan: PLAN, subscriptions: subscriptions.list(), now: new Date((options.gatewayNow ?? Date.now)()).toISOString(), canMoveClock: Boolean(options.advanceGatewayClock) });
  app.get('/api/subscriptions', handle(noInput, subscriptionsAnswer));
  app.post('/api/subscriptions', gatewayHandle(
    input({ body: cardInput.extend({ challengeWindow, browser: browserInput }) }),
    ({ body }, gateway, request) => subscriptions.signUp(gateway, cardFrom(body), browserFrom(request, body.browser, body.challengeWindow), `${originOf(request)}/three-ds-return.html`),
  ));
  app.get('/api/subscriptions/return', gatewayHandle(input({ query: shopperReturnQuery }), ({ query }, gateway) => subscriptions.signUpReturn(gateway, query)));
  app.post('/api/subscriptions/next-month', gatewayHandle(noInput, async (_input, gateway) => {
    if (!options.advanceGatewayClock) throw new BadRequest('only the sandbox gateway can move its clock');
    // A month on the gateway's clock (31 days, so every monthly charge comes due), then the shop's billing run.
    options.advanceGatewayClock(31 * 24 * 3600);
    const charges = await subscriptions.chargeDue(gateway);
    return { charges, ...subscriptionsAnswer() };
  }));
  app.post('/api/subscriptions/:id/cancel', gatewayHandle(input({ params: z.object({ id: reference }) }), async ({ params }, gateway) => ({ subscription: await subscriptions.cancel(gateway, params.id) })));
  app.get('/api/notifications', handle(noInput, () => ({ configured: Boolean(inbox), notifications: inbox?.list() ?? [] })));

  app.get('/api/references', handle(noInput, () => ({ references: shop.references() })));
  app.get('/api/transactions', gatewayHandle(input({ query: z.object({ merchantTransactionId }) }), async ({ query }, gateway) => ({
    merchantTransactionId: query.merchantTransactionId,
    payments: await shop.transactions(gateway, query.merchantTransactionId),
  })));

  // Neither answer quotes the request: its path may hold anything a browser was given.
  app.use((request, response) => send(request, response, 404, { error: 'no such route' }));
  const onError: ErrorRequestHandler = (error, request, response, _next) => {
    const answer = failureAnswer(error);
    // The console is a log too: the failure is written scrubbed like the answers.
    if (answer.unexpected !== undefined) console.error(`demo merchant: ${redactorFor(request)(inspect(answer.unexpected))}`);
    send(request, response, answer.status, answer.body);
  };
  app.use(onError);

  const server = app.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }).finally(() => statusStore.close()),
  };
}
