/** Server-to-server payments, their status, their capture, refund and reversal. */
import { boundAnswer } from '../binding.js';
import { isPaymentAnswer, settleRead } from '../interpret.js';
import { movePayment } from '../reconcile.js';
import { readable, type RequestOptions, type Transport } from '../request.js';
import type { CaptureRequest, Payment, PaymentRequest, RefundRequest, ReversalRequest } from '../types.js';
import { pathId } from './path.js';

/**
 * The payment a capture, refund or reversal refers to: its id, or the payment
 * itself as the caller holds it (an answer of this client, a report entry, or
 * the id and merchantTransactionId kept in the order). Either way the new
 * transaction is one request; given the payment, it is filed under the
 * payment's merchantTransactionId (a bare id reads nothing to find it).
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
  /** Captures a PA in full or in part (CP); several partial captures are allowed. One request; filed under the request's merchantTransactionId, else the held PA's (a bare id: a new one). */
  capture(payment: ReferencedPayment, request: CaptureRequest, options?: RequestOptions): Promise<Payment>;
  /** Refunds a debit or a capture (RF), in full or in part. One request; filed under the request's merchantTransactionId, else the held payment's (a bare id: a new one). */
  refund(payment: ReferencedPayment, request: RefundRequest, options?: RequestOptions): Promise<Payment>;
  /** Reverses a PA (RV), releasing the held funds. One request; filed under the request's merchantTransactionId, else the held PA's (a bare id: a new one). */
  reverse(payment: ReferencedPayment, request?: ReversalRequest, options?: RequestOptions): Promise<Payment>;
}

export function payments(transport: Transport): Payments {
  /**
   * A capture, refund or reversal is one POST and depends on nothing read before it: a read that fails (a 5xx, a
   * token without the reporting permission, a throttle) must never keep money from moving, nor cost a round trip.
   * It is filed under its order's merchantTransactionId when the caller gives it (the request's, or the payment as
   * held); from a bare id it carries a fresh one, and the platform links it to its payment by `referencedId`.
   */
  const reference = async (
    referenced: ReferencedPayment,
    paymentType: 'CP' | 'RF' | 'RV',
    request: { merchantTransactionId?: string },
    options?: RequestOptions,
  ) => {
    const held = typeof referenced === 'object' && referenced !== null;
    const paymentId = held ? readable('payment', () => referenced.id) : referenced;
    const merchantTransactionId = readable(
      'merchantTransactionId',
      () => request?.merchantTransactionId ?? (held ? referenced.merchantTransactionId : undefined),
    );
    return movePayment(
      transport,
      {
        path: `/v1/payments/${pathId(transport, 'paymentId', paymentId)}`,
        operation: 'reference',
        request: { ...request, paymentType, ...(merchantTransactionId === undefined ? {} : { merchantTransactionId }) },
        referencedId: paymentId,
      },
      options,
    );
  };

  return {
    create: (request, options) => movePayment(transport, { path: '/v1/payments', operation: 'payment', request }, options),
    async get(paymentId, options) {
      const answer = await transport.send<Payment>({
        options,
        method: 'GET',
        path: `/v1/payments/${pathId(transport, 'paymentId', paymentId)}`,
      });
      const what = `payment ${paymentId}'s read`;
      const redact = transport.redactorFor({});
      // Bound before it is read: a refusal carrying another payment is not this payment's refusal either.
      if (isPaymentAnswer(answer.body)) boundAnswer(answer.body, { id: paymentId }, what, redact);
      return settleRead(answer, what, redact);
    },
    capture: (payment, request, options) => reference(payment, 'CP', request, options),
    refund: (payment, request, options) => reference(payment, 'RF', request, options),
    reverse: (payment, request = {}, options) => reference(payment, 'RV', request, options),
  };
}
