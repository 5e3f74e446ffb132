/** 9. Transaction reports: read-only, so a payment is answered as the gateway gives it, whatever its outcome. */
import { checkField } from '../../contract/formats.js';
import { isPaymentAnswer, settle } from '../errors.js';
import { paymentsByMerchantTransactionId } from '../reconcile.js';
import { validationError, type RequestOptions, type Transport } from '../request.js';
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
    async get(transactionId, options) {
      const answer = await transport.send<Payment>({ options, method: 'GET', path: `/v3/query/${pathId(transport, 'transactionId', transactionId)}` });
      // A payment (it has an id) is the answer, declined or not; an answer without one is the refusal of the read.
      return isPaymentAnswer(answer.body) ? answer.body : settle(answer);
    },
    async findByMerchantTransactionId(merchantTransactionId, options) {
      const problem = typeof merchantTransactionId === 'string' ? checkField('merchantTransactionId', merchantTransactionId) : 'must be a string';
      if (problem) throw validationError([{ name: 'merchantTransactionId', message: problem }], transport.redactorFor({}));
      return paymentsByMerchantTransactionId(transport, merchantTransactionId, options);
    },
  };
}
