/**
 * Handling the shopper's return to the shopperResultUrl: the query's
 * `resourcePath` is checked against the two paths the gateway sends, the status
 * is read at most as often as the gateway allows, and the first approved
 * payment is remembered.
 */
import { isApproved } from '../contract/result-codes.js';
import { GatewayThrottledError } from './errors.js';
import { validationError, type RequestOptions, type Transport } from './request.js';
import type { checkouts } from './resources/checkouts.js';
import { GATEWAY_ID } from './resources/path.js';
import type { payments } from './resources/payments.js';
import type { StatusStore } from './status-store.js';
import type { Payment } from './types.js';

/** The query of the shopper's return: `?id=…&resourcePath=…` (Express's `req.query`, a URLSearchParams' entries, …). */
export interface ShopperReturn {
  id?: unknown;
  resourcePath?: unknown;
}

const RESOURCE_PATH = new RegExp(`^/v1/(?:checkouts/(${GATEWAY_ID})/payment|payments/(${GATEWAY_ID}))$`);
/** The seed's limit on GET /v1/checkouts/{id}/payment. */
export const STATUS_CALLS_PER_MINUTE = 2;

export function shopperReturnHandler(
  transport: Transport,
  store: StatusStore,
  resources: { checkouts: ReturnType<typeof checkouts>; payments: ReturnType<typeof payments> },
) {
  // Concurrent returns for one path (a double reload) share one status call.
  const inFlight = new Map<string, Promise<Payment>>();

  async function read(resourcePath: string, checkoutId: string | undefined, paymentId: string | undefined, options?: RequestOptions) {
    const record = (await store.get(resourcePath)) ?? { calls: [] };
    if (record.payment) return record.payment;
    if (checkoutId) {
      const now = transport.now();
      const calls = record.calls.filter((time) => now - time < 60_000);
      if (calls.length >= STATUS_CALLS_PER_MINUTE) {
        const retryAfterSeconds = Math.ceil((calls[0]! + 60_000 - now) / 1000);
        throw new GatewayThrottledError(`Status of checkout ${checkoutId} was read ${calls.length} times this minute (the gateway's limit); not sent`, { retryAfterSeconds });
      }
      await store.set(resourcePath, { calls: [...calls, now] });
    }
    const payment = checkoutId ? await resources.checkouts.getPayment(checkoutId, options) : await resources.payments.get(paymentId!, options);
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
    const match = typeof resourcePath === 'string' ? RESOURCE_PATH.exec(resourcePath) : null;
    const pathIdValue = match?.[1] ?? match?.[2];
    if (!match || pathIdValue!.includes('..') || (id !== undefined && id !== pathIdValue)) {
      const value = typeof resourcePath === 'string' ? resourcePath.slice(0, 100) : '';
      throw validationError([{ name: 'resourcePath', value, message: 'must be /v1/checkouts/{id}/payment or /v1/payments/{id}, with the same id as the id parameter' }]);
    }
    const path = match[0];
    let pending = inFlight.get(path);
    if (!pending) {
      pending = read(path, match[1], match[2], options).finally(() => inFlight.delete(path));
      inFlight.set(path, pending);
    }
    return pending;
  };
}
