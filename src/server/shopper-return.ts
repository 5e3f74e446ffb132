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
import type { StatusStore } from './status-store.js';
import type { Payment } from './types.js';

/** The query of the shopper's return: `?id=…&resourcePath=…` (Express's `req.query`, a URLSearchParams' entries, …). */
export interface ShopperReturn {
  id?: unknown;
  resourcePath?: unknown;
}

export function shopperReturnHandler(
  transport: Transport,
  store: StatusStore,
  resources: { checkouts: Checkouts; payments: Payments },
) {
  // Concurrent returns for one path (a double reload) share one status call.
  const inFlight = new Map<string, Promise<Payment>>();

  async function read(resourcePath: string, { kind, id }: ResourcePath, options?: RequestOptions) {
    const record = (await store.get(resourcePath)) ?? { calls: [] };
    if (record.payment) return record.payment;
    const checkout = kind === 'checkout';
    if (checkout) {
      const now = transport.now();
      const calls = record.calls.filter((time) => now - time < STATUS_CALL_WINDOW_MS);
      if (calls.length >= STATUS_CALLS_PER_MINUTE) {
        const retryAfterSeconds = Math.ceil((calls[0]! + STATUS_CALL_WINDOW_MS - now) / 1000);
        throw new GatewayThrottledError(`Status of checkout ${id} was read ${calls.length} times this minute (the gateway's limit); not sent`, { retryAfterSeconds });
      }
      await store.set(resourcePath, { calls: [...calls, now] });
    }
    const payment = checkout ? await resources.checkouts.getPayment(id, options) : await resources.payments.get(id, options);
    if (isApproved(payment.result.code)) await store.set(resourcePath, { ...((await store.get(resourcePath)) ?? { calls: [] }), payment });
    return payment;
  }

  /**
   * The payment the shopper's return is about. Returns approved and pending
   * payments; throws `GatewayDeclinedError` (and the other typed errors) like the
   * status reads, `GatewayValidationError` for a `resourcePath` that is not one
   * of the gateway's, `GatewayThrottledError` instead of a third call in a minute.
   */
  return async function handleShopperReturn(query: ShopperReturn, options?: RequestOptions): Promise<Payment> {
    const { id, resourcePath } = query;
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
