/**
 * A fake gateway for the binding model (issue 28), behind the client's
 * injectable `fetch`: orders paid over several checkouts that share one
 * merchantTransactionId, on two entities; payment, registration-only and
 * one-click checkouts; 3-D Secure attempts that stay open 30 minutes after
 * they start, so one may complete after its checkout's 30 minutes; other
 * transactions filed under the same order (a saved card, a refund, a
 * server-to-server payment); captures, refunds and reversals; and one queued
 * fault per matching call: the answer lost after the gateway processed it, or
 * an outage (503, nothing processed).
 *
 * Faithful where the model's invariants depend on it: report entries carry no
 * `ndc` (the platform's recorded report entries have none; a checkout's own
 * answers carry its id), they echo the custom parameters the checkout or the
 * request sent, a checkout is read only on its entity (403 elsewhere), and a
 * read of an expired or consumed checkout answers "no payment session found".
 */
import { CHECKOUT_LIFETIME_MS } from '../../src/contract/limits.js';
import { RESULT_CODES } from '../../src/contract/result-codes.js';

export type OrderFault = 'lost' | 'outage';

export interface FakeCheckout {
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

export interface FakeTransaction {
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

export interface OrderCall {
  readonly method: string;
  readonly path: string;
  readonly entityId: string | undefined;
  readonly at: number;
  readonly params: Readonly<Record<string, string>>;
}

const APPROVED = '000.100.110';
const DECLINED = '800.100.151';
/** How long a 3-D Secure attempt stays open (the platform's pending transactions time out after 30 minutes). */
export const ATTEMPT_MS = 30 * 60 * 1000;

const hex = (length: number) => Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const result = (code: string, description = 'as the platform answers') => ({ code, description });
const NO_SESSION = result(RESULT_CODES.invalidParameter, 'invalid or missing parameter - No payment session found for the requested id');

export class OrderGateway {
  readonly checkouts = new Map<string, FakeCheckout>();
  readonly transactions = new Map<string, FakeTransaction>();
  readonly calls: OrderCall[] = [];
  /** One fault per call matching `method` and the path pattern, first queued first. */
  readonly faults: { method: string; path: RegExp; fault: OrderFault }[] = [];

  constructor(private readonly clock: () => number) {}

  /** A transaction as it stands now: an attempt left open past its time has timed out. */
  current(id: string): FakeTransaction | undefined {
    const tx = this.transactions.get(id);
    if (tx && tx.openUntil !== undefined && tx.openUntil <= this.clock()) {
      tx.openUntil = undefined;
      tx.code = RESULT_CODES.pendingTimedOut;
    }
    return tx;
  }

  /** The checkout's transactions (their attempts and what they saved), oldest first. */
  ofCheckout(checkoutId: string): FakeTransaction[] {
    return [...this.transactions.keys()].map((id) => this.current(id)!).filter((tx) => tx.checkoutId === checkoutId);
  }

  add(fields: Omit<FakeTransaction, 'id' | 'createdAt' | 'openUntil'> & { openUntil?: number }): FakeTransaction {
    const tx: FakeTransaction = { id: hex(32), createdAt: this.clock(), openUntil: undefined, ...fields };
    this.transactions.set(tx.id, tx);
    return tx;
  }

  /** The shopper submits the checkout's form: approved, declined, or a 3-D Secure challenge left open. */
  pay(checkoutId: string, outcome: 'approved' | 'declined' | 'challenge'): FakeTransaction | undefined {
    const checkout = this.checkouts.get(checkoutId);
    const now = this.clock();
    if (!checkout || checkout.consumed || checkout.expiresAt <= now) return undefined;
    if (this.ofCheckout(checkoutId).some((tx) => tx.code === APPROVED || tx.openUntil !== undefined)) return undefined;
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
      ...(outcome === 'challenge' ? { openUntil: now + ATTEMPT_MS } : {}),
    });
    if (outcome === 'approved') checkout.expiresAt = Math.max(checkout.expiresAt, now + CHECKOUT_LIFETIME_MS);
    return tx;
  }

  /** The shopper finishes an open challenge; after the attempt's time it has timed out instead. */
  complete(checkoutId: string, approve: boolean): void {
    const open = this.ofCheckout(checkoutId).find((tx) => tx.openUntil !== undefined);
    if (!open) return;
    open.openUntil = undefined;
    open.code = approve ? APPROVED : DECLINED;
    const checkout = this.checkouts.get(checkoutId)!;
    if (approve) checkout.expiresAt = Math.max(checkout.expiresAt, this.clock() + CHECKOUT_LIFETIME_MS);
  }

