/** 9. Transaction reports: read-only, so answered as the gateway gives them, whatever the payment's outcome. */
import { paymentsByMerchantTransactionId } from '../reconcile.js';
import type { RequestOptions, Transport } from '../request.js';
import type { Payment, PaymentList } from '../types.js';
import { pathId } from './path.js';

export interface Reports {
  /** One transaction by its id, whatever its outcome; `GatewayNotFoundError` when there is none. */
  get(transactionId: string, options?: RequestOptions): Promise<Payment>;
  /** Every transaction with this merchantTransactionId, in the gateway's order; an empty list when there is none. */
  findByMerchantTransactionId(merchantTransactionId: string, options?: RequestOptions): Promise<PaymentList>;
}

export function reports(transport: Transport): Reports {
  return {
    get: async (transactionId, options) => (await transport.send<Payment>({ ...options, method: 'GET', path: `/v3/query/${pathId('transactionId', transactionId)}` })).body,
    findByMerchantTransactionId: (merchantTransactionId, options) => paymentsByMerchantTransactionId(transport, merchantTransactionId, options),
  };
}
