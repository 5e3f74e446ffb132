/** 4. Server-to-server payments, 5. payment status, 6. capture, refund and reversal. */
import { settle } from '../errors.js';
import { movePayment } from '../reconcile.js';
import type { RequestOptions, Transport } from '../request.js';
import type { CaptureRequest, Payment, PaymentRequest, RefundRequest, ReversalRequest } from '../types.js';
import { pathId } from './path.js';
import { orderReferenceOf } from './reports.js';

export interface Payments {
  /**
   * A debit (DB) or preauthorisation (PA) with card data, or an account
   * funding payment. Answers the approved payment, or the pending one whose
   * `redirect` drives `<gw-3ds-handler>`; throws `GatewayDeclinedError` otherwise.
   * Sent once; an unknown outcome is looked up, never re-sent.
   */
  create(request: PaymentRequest, options?: RequestOptions): Promise<Payment>;
  /** Reads a payment (after 3DS, or any time). Retried on network failures. */
  get(paymentId: string, options?: RequestOptions): Promise<Payment>;
  /** Captures a PA in full or in part (CP); several partial captures are allowed. */
  capture(paymentId: string, request: CaptureRequest, options?: RequestOptions): Promise<Payment>;
  /** Refunds a debit or a capture (RF), in full or in part. */
  refund(paymentId: string, request: RefundRequest, options?: RequestOptions): Promise<Payment>;
  /** Reverses a PA (RV), releasing the held funds. */
  reverse(paymentId: string, request?: ReversalRequest, options?: RequestOptions): Promise<Payment>;
}

export function payments(transport: Transport): Payments {
  const reference = async (paymentId: string, paymentType: 'CP' | 'RF' | 'RV', request: { merchantTransactionId?: string }, options?: RequestOptions) => {
    const path = `/v1/payments/${pathId('paymentId', paymentId)}`;
    // Reports by order: the new transaction carries its order's reference unless the caller gives one.
    const merchantTransactionId = request?.merchantTransactionId ?? (await orderReferenceOf(transport, paymentId, options));
    return movePayment(transport, { path, operation: 'reference', request: { ...request, paymentType, merchantTransactionId }, referencedId: paymentId }, options);
  };

  return {
    create: (request, options) => movePayment(transport, { path: '/v1/payments', operation: 'payment', request }, options),
    async get(paymentId, options) {
      return settle(await transport.send<Payment>({ ...options, method: 'GET', path: `/v1/payments/${pathId('paymentId', paymentId)}` }));
    },
    capture: (paymentId, request, options) => reference(paymentId, 'CP', request, options),
    refund: (paymentId, request, options) => reference(paymentId, 'RF', request, options),
    reverse: (paymentId, request = {}, options) => reference(paymentId, 'RV', request, options),
  };
}
