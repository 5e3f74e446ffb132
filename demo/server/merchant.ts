/**
 * The demo merchant's back end: an Express 5 app serving the route table
 * (route-table.ts) under `/api` and the payment pages it renders, its input
 * checked by zod schemas (input.ts), talking
 * to the gateway through one client of the server helper per process. The
 * access token is read here and never sent to a browser; each answer of a route
 * that talks to the gateway carries the calls it caused (masked, from the
 * client's `onResponse` hook) so the pages can show them.
 */
import { inspect } from 'node:util';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import {
  createFulfilment,
  createGatewayClient,
  createMemoryStatusStore,
  type GatewayClientOptions,
  type StatusStore,
} from 'gw-elements/server';
import { CallRecorder, type GatewayCall } from './call-recorder.js';
import { CardPayments } from './card-payments.js';
import { checkoutContentSecurityPolicy } from './csp.js';
import { createDemoDatabase, type DemoDatabase } from './database.js';
import { failureAnswer, GatewayFailure } from './failure-answer.js';
import { answerOnce } from './idempotency.js';
import { receiveNotification } from './handlers/notifications.js';
import { BadRequest, parseInput } from './input.js';
import type { MerchantContext } from './merchant-context.js';
import { NotificationInbox } from './notifications.js';
import { Orders } from './orders.js';
import { Payouts } from './payouts.js';
import { Reservations } from './reservations.js';
import { servePage } from './payment-pages/serve-page.js';
import type { PageRoute, Route } from './route-definition.js';
import { PAGES, ROUTES } from './route-table.js';
import { SavedCards } from './saved-cards.js';
import { WalletPayments } from './wallets.js';
import { scrubberFor } from './scrub.js';
import { demoStatusStore } from './status-store.js';
import { Subscriptions } from './subscriptions.js';

export interface MerchantOptions {
  /** The gateway (or sandbox) the merchant talks to. */
  readonly gateway: {
    readonly baseUrl: string;
    readonly accessToken: string;
    readonly entityId: string;
    readonly entities?: GatewayClientOptions['entities'];
  };
  /** Moves the sandbox's clock, for the demo's "let the checkout expire" and "next month" buttons; absent against a real gateway. */
  readonly advanceGatewayClock?: (seconds: number) => void;
  /** The gateway's time (the sandbox's clock), when subscription charges are due; the real time by default. */
  readonly gatewayNow?: () => number;
  /** Where 3-D Secure pages may come from, for the payment pages' Content-Security-Policy: card issuers' (`https:`) by default. */
  readonly threeDsHosts?: readonly string[];
  /** The notification listener's secret (64 hex characters): with it, the gateway's notifications are received at `/api/notifications`. */
  readonly notificationSecret?: string;
  /** Where approved statuses, the status-call limit and the claims on money calls are kept; unless given, on Redis when REDIS_URL is set, else in memory. */
  readonly statusStore?: StatusStore;
  /** The shop's orders and subscriptions (a real shop's database); merchants given the same one act as instances of one shop. */
  readonly database?: DemoDatabase;
  /** The server helper's patience; the demo's defaults let an uncertain outcome resolve while the shopper watches. */
  readonly client?: Pick<GatewayClientOptions, 'timeoutMs' | 'maxNetworkRetries' | 'reconcileDelaysMs'>;
  readonly port?: number;
  readonly host?: string;
}

