/** 4. Server-to-server payments, 5. payment status, 6. capture, refund and reversal. */
import { movePayment, settle } from '../reconcile.js';
import type { RequestOptions, Transport } from '../request.js';
import type { CaptureRequest, Payment, PaymentRequest, RefundRequest, ReversalRequest } from '../types.js';
import { pathId } from './path.js';

export function payments(transport: Transport) {
  const reference = async (paymentId: string, paymentType: 'CP' | 'RF' | 'RV', request: object, options?: RequestOptions) =>
    movePayment(transport, `/v1/payments/${pathId('paymentId', paymentId)}`, 'reference', { ...request, paymentType }, options);

  return {
    /**
     * A debit (DB) or preauthorisation (PA) with card data, or an account
     * funding payment. Answers the approved payment, or the pending one whose
     * `redirect` drives `<gw-3ds-handler>`; throws `GatewayDeclinedError` otherwise.
     */
    create: (request: PaymentRequest, options?: RequestOptions): Promise<Payment> => movePayment(transport, '/v1/payments', 'payment', request, options),

    /** Reads a payment (after 3DS, or any time). GETs are retried on network failures. */
    async get(paymentId: string, options?: RequestOptions): Promise<Payment> {
      return settle(await transport.send<Payment>({ ...options, method: 'GET', path: `/v1/payments/${pathId('paymentId', paymentId)}` }));
    },

    /** Captures a PA in full or in part (CP); several partial captures are allowed. */
    capture: (paymentId: string, request: CaptureRequest, options?: RequestOptions) => reference(paymentId, 'CP', request, options),

    /** Refunds a captured or debited payment (RF), in full or in part. */
    refund: (paymentId: string, request: RefundRequest, options?: RequestOptions) => reference(paymentId, 'RF', request, options),

    /** Reverses a PA (RV), releasing the held funds. */
    reverse: (paymentId: string, request: ReversalRequest = {}, options?: RequestOptions) => reference(paymentId, 'RV', request, options),
  };
}