  /** A report entry: the platform's carry no `ndc`. */
  entry(tx: FakeTransaction) {
    return {
      id: tx.id,
      paymentType: tx.paymentType,
      ...(tx.amount !== undefined ? { amount: tx.amount, currency: tx.currency } : {}),
      ...(tx.merchantTransactionId !== undefined ? { merchantTransactionId: tx.merchantTransactionId } : {}),
      ...(tx.referencedId !== undefined ? { referencedId: tx.referencedId } : {}),
      ...(tx.registrationId !== undefined ? { registrationId: tx.registrationId } : {}),
      ...(Object.keys(tx.customParameters).length ? { customParameters: tx.customParameters } : {}),
      result: result(tx.code),
    };
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = init?.method ?? 'GET';
    const body = String(init?.body ?? '');
    const params = Object.fromEntries(method === 'GET' ? url.searchParams : new URLSearchParams(body));
    this.calls.push({ method, path: url.pathname, entityId: params.entityId, at: this.clock(), params });
    const at = this.faults.findIndex((each) => each.method === method && each.path.test(url.pathname));
    const fault = at < 0 ? undefined : this.faults.splice(at, 1)[0]!.fault;
    if (fault === 'outage')
      return new Response('<html>Service unavailable</html>', { status: 503, headers: { 'content-type': 'text/html' } });
    const answer = this.answer(method, url.pathname, params);
    if (fault === 'lost') throw new TypeError('fetch failed');
    return answer;
  };

  private answer(method: string, path: string, params: Record<string, string>): Response {
    const now = this.clock();
    const customParameters = Object.fromEntries(
      Object.entries(params).flatMap(([name, value]) => {
        const match = /^customParameters\[(.+)\]$/.exec(name);
        return match ? [[match[1]!, value]] : [];
      }),
    );
    if (method === 'POST' && path === '/v1/checkouts') {
      const id = `${hex(32).toUpperCase()}.uat01-vm-tx01`;
      const registrations = Object.entries(params)
        .filter(([name]) => /^registrations\[\d+\]\.id$/.test(name))
        .map(([, value]) => value);
      this.checkouts.set(id, {
        id,
        entityId: params.entityId!,
        paymentType: params.paymentType as 'DB' | 'PA' | undefined,
        amount: params.amount,
        currency: params.currency,
        merchantTransactionId: params.merchantTransactionId,
        customParameters,
        createdAt: now,
        registrations,
        expiresAt: now + CHECKOUT_LIFETIME_MS,
        consumed: false,
      });
      return json(200, { result: result('000.200.100', 'successfully created checkout'), id, ndc: id });
    }
    const read = /^\/v1\/checkouts\/([^/]+)\/(payment|registration)$/.exec(path);
    if (method === 'GET' && read) {
      const checkout = this.checkouts.get(read[1]!);
      if (!checkout) return json(400, { result: NO_SESSION });
      if (checkout.entityId !== params.entityId) return json(403, { result: result(RESULT_CODES.forbidden) });
      if (checkout.consumed || checkout.expiresAt <= now) return json(400, { result: NO_SESSION, ndc: checkout.id });
      const made = this.ofCheckout(checkout.id).at(-1);
      if (!made) return json(200, { result: result(RESULT_CODES.pending), ndc: checkout.id });
      if (made.code === APPROVED) checkout.consumed = true;
      // Whatever the path asked, the checkout answers what it made: a curious shopper's swapped path gets the other kind.
      return json(200, { ...this.entry(made), ndc: checkout.id });
    }
    const payment = /^\/(?:v1\/payments|v3\/query)\/([^/]+)$/.exec(path);
    if (payment) {
      const target = this.current(payment[1]!);
      if (!target) return json(400, { result: result(RESULT_CODES.transactionNotFound) });
      if (target.entityId !== params.entityId) return json(403, { result: result(RESULT_CODES.forbidden) });
      if (method === 'GET') return json(200, this.entry(target));
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
      return json(200, this.entry(moved));
    }
    if (method === 'GET' && path === '/v3/query') {
      const wanted = params.merchantTransactionId;
      const entries = [...this.transactions.keys()]
        .map((id) => this.current(id)!)
        .filter((tx) => tx.entityId === params.entityId && tx.merchantTransactionId === wanted)
        .map((tx) => this.entry(tx));
      if (!entries.length) return json(400, { result: result(RESULT_CODES.transactionNotFound) });
      return json(200, { result: result(RESULT_CODES.successfulRequest), payments: entries });
    }
    return json(404, { result: result(RESULT_CODES.transactionNotFound) });
  }
}