export interface RunningMerchant {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The Express app: the notification listener, every page of `pages` (rendered with a fresh nonce under the
 * payment pages' policy), then every route of `routes` with its input checked, its gateway calls recorded, its
 * answer scrubbed; failures mapped to statuses by {@link failureAnswer}.
 */
export function createMerchantApp(
  context: MerchantContext,
  recorder: CallRecorder,
  { accessToken, threeDsHosts, statusStore }: { accessToken: string; threeDsHosts?: readonly string[]; statusStore: StatusStore },
  routes: Readonly<Record<string, Route>> = ROUTES,
  pages: Readonly<Record<string, PageRoute>> = PAGES,
): Express {
  /**
   * Every answer as JSON, scrubbed once more on the way out: the access token and the card number this request
   * carried by value, any other card number by shape. The answers are built not to hold them; this is the net.
   */
  const scrubberOf = (request: Request) => {
    const cardNumber = (request.body as { cardNumber?: unknown } | undefined)?.cardNumber;
    return scrubberFor([accessToken, typeof cardNumber === 'string' ? cardNumber : undefined]);
  };
  const send = (request: Request, response: Response, status: number, body: object) => {
    response.status(status).json(scrubberOf(request).deep(body));
  };

  const run = async (route: Route, request: Request): Promise<object> => {
    const checked = parseInput(route.schema, { params: request.params, query: request.query, body: request.body ?? {} });
    if (!route.callsGateway) return route.handler(checked, context, request);
    const calls: GatewayCall[] = [];
    try {
      return { ...(await recorder.record(calls, async () => route.handler(checked, context, request))), calls };
    } catch (error) {
      if (error instanceof BadRequest) throw error;
      throw new GatewayFailure(error, calls);
    }
  };

  const app = express();
  app.disable('x-powered-by');
  // The Vite dev server proxies /api from the same machine with X-Forwarded-*: the shopper's address and origin come from there.
  app.set('trust proxy', 'loopback');
  app.use((_request, response, next) => {
    response.set('cache-control', 'no-store');
    next();
  });
  app.post('/api/notifications', express.text({ type: () => true, limit: '1mb' }), receiveNotification(context));
  app.use(express.json({ limit: '64kb' }));
  for (const [path, page] of Object.entries(pages))
    app.get(
      path,
      servePage(page, {
        context,
        recorder,
        scrubberOf,
        policy: (nonce) => checkoutContentSecurityPolicy(context.gatewayUrl, { threeDsHosts, nonce }),
      }),
    );
  for (const [key, route] of Object.entries(routes)) {
    const [method, path] = key.split(' ') as ['GET' | 'POST', string];
    if (method === 'POST' && route.callsGateway) {
      // Sent again with its Idempotency-Key, a request gets its first answer (idempotency.ts); the page's api() sends one.
      app.post(path, async (request, response) => {
        const input = { params: request.params, query: request.query, body: request.body ?? {} };
        const answer = await answerOnce(statusStore, { route: key, key: request.get('idempotency-key'), input }, async () => {
          try {
            return { status: 200, body: await run(route, request) };
          } catch (error) {
            const failure = failureAnswer(error);
            if (failure.unexpected !== undefined) throw error;
            return { status: failure.status, body: failure.body };
          }
        });
        if (answer.replayed) response.set('idempotent-replayed', 'true');
        send(request, response, answer.status, answer.body);
      });
      continue;
    }
    app[method === 'GET' ? 'get' : 'post'](path, async (request, response) => {
      const answer = await run(route, request);
      if (route.asIs) response.json(answer);
      else send(request, response, 200, answer);
    });
  }

  // Neither answer quotes the request: its path may hold anything a browser was given.
  app.use((request, response) => send(request, response, 404, { error: 'no such route' }));
  const onError: ErrorRequestHandler = (error, request, response, _next) => {
    const answer = failureAnswer(error);
    // The console is a log too: the failure is written scrubbed like the answers.
    if (answer.unexpected !== undefined) console.error(`demo merchant: ${scrubberOf(request)(inspect(answer.unexpected))}`);
    send(request, response, answer.status, answer.body);
  };
  app.use(onError);
  return app;
}

/** Starts the merchant server on `port` (0 picks a free one): one gateway client, one shop, one app. */
export async function startMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  // A store the caller gives (the tests' failing one) comes first; else Redis when REDIS_URL is set, else memory.
  const statusStore = options.statusStore
    ? { store: options.statusStore, close: async () => undefined }
    : await demoStatusStore(createMemoryStatusStore());
  const database = options.database ?? createDemoDatabase();
  const gatewayNow = options.gatewayNow ?? Date.now;
  const orders = new Orders(statusStore.store, database);
  const subscriptions = new Subscriptions(statusStore.store, database, createFulfilment({ store: statusStore.store }), gatewayNow);
  const recorder = new CallRecorder();
  // One client for the process: its status reads are shared between requests, and its hook feeds the pages' call panel.
  // Short reconcile waits: the demo's uncertain-outcome card should resolve while the shopper watches.
  const gateway = createGatewayClient({
    ...options.gateway,
    statusStore: statusStore.store,
    reconcileDelaysMs: [300, 1000],
    ...options.client,
    onResponse: recorder.onResponse,
  });
  const inbox = options.notificationSecret ? new NotificationInbox(options.notificationSecret, subscriptions, orders, gateway) : undefined;
  const context: MerchantContext = {
    database,
    orders,
    cardPayments: new CardPayments(database),
    reservations: new Reservations(database),
    payouts: new Payouts(database),
    savedCards: new SavedCards(database),
    wallets: new WalletPayments(),
    subscriptions,
    inbox,
    gateway,
    gatewayUrl: options.gateway.baseUrl,
    advanceGatewayClock: options.advanceGatewayClock,
    gatewayNow,
  };
  const app = createMerchantApp(context, recorder, {
    accessToken: options.gateway.accessToken,
    threeDsHosts: options.threeDsHosts,
    statusStore: statusStore.store,
  });

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
