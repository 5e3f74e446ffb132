/**
 * Runs one TypeScript fragment of the documents as a user pastes it (docs.user.ts copies the fragment, verbatim, and
 * this file into a fresh project around the packed package, then runs `tsx fragment-runner.mts FRAGMENT`).
 *
 * A fragment names what is the user's own with `declare const …; // yours` (a client, a request, a handler of theirs).
 * A `declare const` emits nothing, so at run time those names are globals: this runner defines them, with real
 * values, before it imports the fragment, and checks after it what the fragment was written to do. The scenario is
 * chosen by a line only that fragment holds; a fragment no scenario claims, or claimed twice, fails the run.
 *
 * The gateway is the sandbox the test runs (GW_BASE_URL, GW_TOKEN, GW_ENTITY_ID, GW_MADA_ENTITY_ID, as the documents
 * read them), in another process, so the shopper can act while the fragment waits: reading `query` (the shopper's
 * return) pays the fragment's last checkout in its widget, or passes its payment's 3-D Secure step, as the shopper
 * would between the server's two calls, and answers what the shopper's browser brings back.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express from 'express';
import {
  classifyResult,
  createGatewayClient,
  createMemoryStatusStore,
  type CardPaymentRequest,
  type EncryptedNotification,
  type GatewayClient,
  type Payment,
  type ShopperReturn,
} from 'gw-elements/server';
import { CARDS, startSandbox, type Sandbox } from 'gw-elements/sandbox';

type Fragment = Record<string, unknown>;
type Values = Record<string, unknown>;

interface Scenario {
  /** A line of the fragment this scenario runs, and of no other. */
  readonly signature: string;
  /** What the fragment declares as the user's own (getters are read when the fragment reads them). */
  yours?(): Promise<Values>;
  /** What must hold once the fragment has run. */
  check?(fragment: Fragment, yours: Values): Promise<void>;
}

const env = (name: string) => {
  const value = process.env[name];
  assert.ok(value, `${name} is set`);
  return value;
};

// ---- The shopper, in a process of its own: the fragment's process waits for it, the sandbox answers it ----

type ShopperStep =
  | { readonly kind: 'redirect'; readonly url: string; readonly parameters: readonly { name: string; value: string }[] }
  | { readonly kind: 'widget'; readonly checkoutId: string; readonly save: boolean; readonly mada: boolean };

/** What the shopper does, and the query their browser brings back to the shop's result page. */
async function shop(step: ShopperStep): Promise<ShopperReturn> {
  if (step.kind === 'redirect') {
    // The 3-D Secure page (a frictionless card: no challenge to answer) sends the shopper on to the result page.
    const body = new URLSearchParams(step.parameters.map(({ name, value }) => [name, value]));
    const answer = await fetch(step.url, { method: 'POST', body, redirect: 'manual' });
    assert.equal(answer.status, 303, `the 3-D Secure step answered ${answer.status}`);
    const back = new URL(answer.headers.get('location')!);
    return { id: back.searchParams.get('id')!, resourcePath: back.searchParams.get('resourcePath')! };
  }
  const path = step.save ? 'registration' : 'payments';
  const answer = await fetch(`${env('GW_BASE_URL')}/v1/checkouts/${step.checkoutId}/widget/${path}`, {
    method: 'POST',
    body: new URLSearchParams({
      paymentBrand: step.mada ? 'MADA' : 'VISA',
      'card.number': step.mada ? CARDS.mada : CARDS.approved,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
    }),
  });
  const { result } = (await answer.json()) as { result: { code: string } };
  assert.equal(classifyResult(result.code), 'approved', `the widget answered ${result.code}`);
  // As the widget sends the shopper to the result page.
  return { id: step.checkoutId, resourcePath: `/v1/checkouts/${step.checkoutId}/${step.save ? 'registration' : 'payment'}` };
}

if (process.argv[2] === '--shopper') {
  process.stdout.write(JSON.stringify(await shop(JSON.parse(process.argv[3]!) as ShopperStep)));
  process.exit(0);
}

// ---- What the fragment sent and was answered, as a proxy in front of the gateway sees it ----

interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly sent: URLSearchParams;
  readonly code: string | undefined;
  readonly answer: Record<string, unknown>;
}
const exchanges: Exchange[] = [];
const bareFetch = globalThis.fetch;

