/**
 * The one gateway stand-in of the node tests: a web `fetch` the server helper
 * is given instead of the network, for the tests that need what a real
 * sandbox cannot be made to do (any status, any body, a thrown value, a lost
 * answer after the gateway processed the request, a body that never ends) or
 * need it without sockets and sleeps (model runs, mutation runs). A test that
 * needs the gateway's real behaviour uses the sandbox over loopback instead.
 *
 * What it holds:
 * - every request it received (`calls`: method, URL, path, form, the query or
 *   form as `params`, entity, Authorization, signal, the clock's time);
 * - answers scripted per test (`script`) or per method and path (`on`),
 *   written with `answer`, whose codes, descriptions, timestamps and
 *   envelope come from the contract (src/contract), not retyped here;
 * - faults queued per call (`fault`): the connection dropped before the
 *   gateway saw the request, the answer lost after it processed it, an outage
 *   (503, nothing processed), a proxy's 502 after processing, a hang until the
 *   request's signal ends it, and, after processing, a huge, an endless or a
 *   malformed body (`streamedBody` and `tricklingBody` build huge, endless and
 *   slow bodies for a test that scripts them itself);
 * - without a script, the platform's part the model runs need (`platform`):
 *   checkouts on their entity with their lifetime, the transactions a shopper
 *   or a merchant makes (3-D Secure attempts left open, captures, refunds,
 *   reversals), status reads that consume a paid checkout, and report entries
 *   as the platform carries them (no `ndc`, the custom parameters echoed).
 */
import { ANSWER_MAX_BYTES, ATTEMPT_LIFETIME_MS, CHECKOUT_LIFETIME_MS } from '../../src/contract/limits.js';
import { describeResult, isApproved, NO_PAYMENT_SESSION_DESCRIPTION, RESULT_CODES, resultGroup } from '../../src/contract/result-codes.js';
import { savedCardIdsOf } from '../../src/contract/formats.js';
import { gatewayTimestamp } from '../../src/contract/timestamp.js';
import { createGatewayClient, type GatewayClientOptions } from '../../src/server/index.js';

/** A Bearer token of the platform's shape whose secret part is a canary no answer holds by chance. */
export const TOKEN = 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c2VjcmV0LWNhbmFyeQ==';
export const ENTITY = '8a8294174b7ecb28014b9699220015ca';
export const PAYMENT_ID = '8ac7a4a17000000000000000000000aa';
/** The platform's test host, as its checkout ids name it. */
const CHECKOUT_HOST = '.uat01-vm-tx01';
/** A build marker in the platform's shape (`<40 hex>@YYYY-MM-DD hh:mm:ss +0000`). */
const BUILD_NUMBER = '6b2f1e0c9a8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f@2026-11-23 10:00:00 +0000';
/** The time `answer` writes when no clock is given: fixed, so a scripted answer is the same every run. */
const ANSWERED_AT = Date.UTC(2026, 10, 23, 10, 0, 0);

/** The platform's answer time, without milliseconds (`2026-11-23 10:00:00+0000`), as on every answer but a payment's. */
const answerTimestamp = (at: number) => gatewayTimestamp(new Date(at)).replace(/\.\d{3}\+/, '+');

/**
 * A gateway answer around `fields`: the result with the platform's description of
 * the code (from the contract; a code the contract does not describe gets its
 * published group's name, unless the test gives a text), and the envelope.
 */
export const answer = (code: string, fields: Record<string, unknown> = {}, description?: string, at = ANSWERED_AT) => ({
  result: { code, description: description ?? describeResult(code) ?? resultGroup(code) ?? 'unknown result' },
  buildNumber: BUILD_NUMBER,
  timestamp: answerTimestamp(at),
  ndc: `${ENTITY}_${'0'.repeat(32)}`,
  ...fields,
});

