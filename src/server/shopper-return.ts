/**
 * Handling the shopper's return to the shopperResultUrl: the query's
 * `resourcePath` is checked against the two paths the gateway sends, the status
 * is read at most as often as the gateway allows, and the first approved
 * payment is remembered.
 */
import { STATUS_CALL_WINDOW_MS, STATUS_CALLS_PER_MINUTE } from '../contract/limits.js';
import { parseResourcePath, type ResourcePath } from '../contract/resource-path.js';
import { isApproved } from '../contract/result-codes.js';
import { GatewayThrottledError } from './errors.js';
import { validationError, type RequestOptions, type Transport } from './request.js';
import type { Checkouts } from './resources/checkouts.js';
import type { Payments } from './resources/payments.js';
import { acquire, type StatusStore } from './status-store.js';
import type { Payment } from './types.js';

/** The query of the shopper's return: `?id=…&resourcePath=…` (Express's `req.query`, a URLSearchParams' entries, …). */
export interface ShopperReturn {
  id?: unknown;
  resourcePath?: unknown;
}

const retryAfterSeconds = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

export function shopperReturnHandler(
  transport: Transport,
  store: StatusStore,
  resources: { checkouts: Checkouts; payments: Payments },
) {
  // Concurrent returns for one path in this process share one trip to the store (and at most one status call).
  const inFlight = new Map<string, Promise<Payment>>();

  async function read(resourcePath: string, { kind, id }: ResourcePath, options?: RequestOptions): Promise<Payment> {
    const checkout = kind === 'checkout';
    // Only the checkout status is limited (and consumed by a successful read); a payment may be read freely, but one read is enough.
    const limit = checkout ? { count: STATUS_CALLS_PER_MINUTE, windowMs: STATUS_CALL_WINDOW_MS } : undefined;
    const acquired = await acquire(store, `status:${resourcePath}`, { now: transport.now, limit, signal: options?.signal });
    const what = checkout ? `Status of checkout ${id}` : `Payment ${id}`;
    switch (acquired.kind) {
      case 'value':
        return JSON.parse(acquired.value) as Payment;
      case 'limited':
        throw new GatewayThrottledError(`${what} was read ${STATUS_CALLS_PER_MINUTE} times this minute (the gateway's limit); not sent`, {
          retryAfterSeconds: retryAfterSeconds(acquired.retryAt, transport.now()),
        });
      case 'busy':
        throw new GatewayThrottledError(`${what} is being read by another request that has not answered yet; not sent`, {
          retryAfterSeconds: retryAfterSeconds(acquired.until, transport.now()),
        });
    }
    const { lease } = acquired;
    let payment: Payment;
    try {
      payment = checkout ? await resources.checkouts.getPayment(id, options) : await resources.payments.get(id, options);
    } catch (error) {
      // Declines and failures are not shared: a checkout may carry a failed attempt and then a paid one.
      await lease.release().catch(() => undefined);
      throw error;
    }
    // The first approved payment is the answer from now on (another may have been stored while a lapsed claim was read).
    // When the store cannot take the answer, the shopper still gets it: the gateway's answer is never thrown away.
    const stored = await lease.settle(JSON.stringify(payment), isApproved(payment.result.code)).catch(() => undefined);
    return stored !== undefined ? (JSON.parse(stored) as Payment) : payment;
  }

  /**
   * The payment the shopper's return is about. Returns approved and pending
   * payments; throws `GatewayDeclinedError` (and the other typed errors) like the
   * status reads, `GatewayValidationError` for a `resourcePath` that is not one
   * of the gateway's, `GatewayThrottledError` instead of a third call in a minute
   * (or when another request's read did not answer within the store's `waitMs`),
   * `StatusStoreUnavailableError` when the shared store cannot answer.
   */
  return async function handleShopperReturn(query: ShopperReturn, options?: RequestOptions): Promise<Payment> {
    // A missing query (no parameters at all) is refused like a bad one below, not dereferenced.
    const { id, resourcePath } = query ?? {};
    const target = typeof resourcePath === 'string' ? parseResourcePath(resourcePath) : undefined;
    if (!target || (id !== undefined && id !== target.id)) {
      const value = typeof resourcePath === 'string' ? resourcePath.slice(0, 100) : '';
      throw validationError([{ name: 'resourcePath', value, message: 'must be /v1/checkouts/{id}/payment or /v1/payments/{id}, with the same id as the id parameter' }]);
    }
    const path = resourcePath as string;
    let pending = inFlight.get(path);
    if (!pending) {
      pending = read(path, target, options).finally(() => inFlight.delete(path));
      inFlight.set(path, pending);
    }
    return pending;
  };
}