/** Keeps every exchange with the gateway (the client reads the global `fetch` at each call). */
function watchGateway(): void {
  const gateway = new URL(env('GW_BASE_URL')).origin;
  globalThis.fetch = async (input, init) => {
    const response = await bareFetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin === gateway && url.pathname.startsWith('/v1/')) {
      const answer = (await response.clone().json()) as Record<string, unknown>;
      const body = init?.body;
      exchanges.push({
        method: init?.method ?? 'GET',
        path: url.pathname,
        sent: new URLSearchParams(typeof body === 'string' || body instanceof URLSearchParams ? body : ''),
        code: (answer.result as { code?: string } | undefined)?.code,
        answer,
      });
    }
    return response;
  };
}

/** The shopper's return after the fragment's last checkout or 3-D Secure payment, the shopper having done their part. */
function shopperReturn(): ShopperReturn {
  const created = exchanges.findLast(({ method, path }) => method === 'POST' && /^\/v1\/(checkouts|payments)$/.test(path));
  assert.ok(created, 'the fragment created a checkout or a payment before reading the return');
  const redirect = created.answer.redirect as { url: string; parameters: { name: string; value: string }[] } | undefined;
  const step: ShopperStep = redirect
    ? { kind: 'redirect', url: redirect.url, parameters: redirect.parameters }
    : {
        kind: 'widget',
        checkoutId: String(created.answer.id),
        save: created.sent.get('createRegistration') === 'true' && !created.sent.has('amount'),
        mada: created.sent.get('entityId') === env('GW_MADA_ENTITY_ID'),
      };
  // Synchronous, as the fragment reads `query` synchronously: the shopper acts in another process meanwhile.
  const self = fileURLToPath(import.meta.url);
  const printed = execFileSync(process.execPath, [...process.execArgv, self, '--shopper', JSON.stringify(step)], { encoding: 'utf8' });
  return JSON.parse(printed) as ShopperReturn;
}

// ---- The user's own things ----

const client = (options: { store?: ReturnType<typeof createMemoryStatusStore> } = {}): GatewayClient =>
  createGatewayClient({ baseUrl: env('GW_BASE_URL'), accessToken: env('GW_TOKEN'), entityId: env('GW_ENTITY_ID'), ...options });

const cardPayment = (number: string = CARDS.approved, amount = '50.00'): CardPaymentRequest => ({
  paymentBrand: 'VISA',
  paymentType: 'DB',
  amount,
  currency: 'EUR',
  merchantTransactionId: `fragment-${process.pid}-${Date.now()}`,
  card: { number, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: '123' },
  customer: { email: 'jane.jones@example.com', ip: '192.0.2.10' },
});

/** Calls of the user's handlers, by name. */
const calls: [string, ...unknown[]][] = [];
const recorder =
  (name: string) =>
  (...args: unknown[]) =>
    void calls.push([name, ...args]);

/** Every transaction the fragment made, and every card it saved or deleted, was approved. */
function everyOneApproved(except: readonly string[] = []): void {
  const moved = exchanges.filter(({ method, path }) => (method === 'POST' && !path.endsWith('/checkouts')) || method === 'DELETE');
  assert.ok(moved.length > 0, 'the fragment sent something to the gateway');
  for (const { method, path, code } of moved) {
    const kind = classifyResult(code ?? '');
    assert.ok(kind === 'approved' || except.includes(kind), `${method} ${path} answered ${code}`);
  }
}