/** One request as the stand-in received it. */
export interface GatewayRequest {
  readonly method: string;
  readonly url: URL;
  readonly path: string;
  /** The body read as a form (empty for a GET). */
  readonly form: URLSearchParams;
  /** The query of a GET, the form of any other method. */
  readonly params: Readonly<Record<string, string>>;
  readonly entityId: string | undefined;
  readonly body: string;
  readonly authorization: string;
  /** The request's signal (its time limit and the caller's abort), for an answer that waits until it fires. */
  readonly signal?: AbortSignal | undefined;
  /** The stand-in's clock when it arrived. */
  readonly at: number;
}

/** What a script answers: a Response, a JSON body with its status, or raw text; a thrown value is a failed connection. */
export type ScriptedAnswer = Response | { status: number; body: unknown } | { raw: string; status: number };
export type Script = (request: GatewayRequest, index: number) => ScriptedAnswer | Promise<ScriptedAnswer>;

/**
 * - `drop`: the connection fails before the gateway sees the request (nothing processed);
 * - `lose`: the gateway processed it and the answer is lost on its way back;
 * - `outage`: a 503 page, nothing processed;
 * - `bad-gateway`: a proxy's 502 page after the gateway processed it;
 * - `hang`: no answer until the request's signal ends it (its time limit or the caller's abort);
 * - `huge`, `endless`, `malformed`: processed, then answered with a body twice the
 *   largest answer, a body that never ends, or the answer cut in half;
 * - `mixed-up`: processed, then answered with the last transaction answered to another
 *   path (another request's, as a proxy or cache that mixed answers up would; lost when there is none).
 */
export type Fault = 'drop' | 'lose' | 'outage' | 'bad-gateway' | 'hang' | 'huge' | 'endless' | 'malformed' | 'mixed-up';

interface QueuedFault {
  readonly fault: Fault;
  readonly method: string | undefined;
  readonly path: RegExp | undefined;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const page = (status: number, text: string) => new Response(`<html>${text}</html>`, { status, headers: { 'content-type': 'text/html' } });

const toResponse = (scripted: ScriptedAnswer): Response => {
  if (scripted instanceof Response) return scripted;
  if ('raw' in scripted) return new Response(scripted.raw, { status: scripted.status });
  return json(scripted.status, scripted.body);
};

const encoder = new TextEncoder();

/**
 * A body of `head`, then `x` padding in chunks as the reader pulls, then `tail`:
 * `totalBytes` of padding, or without it a body that never ends (until the reader
 * cancels or `stopBytes`, a test's safety net, is reached). `onChunk` sees the bytes sent so far.
 */
export function streamedBody(
  head: string,
  options: { totalBytes?: number; tail?: string; chunkBytes?: number; stopBytes?: number; onChunk?: (sentBytes: number) => void } = {},
): ReadableStream<Uint8Array> {
  const chunk = encoder.encode('x'.repeat(options.chunkBytes ?? 64 * 1024));
  const stop = options.stopBytes ?? Number.POSITIVE_INFINITY;
  let sent = 0;
  const send = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    sent += bytes.byteLength;
    options.onChunk?.(sent);
    controller.enqueue(bytes);
  };
  return new ReadableStream({
    pull(controller) {
      if (sent === 0) return send(controller, encoder.encode(head));
      if ((options.totalBytes !== undefined && sent >= options.totalBytes) || sent >= stop) {
        if (options.tail !== undefined) controller.enqueue(encoder.encode(options.tail));
        return controller.close();
      }
      send(controller, chunk);
    },
  });
}

/** One space every `everyMs`, forever: only the request's signal (its time limit) ends it. */
export const tricklingBody = (signal: AbortSignal | undefined, everyMs = 10) =>
  new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (signal?.aborted) return controller.error(signal.reason);
      controller.enqueue(encoder.encode(' '));
    },
  });

/** A huge fault's body: twice the largest answer the client reads. */
const HUGE_BYTES = 2 * ANSWER_MAX_BYTES;
/** How a huge or endless body begins: an approved answer whose last field never closes in time. */
const PADDED_HEAD = '{"result":{"code":"000.100.110"},"padding":"';

