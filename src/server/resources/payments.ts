/** 4. Server-to-server payments, 5. payment status, 6. capture, refund and reversal. */
import { settle } from '../answers.js';
import { movePayment } from '../reconcile.js';
import { flatten, type RequestOptions, type Transport } from '../request.js';
import type { CaptureRequest, Payment, PaymentRequest, RefundRequest, ReversalRequest } from '../types.js';
import { pathId } from './path.js';
import { orderReferenceOf } from './reports.js';

/**
 * The payment a capture, refund or reversal refers to: its id, or the payment
 * itself as the caller holds it (an answer of this client, a report entry, or
 * the id and merchantTransactionId kept in the order). Given the payment, the
 * new transaction is filed under its merchantTransactionId in one request.
 */
export type ReferencedPayment = string | { readonly id: string; readonly merchantTransactionId?: string | undefined };

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
  /** Captures a PA in full or in part (CP); several partial captures are allowed. Filed under the PA's merchantTransactionId unless the request names one. */
  capture(payment: ReferencedPayment, request: CaptureRequest, options?: RequestOptions): Promise<Payment>;
  /** Refunds a debit or a capture (RF), in full or in part. Filed under the refunded payment's merchantTransactionId unless the request names one. */
  refund(payment: ReferencedPayment, request: RefundRequest, options?: RequestOptions): Promise<Payment>;
  /** Reverses a PA (RV), releasing the held funds. Filed under the PA's merchantTransactionId unless the request names one. */
  reverse(payment: ReferencedPayment, request?: ReversalRequest, options?: RequestOptions): Promise<Payment>;
}

export function payments(transport: Transport): Payments {
  const reference = async (
    referenced: ReferencedPayment,
    paymentType: 'CP' | 'RF' | 'RV',
    request: { merchantTransactionId?: string },
    options?: RequestOptions,
  ) => {
    const held = typeof referenced === 'object' && referenced !== null;
    const paymentId = held ? referenced.id : referenced;
    const path = `/v1/payments/${pathId(transport, 'paymentId', paymentId)}`;
    // Bad options and request data naming the entity are refused before the look-up below is sent, not after.
    transport.validate({ options, method: 'POST', path, params: flatten({ ...request, paymentType }) });
    // Reports by order: the new transaction carries its order's reference unless the caller gives one. From the
    // payment the caller holds it costs nothing; from a bare id it costs one read (never a second money-moving request).
    const movement = { path, operation: 'reference' as const, request: { ...request, paymentType }, referencedId: paymentId };
    const lookUp = request?.merchantTransactionId === undefined && !held;
    // A request that would be refused is refused before the look-up too: nothing at all is sent.
    if (lookUp)
      transport.validate({
        options,
        method: 'POST',
        path,
        operation: 'reference',
        params: flatten(movement.request),
        redact: transport.redactorFor(flatten(movement.request)),
      });
    const merchantTransactionId =
      request?.merchantTransactionId ?? (held ? referenced.merchantTransactionId : await orderReferenceOf(transport, paymentId, options));
    return movePayment(transport, { ...movement, request: { ...movement.request, merchantTransactionId } }, options);
  };

  return {
    create: (request, options) => movePayment(transport, { path: '/v1/payments', operation: 'payment', request }, options),
    async get(paymentId, options) {
      return settle(
        await transport.send<Payment>({ options, method: 'GET', path: `/v1/payments/${pathId(transport, 'paymentId', paymentId)}` }),
      );
    },
    capture: (payment, request, options) => reference(payment, 'CP', request, options),
    refund: (payment, request, options) => reference(payment, 'RF', request, options),
    reverse: (payment, request = {}, options) => reference(payment, 'RV', request, options),
  };
}