/** A response of a real request to a server here, for the fragment to answer, and what its client then reads. */
async function liveResponse(): Promise<{ response: ServerResponse; page: Promise<Response> }> {
  let handed!: (response: ServerResponse) => void;
  const handedOver = new Promise<ServerResponse>((resolve) => (handed = resolve));
  const server = createServer((_request, response) => handed(response)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const page = bareFetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/pay`).finally(() => server.close());
  return { response: await handedOver, page };
}

/** A sandbox of the fragment's own that delivers notifications to `url`, with its secret, once the listener is up. */
async function notifyingSandbox(url: () => string): Promise<{ sandbox: Sandbox; secret: string; payment(): Promise<Payment> }> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  const secret = randomBytes(32).toString('hex');
  return {
    sandbox,
    secret,
    async payment() {
      sandbox.notifications.configure({ url: url(), secret });
      const gateway = createGatewayClient({ baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! });
      const payment = await gateway.payments.create(cardPayment());
      await sandbox.notifications.idle();
      return payment;
    },
  };
}

/** The page the fragment wrote: status, link header and HTML naming the checkout the fragment created. */
async function checkPage(page: Promise<Response>): Promise<string> {
  const answer = await page;
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('link') ?? '', /rel=preload/);
  const html = await answer.text();
  const checkout = exchanges.findLast(({ path }) => path === '/v1/checkouts')!.answer as { id: string; integrity: string };
  assert.ok(html.includes(checkout.id) && html.includes(checkout.integrity), 'the page names its checkout and the widget integrity');
  return html;
}

const SCENARIOS: readonly Scenario[] = [
  // The server page: the client, made from the environment.
  { signature: "testMode: 'EXTERNAL'" },
  {
    signature: "programme: 'winningsPayout'",
    yours: async () => ({ gateway: client(), number: CARDS.approved }),
    check: async () => everyOneApproved(),
  },
  {
    signature: 'one checkout per entity, one form per checkout',
    yours: async () => ({
      order: { amount: '12.00', currency: 'SAR', paymentType: 'DB', merchantTransactionId: `order-${Date.now()}` },
      get query() {
        return shopperReturn();
      },
    }),
    async check(fragment) {
      const [cards, mada] = exchanges.filter(({ path }) => path === '/v1/checkouts');
      assert.deepEqual([cards!.sent.get('entityId'), mada!.sent.get('entityId')], [env('GW_ENTITY_ID'), env('GW_MADA_ENTITY_ID')]);
      const payment = fragment.payment as Payment;
      assert.equal(classifyResult(payment.result.code), 'approved');
      assert.equal(payment.paymentBrand, 'MADA', 'read on the entity that created it');
    },
  },
  {
    signature: 'fulfilment.fulfilOnce(payment, async (payment, signal)',
    async yours() {
      const statusStore = createMemoryStatusStore();
      return {
        statusStore,
        payment: await client({ store: statusStore }).payments.create(cardPayment()),
        shipOrder: recorder('shipOrder'),
      };
    },
    async check(_fragment, yours) {
      assert.deepEqual(
        calls.map(([name, id]) => [name, id]),
        [['shipOrder', (yours.payment as Payment).id]],
      );
      assert.ok((calls[0]![2] as { signal: unknown }).signal instanceof AbortSignal, 'the handler passes its signal on');
    },
  },
  {
    signature: 'toOutcome(gateway.payments.create(request))',
    yours: async () => ({
      gateway: client(),
      request: cardPayment(),
      ...Object.fromEntries(
        ['ship', 'runThreeDs', 'waitForStatus', 'askForAnotherCard', 'checkLater', 'fail'].map((name) => [name, recorder(name)]),
      ),
    }),
    async check(fragment) {
      await (fragment.pay as () => Promise<void>)();
      assert.deepEqual(
        calls.map(([name]) => name),
        ['ship'],
      );
      assert.equal(classifyResult((calls[0]![1] as Payment).result.code), 'approved');
    },
  },
  ...['widgetPreload(checkout, {', 'const page = renderCheckout(checkout, {'].map((signature): Scenario => ({
    signature,
    async yours() {
      const { response, page } = await liveResponse();
      pages.set(signature, page);
      return { gateway: client(), response };
    },
    async check() {
      const html = await checkPage(pages.get(signature)!);
      assert.match(html, /<gw-checkout /);
    },
  })),
  // The recipes: money movements, a subscription through its 3-D Secure step, a saved card's life.
  {
    signature: "paymentType: 'PA' });",
    async yours() {
      const gateway = client();
      return {
        gateway,
        payment: cardPayment(),
        debit: await gateway.payments.create(cardPayment()),
        otherPa: await gateway.payments.create({ ...cardPayment(), paymentType: 'PA' }),
      };
    },
    check: async () => everyOneApproved(),
  },
  {
    signature: "subscription({ expiry: '2027-11-30', frequency: '0030' })",
    yours: async () => ({
      gateway: client(),
      payment: cardPayment(CARDS.frictionless),
      billing: { street1: 'Hauptstraße 1', city: 'Wien', country: 'AT', postcode: '1010' },
      shopperResultUrl: 'https://shop.example/result',
      get query() {
        return shopperReturn();
      },
    }),
    // The first payment waits for its 3-D Secure step; the repeat and the cancellation are approved.
    check: async () => everyOneApproved(['pending']),
  },
  {
    signature: "handleShopperReturn(query, { expect: 'registration' })",
    yours: async () => ({
      gateway: client(),
      get query() {
        return shopperReturn();
      },
      wallet: { add: (card: { registrationId: string }) => saved.push(card.registrationId) },
      get savedIds() {
        return saved;
      },
    }),
    async check() {
      assert.equal(saved.length, 1, 'the saved card reached the wallet');
      assert.deepEqual(
        exchanges.filter(({ method }) => method === 'DELETE').map(({ path, code }) => [path, classifyResult(code ?? '')]),
        [[`/v1/registrations/${saved[0]}`, 'approved']],
      );
    },
  },
  // The security page: the notification listener, against a sandbox that really notifies it.
  {
    signature: "app.post('/notifications', express.text({ type: '*/*' })",
    async yours() {
      // The fragment's own app, as the user's server would listen on it.
      const post = express.application.post;
      express.application.post = function (this: express.Express, ...args: Parameters<typeof post>) {
        listened.app = this;
        return post.apply(this, args);
      } as typeof post;
      listened.sandbox = await notifyingSandbox(() => listened.url!);
      process.env.NOTIFICATION_SECRET = listened.sandbox.secret;
      return { logger: { warn: recorder('logger.warn') }, shipOrder: recorder('shipOrder'), cards: { changed: recorder('cards.changed') } };
    },
    async check() {
      const server = listened.app!.listen(0, '127.0.0.1');
      await once(server, 'listening');
      listened.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`;
      try {
        const payment = await listened.sandbox!.payment();
        assert.deepEqual(calls, [['shipOrder', payment.id]], 'the payment notified was shipped once');
        assert.equal(listened.sandbox!.sandbox.notifications.list()[0]?.state, 'delivered');
        const forged = await bareFetch(listened.url, {
          method: 'POST',
          body: 'not from the gateway',
          headers: { 'x-initialization-vector': '00' },
        });
        assert.equal(forged.status, 200, 'a forger learns nothing');
        assert.deepEqual(calls.at(-1)?.[0], 'logger.warn');
      } finally {
        server.close();
        await listened.sandbox!.sandbox.close();
      }
    },
  },
  {
    signature: 'maxAgeSeconds: 60 * 60',
    async check(fragment) {
      const deliveries: EncryptedNotification[] = [];
      const listener = createServer(async (request: IncomingMessage, response) => {
        let body = '';
        for await (const chunk of request) body += String(chunk);
        deliveries.push({ body, headers: request.headers });
        response.end();
      }).listen(0, '127.0.0.1');
      await once(listener, 'listening');
      const { sandbox, secret, payment } = await notifyingSandbox(() => `http://127.0.0.1:${(listener.address() as AddressInfo).port}/`);
      try {
        const paid = await payment();
        const fresh = (await (fragment.freshNotification as (delivery: EncryptedNotification, secret: string) => Promise<unknown>)(
          deliveries[0]!,
          secret,
        )) as { type: string; payload: Payment };
        assert.equal(fresh.type, 'PAYMENT');
        assert.equal(fresh.payload.id, paid.id);
      } finally {
        listener.close();
        await sandbox.close();
      }
    },
  },
  // The sandbox page: each fragment stands on its own.
  { signature: 'sandbox.clock.advance(30 * 60);' },
  { signature: 'sandbox.notifications.configure({ url, secret });' },
  { signature: 'viteServer.middlewares.use(proxy.middleware);' },
  {
    signature: "entities: ['0123456789abcdef0123456789abcdef'",
    async check(fragment) {
      const sandbox = fragment.sandbox as Sandbox;
      assert.deepEqual(sandbox.entities, ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210']);
      await sandbox.close();
    },
  },
];

const pages = new Map<string, Promise<Response>>();
const saved: string[] = [];
const listened: { app?: express.Express; url?: string; sandbox?: Awaited<ReturnType<typeof notifyingSandbox>> } = {};

/** The signatures, for the test to see that every fragment has exactly one scenario. */
export const SIGNATURES = SCENARIOS.map(({ signature }) => signature);

if (process.argv[2] === '--run') {
  const file = resolve(process.argv[3]!);
  const text = readFileSync(file, 'utf8');
  const claimed = SCENARIOS.filter(({ signature }) => text.includes(signature));
  assert.equal(claimed.length, 1, `${file}: claimed by ${claimed.length} scenarios`);
  const [scenario] = claimed as [Scenario];
  watchGateway();
  const yours = (await scenario.yours?.()) ?? {};
  Object.defineProperties(globalThis, Object.getOwnPropertyDescriptors(yours));
  const fragment = (await import(pathToFileURL(file).href)) as Fragment;
  await scenario.check?.(fragment, yours);
  process.stdout.write(`ran ${scenario.signature}\n`);
  // A fragment may leave a server open (the merchant proxy's Vite): the run ends here, as the user's script would be stopped.
  process.exit(0);
}