/**
 * The gateway behind the client's injectable `fetch`. Answers, first to last:
 * a fault queued for the call, a script for its method and path (`on`), the
 * stand-in's script, else the platform's part (`platform`).
 */
export class GatewayStandIn {
  readonly calls: GatewayRequest[] = [];
  /** Faults waiting for their call, first queued first. */
  readonly faults: QueuedFault[] = [];
  readonly platform: StandInPlatform;
  readonly #routes: { method: string; path: RegExp; script: Script }[] = [];
  readonly #now: () => number;
  readonly #script: Script | undefined;
  /** The last answer that was a transaction (it had an `id`), by path: what a `mixed-up` fault answers instead. */
  readonly #lastTransactions = new Map<string, string>();

  constructor(options: { script?: Script; now?: () => number; checkoutLifetimeMs?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#script = options.script;
    this.platform = new StandInPlatform(this.#now, options.checkoutLifetimeMs ?? CHECKOUT_LIFETIME_MS);
  }

  /** Answers `method` requests on paths matching `path` (a whole path, or a pattern) with `script`. */
  on(method: string, path: string | RegExp, script: Script): this {
    this.#routes.push({
      method,
      path: typeof path === 'string' ? new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : path,
      script,
    });
    return this;
  }

  /** Queues `fault` for the next call (or the next one of `method` on a path matching `path`). */
  fault(fault: Fault, where: { method?: string; path?: RegExp } = {}): this {
    this.faults.push({ fault, method: where.method, path: where.path });
    return this;
  }

