/**
 * Fulfil exactly once. The same approved payment reaches a merchant through
 * the shopper's return, a status read, a reconciliation and notifications, in
 * any order, duplicated, at once, on several instances. `fulfilOnce` turns all
 * of them into one run of the merchant's handler per payment id, on the status
 * store they already share (memory or Redis).
 */
import { isApproved } from '../../contract/result-codes.js';
import { invalidArgument, isObject } from '../errors.js';
import { acquire, isStatusStore, type StatusStore } from './status-store.js';
import type { Payment } from '../types.js';

export interface FulfilmentOptions {
  /** The store every instance shares: the one given to `createGatewayClient({ statusStore })`. */
  store: StatusStore;
  /** The clock of the claims (ms since the epoch). */
  now?: () => number;
}

export type FulfilmentOutcome<T> =
  /** This call ran the handler, and it returned `result`. */
  | { readonly status: 'fulfilled'; readonly result: T }
  /** Another call ran it (now or before): do nothing more. */
  | { readonly status: 'already-fulfilled' }
  /** Another call is still running it after the store's `waitMs`: it has not finished, so do not acknowledge yet (a notification: answer non-2xx so it comes again). */
  | { readonly status: 'in-progress' }
  /** The payment is not approved (pending, declined, or without an id): nothing to fulfil. */
  | { readonly status: 'not-approved' }
  /**
   * An approved transaction that is not an order's payment: a capture of a preauthorisation (the PA was the order's),
   * a refund, a reversal, a credit or payout. A notification brings each of them too; none is fulfilled.
   */
  | { readonly status: 'not-a-purchase' };

/** The part of a payment fulfilment reads: any payment answer of the client, or a notification's payload. */
export type FulfillablePayment = Pick<Payment, 'id' | 'result'> & { readonly paymentType?: string | undefined };

/**
 * The types of an order's own payment: a debit, a preauthorisation (ship on it, capture later), a rebill. Absent (a
 * caller that kept only the id and result) is read as one: the type cannot prove otherwise.
 */
const PURCHASES: ReadonlySet<string> = new Set(['DB', 'PA', 'RB']);

export interface Fulfilment {
  /**
   * Runs `handler` once per approved payment id of an order (a DB, PA or RB:
   * a capture, refund, reversal or credit is `not-a-purchase`), whichever path
   * and instance brings it first. When the handler throws, the error reaches this caller and
   * the payment is free again, so the next arrival (a retried notification, a
   * reload) runs it; when its process dies, the claim lapses after the store's
   * `claimMs` and the next arrival runs it. `signal` aborts if the claim was lost
   * meanwhile (the handler ran longer than `claimMs` while the store was unreachable).
   */
  fulfilOnce<T>(payment: FulfillablePayment, handler: FulfilmentHandler<T>): Promise<FulfilmentOutcome<T>>;
}

/**
 * The merchant's work for one payment. `run.resumed` is true when an earlier run may have begun and never ended (its
 * process died, or its claim lapsed while the store was unreachable): its effects may be half done, so check what it
 * did (the order's state) before doing it again.
 */
export type FulfilmentHandler<T> = (payment: FulfillablePayment, signal: AbortSignal, run: { readonly resumed: boolean }) => T | Promise<T>;

export function createFulfilment(options: FulfilmentOptions): Fulfilment {
  if (!isObject(options) || !isStatusStore(options.store))
    throw invalidArgument('createFulfilment(options)', 'must be { store, now? } with the status store the client shares');
  if (options.now !== undefined && typeof options.now !== 'function')
    throw invalidArgument('createFulfilment(options).now', 'must be a function');
  const { store } = options;
  const now = options.now ?? Date.now;
  return {
    async fulfilOnce<T>(payment: FulfillablePayment, handler: FulfilmentHandler<T>): Promise<FulfilmentOutcome<T>> {
      if (!payment?.id || !isApproved(payment.result?.code ?? '')) return { status: 'not-approved' };
      const { paymentType } = payment;
      if (typeof paymentType === 'string' && !PURCHASES.has(paymentType.toUpperCase())) return { status: 'not-a-purchase' };
      const acquired = await acquire(store, `fulfil:${payment.id}`, { now });
      // Fulfilment claims have no limit and leave only final values: a value means it was done.
      if (acquired.kind === 'value') return { status: 'already-fulfilled' };
      if (acquired.kind !== 'lease') return { status: 'in-progress' };
      const { lease } = acquired;
      let result: T;
      try {
        result = await handler(payment, lease.signal, { resumed: acquired.unanswered });
      } catch (error) {
        await lease.release().catch(() => undefined);
        throw error;
      }
      // The handler ran: report it even if the store cannot record it now (its claim then lapses after claimMs).
      await lease.settle(JSON.stringify({ fulfilledAt: new Date(now()).toISOString() }), true).catch(() => undefined);
      return { status: 'fulfilled', result };
    },
  };
}
