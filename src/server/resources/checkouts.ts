/** 1. Create checkout and 3. Get payment status of a checkout. */
import { RESULT_CODES } from '../../contract/result-codes.js';
import { settle } from '../answers.js';
import { GatewayNotFoundError, GatewayValidationError } from '../errors.js';
import { flatten, type RequestOptions, type Transport } from '../request.js';
import type { Variant } from '../../contract/rules.js';
import type { CheckoutCreated, CheckoutRequest, Payment } from '../types.js';
import { pathId } from './path.js';

export interface Checkouts {
  /**
   * Creates a checkout for the payment widget; `integrity` defaults to true so
   * the answer carries the script's integrity hash. Not retried: a timeout
   * leaves at most an unused checkout, which expires after 30 minutes.
   */
  create(request: CheckoutRequest, options?: RequestOptions): Promise<CheckoutCreated>;
  /**
   * Reads the payment of a checkout, once (never retried: the gateway allows 2
   * status calls a minute, and consumes the checkout on success). Prefer
   * `client.handleShopperReturn`, which remembers the answer and enforces the limit.
   * An expired or already consumed checkout is `GatewayNotFoundError`.
   */
  getPayment(checkoutId: string, options?: RequestOptions): Promise<Payment>;
}

/**
 * `remember` keeps what a later status read needs to tell "expired" from "paid,
 * but its answer was lost": that the kit created the checkout, and its
 * merchantTransactionId. It never fails the creation (the checkout exists).
 */
export function checkouts(transport: Transport, remember?: (checkoutId: string, merchantTransactionId: string | undefined) => Promise<unknown>): Checkouts {
  return {
    async create(request, options) {
      const params = flatten({ integrity: true, ...request });
      const created = settle(await transport.send<CheckoutCreated>({ options, method: 'POST', path: '/v1/checkouts', operation: 'checkout', params, programme: (request as { programme?: Variant } | null)?.programme }));
      if (remember && typeof created.id === 'string') await remember(created.id, params.merchantTransactionId).catch(() => undefined);
      return created;
    },

    async getPayment(checkoutId, options) {
      const path = `/v1/checkouts/${pathId(transport, 'checkoutId', checkoutId)}/payment`;
      try {
        return settle(await transport.send<Payment>({ options, method: 'GET', path, retries: 0 }));
      } catch (error) {
        // The gateway answers an expired or consumed checkout with the invalid-parameter code and no parameter: it is gone, not malformed.
        if (error instanceof GatewayValidationError && error.resultCode === RESULT_CODES.invalidParameter && !error.parameterErrors.length) {
          const { resultCode, description, resultKind, httpStatus } = error;
          throw new GatewayNotFoundError(`Checkout ${checkoutId} is expired or its payment was already read: ${error.message}`, { resultCode, description, resultKind, httpStatus, cause: error });
        }
        throw error;
      }
    },
  };
}