  /** The POSTs received. */
  posts(): GatewayRequest[] {
    return this.calls.filter((call) => call.method === 'POST');
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const body = init?.body ? String(init.body) : '';
    const form = new URLSearchParams(body);
    const params = Object.fromEntries(method === 'GET' ? url.searchParams : form);
    const request: GatewayRequest = {
      method,
      url,
      path: url.pathname,
      form,
      params,
      entityId: params.entityId,
      body,
      authorization: new Headers(init?.headers).get('authorization') ?? '',
      signal: init?.signal ?? undefined,
      at: this.#now(),
    };
    this.calls.push(request);
    const index = this.calls.length - 1;
    const at = this.faults.findIndex(
      (each) => (each.method === undefined || each.method === method) && (each.path === undefined || each.path.test(url.pathname)),
    );
    const fault = at < 0 ? undefined : this.faults.splice(at, 1)[0]!.fault;
    if (fault === 'drop') throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    if (fault === 'outage') return page(503, 'Service unavailable');
    if (fault === 'hang')
      return new Promise((_, reject) => {
        const signal = request.signal;
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const route = this.#routes.find((each) => each.method === method && each.path.test(url.pathname));
    const script = route?.script ?? this.#script;
    const scripted = script ? await script(request, index) : this.platform.answer(request);
    const earlier = [...this.#lastTransactions].findLast(([path]) => path !== url.pathname)?.[1];
    // Read from what was scripted, never from the response: a scripted body may never end.
    const answered = scripted instanceof Response || 'raw' in scripted ? undefined : (scripted.body as { id?: unknown } | undefined);
    if (typeof answered?.id === 'string') {
      // Latest last, and one per path: the map stays as small as the paths a test uses.
      this.#lastTransactions.delete(url.pathname);
      this.#lastTransactions.set(url.pathname, JSON.stringify(answered));
    }
    const processed = toResponse(scripted);
    switch (fault) {
      case 'lose':
        throw new TypeError('fetch failed');
      case 'mixed-up':
        if (earlier === undefined) throw new TypeError('fetch failed');
        return new Response(earlier, { status: 200, headers: { 'content-type': 'application/json' } });
      case 'bad-gateway':
        return page(502, 'Bad gateway');
      case 'huge':
        return new Response(streamedBody(PADDED_HEAD, { totalBytes: HUGE_BYTES, tail: '"}' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      case 'endless':
        return new Response(streamedBody(PADDED_HEAD), { status: 200, headers: { 'content-type': 'application/json' } });
      case 'malformed': {
        const text = await processed.text();
        return new Response(text.slice(0, Math.floor(text.length / 2)), { status: processed.status });
      }
      default:
        return processed;
    }
  };
}

/**
 * A client of the gateway stand-in, with test-friendly timing (no retries, no
 * waits between look-ups); `script` answers every request unless the test adds
 * per-path scripts (`gateway.on`). `calls` lists the requests, `posts()` the POSTs.
 */
export function standInClient(script?: Script, options: Partial<GatewayClientOptions> = {}) {
  const gateway = new GatewayStandIn(script ? { script } : {});
  const client = createGatewayClient({
    baseUrl: 'https://gateway.test',
    accessToken: TOKEN,
    entityId: ENTITY,
    fetch: gateway.fetch,
    timeoutMs: 2000,
    maxNetworkRetries: 0,
    reconcileDelaysMs: [0, 0],
    ...options,
  });
  return { client, gateway, calls: gateway.calls, posts: () => gateway.posts() };
}

export interface StandInCheckout {
  readonly id: string;
  readonly entityId: string;
  /** DB or PA for a payment checkout; undefined for a registration-only one. */
  readonly paymentType: 'DB' | 'PA' | undefined;
  readonly amount: string | undefined;
  readonly currency: string | undefined;
  readonly merchantTransactionId: string | undefined;
  readonly customParameters: Readonly<Record<string, string>>;
  readonly createdAt: number;
  /** Saved cards offered (one-click). */
  readonly registrations: readonly string[];
  expiresAt: number;
  consumed: boolean;
}

export interface StandInTransaction {
  readonly id: string;
  readonly entityId: string;
  readonly paymentType: string;
  readonly amount: string | undefined;
  readonly currency: string | undefined;
  readonly merchantTransactionId: string | undefined;
  readonly customParameters: Readonly<Record<string, string>>;
  readonly checkoutId: string | undefined;
  readonly referencedId: string | undefined;
  readonly registrationId: string | undefined;
  readonly createdAt: number;
  code: string;
  /** A 3-D Secure attempt still open completes until then (afterwards it has timed out). */
  openUntil: number | undefined;
}

const APPROVED = RESULT_CODES.approvedIntegratorTest;
const DECLINED = RESULT_CODES.declinedByAuthorization;
const result = (code: string) => ({ code, description: describeResult(code) ?? resultGroup(code) ?? 'unknown result' });

/**
 * The platform's part the model runs drive: checkouts and the transactions made
 * on them or beside them, answered as the platform answers them. Ids come from a
 * counter, so a seed replays the same ids.
 */
export class StandInPlatform {
  readonly checkouts = new Map<string, StandInCheckout>();
  readonly transactions = new Map<string, StandInTransaction>();
  #made = 0;

  constructor(
    private readonly now: () => number,
    /** How long a checkout is readable (the contract's 30 minutes; a model about the store alone may say Infinity). */
    private readonly checkoutLifetimeMs: number,
  ) {}

  /** The next id: 32 lower-case hex characters, as the platform's transaction ids. */
  #nextId(): string {
    return `8ac7a4a1${(++this.#made).toString(16).padStart(24, '0')}`;
  }

  /** A transaction as it stands now: an attempt left open past its time has timed out. */
  current(id: string): StandInTransaction | undefined {
    const tx = this.transactions.get(id);
    if (tx && tx.openUntil !== undefined && tx.openUntil <= this.now()) {
      tx.openUntil = undefined;
      tx.code = RESULT_CODES.pendingTimedOut;
    }
    return tx;
  }

  /** The checkout's transactions (its attempts and what they saved), oldest first. */
  ofCheckout(checkoutId: string): StandInTransaction[] {
    return [...this.transactions.keys()].map((id) => this.current(id)!).filter((tx) => tx.checkoutId === checkoutId);
  }

  /** The checkout's approved transaction, if the shopper paid it. */
  paidOf(checkoutId: string): StandInTransaction | undefined {
    return this.ofCheckout(checkoutId).find((tx) => isApproved(tx.code));
  }

  /** Files a transaction made outside a checkout's form (a saved card, a refund, a server-to-server payment). */
  add(fields: Omit<StandInTransaction, 'id' | 'createdAt' | 'openUntil'> & { openUntil?: number }): StandInTransaction {
    const tx: StandInTransaction = { id: this.#nextId(), createdAt: this.now(), openUntil: undefined, ...fields };
    this.transactions.set(tx.id, tx);
    return tx;
  }

  /** The shopper submits the checkout's form: approved, declined, or a 3-D Secure challenge left open. */
  pay(checkoutId: string, outcome: 'approved' | 'declined' | 'challenge' = 'approved'): StandInTransaction | undefined {
    const checkout = this.checkouts.get(checkoutId);
    const now = this.now();
    if (!checkout || checkout.consumed || checkout.expiresAt <= now) return undefined;
    if (this.ofCheckout(checkoutId).some((tx) => isApproved(tx.code) || tx.openUntil !== undefined)) return undefined;
    const registration = checkout.paymentType === undefined;
    const tx = this.add({
      entityId: checkout.entityId,
      paymentType: registration ? 'RG' : checkout.paymentType!,
      amount: checkout.amount,
      currency: checkout.currency,
      merchantTransactionId: checkout.merchantTransactionId,
      customParameters: checkout.customParameters,
      checkoutId,
      referencedId: undefined,
      registrationId: checkout.registrations[0],
      code: outcome === 'approved' ? APPROVED : outcome === 'declined' ? DECLINED : RESULT_CODES.pending,
      ...(outcome === 'challenge' ? { openUntil: now + ATTEMPT_LIFETIME_MS } : {}),
    });
    if (outcome === 'approved') checkout.expiresAt = Math.max(checkout.expiresAt, now + this.checkoutLifetimeMs);
    return tx;
  }

  /** The shopper finishes an open challenge; after the attempt's time it has timed out instead. */
  complete(checkoutId: string, approve: boolean): void {
    const open = this.ofCheckout(checkoutId).find((tx) => tx.openUntil !== undefined);
    if (!open) return;
    open.openUntil = undefined;
    open.code = approve ? APPROVED : DECLINED;
    const checkout = this.checkouts.get(checkoutId)!;
    if (approve) checkout.expiresAt = Math.max(checkout.expiresAt, this.now() + this.checkoutLifetimeMs);
  }

  /** A transaction as a report entry carries it: the platform's carry no `ndc`. */
  entry(tx: StandInTransaction) {
    return {
      id: tx.id,
      paymentType: tx.paymentType,
      ...(tx.amount !== undefined ? { amount: tx.amount, currency: tx.currency } : {}),
      ...(tx.merchantTransactionId !== undefined ? { merchantTransactionId: tx.merchantTransactionId } : {}),
      ...(tx.referencedId !== undefined ? { referencedId: tx.referencedId } : {}),
      ...(tx.registrationId !== undefined ? { registrationId: tx.registrationId } : {}),
      ...(Object.keys(tx.customParameters).length ? { customParameters: tx.customParameters } : {}),
      result: result(tx.code),
      timestamp: gatewayTimestamp(new Date(tx.createdAt)),
    };
  }

  /** What the platform answers `request`. */
  answer({ method, path, params }: GatewayRequest): ScriptedAnswer {
    const now = this.now();
    const envelope = (fields: Record<string, unknown>, ndc: string) => ({
      buildNumber: BUILD_NUMBER,
      timestamp: answerTimestamp(now),
      ...fields,
      ndc,
    });
    const reply = (status: number, fields: Record<string, unknown>, ndc = `${params.entityId ?? ENTITY}_${'0'.repeat(32)}`) => ({
      status,
      body: envelope(fields, ndc),
    });
    const noSession = { code: RESULT_CODES.invalidParameter, description: NO_PAYMENT_SESSION_DESCRIPTION };
    const customParameters = Object.fromEntries(
      Object.entries(params).flatMap(([name, value]) => {
        const match = /^customParameters\[(.+)\]$/.exec(name);
        return match ? [[match[1]!, value]] : [];
      }),
    );
    if (method === 'POST' && path === '/v1/checkouts') {
      const id = `${this.#nextId().toUpperCase()}${CHECKOUT_HOST}`;
      this.checkouts.set(id, {
        id,
        entityId: params.entityId!,
        paymentType: params.paymentType as 'DB' | 'PA' | undefined,
        amount: params.amount,
        currency: params.currency,
        merchantTransactionId: params.merchantTransactionId,
        customParameters,
        createdAt: now,
        registrations: savedCardIdsOf(params),
        expiresAt: now + this.checkoutLifetimeMs,
        consumed: false,
      });
      // The script's hash when asked for (the client asks by default): `sha384-` and 64 base64 characters.
      const integrity = params.integrity === 'true' ? { integrity: `sha384-${Buffer.from(id.padEnd(48, '0')).toString('base64')}` } : {};
      return reply(200, { result: result(RESULT_CODES.checkoutCreated), id, ...integrity }, id);
    }
    const read = /^\/v1\/checkouts\/([^/]+)\/(payment|registration)$/.exec(path);
    if (method === 'GET' && read) {
      const checkout = this.checkouts.get(read[1]!);
      if (!checkout) return reply(400, { result: noSession });
      if (checkout.entityId !== params.entityId) return reply(403, { result: result(RESULT_CODES.forbidden) });
      if (checkout.consumed || checkout.expiresAt <= now) return reply(400, { result: noSession }, checkout.id);
      const made = this.ofCheckout(checkout.id).at(-1);
      if (!made) return reply(200, { result: result(RESULT_CODES.pending) }, checkout.id);
      if (isApproved(made.code)) checkout.consumed = true;
      // Whatever the path asked, the checkout answers what it made: a curious shopper's swapped path gets the other kind.
      return reply(200, this.entry(made), checkout.id);
    }
    const payment = /^\/(?:v1\/payments|v3\/query)\/([^/]+)$/.exec(path);
    if (payment) {
      const target = this.current(payment[1]!);
      if (!target) return reply(400, { result: result(RESULT_CODES.transactionNotFound) });
      if (target.entityId !== params.entityId) return reply(403, { result: result(RESULT_CODES.forbidden) });
      if (method === 'GET') return reply(200, this.entry(target));
      const moved = this.add({
        entityId: target.entityId,
        paymentType: params.paymentType!,
        amount: params.amount ?? target.amount,
        currency: params.currency ?? target.currency,
        merchantTransactionId: params.merchantTransactionId,
        customParameters,
        checkoutId: undefined,
        referencedId: target.id,
        registrationId: undefined,
        code: APPROVED,
      });
      return reply(200, this.entry(moved));
    }
    if (method === 'GET' && path === '/v3/query') {
      // As the platform: an empty merchantTransactionId is a missing parameter, never "every transaction without one".
      if (!params.merchantTransactionId)
        return reply(400, {
          result: {
            ...result(RESULT_CODES.invalidParameter),
            parameterErrors: [{ name: 'merchantTransactionId', value: null, message: 'may not be empty' }],
          },
        });
      const entries = [...this.transactions.keys()]
        .map((id) => this.current(id)!)
        .filter((tx) => tx.entityId === params.entityId && tx.merchantTransactionId === params.merchantTransactionId)
        .map((tx) => this.entry(tx));
      if (!entries.length) return reply(400, { result: result(RESULT_CODES.transactionNotFound) });
      return reply(200, { result: result(RESULT_CODES.successfulRequest), payments: entries });
    }
    return reply(404, { result: result(RESULT_CODES.transactionNotFound) });
  }
}
