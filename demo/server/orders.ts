/**
 * The shop's orders, paid through the widget: the cart priced on the server, a
 * checkout opened for it (a new one when the shopper starts again after it
 * expired), the shopper's return read and verified against the order, and the
 * order's charges reconciled (`order-charges.ts`) from the return, a
 * notification or the reconciliation job. Every amount is decided here, never
 * by the page.
 */
import {
  CHECKOUT_LIFETIME_MS,
  GatewayError,
  isApproved,
  toAmount,
  type GatewayClient,
  type Payment,
  type ShopperReturn,
  type StatusStore,
} from 'gw-elements/server';
import { CURRENCY, priceCart, type CartLine } from './catalogue.js';
import { newReference, type DemoDatabase, type OrderRecord } from './database.js';
import { BadRequest, NotFound } from './input.js';
import { CHARGE_TYPES, OrderCharges } from './order-charges.js';
import { answerOf } from './payment-answer.js';
import type { OrderView, PaymentAnswer } from './views.js';

const APPROVED = 'Payment approved and verified against the order.';

export class Orders {
  readonly #charges: OrderCharges;

  constructor(
    /** Shared by every instance: which payment pays an order, and who refunds a second charge. */
    statusStore: StatusStore,
    private readonly database: DemoDatabase,
  ) {
    this.#charges = new OrderCharges(statusStore, database);
  }

  #order(id: string): OrderRecord {
    const order = this.database.orders.get(id);
    if (!order) throw new NotFound('no such order');
    return order;
  }

  #view(order: OrderRecord): OrderView {
    const { checkoutIds: _checkoutIds, paidBy: _paidBy, checkoutTimestamp: _timestamp, ...rest } = order;
    return { ...rest, currency: CURRENCY, lines: [...order.lines], attempts: [...order.attempts], refunds: [...order.refunds] };
  }

  /** Prices the cart and opens a checkout for it. */
  async create(gateway: GatewayClient, lines: readonly CartLine[]): Promise<OrderView> {
    const priced = priceCart(lines);
    const id = newReference(this.database, 'KC', 'Shop order paid with the widget');
    const order: OrderRecord = {
      id,
      lines: priced.lines.map(({ product, quantity }) => ({
        sku: product.sku,
        name: product.name,
        quantity,
        amount: toAmount(product.priceCents * quantity),
      })),
      amount: toAmount(priced.totalCents),
      status: 'awaiting_payment',
      checkoutId: '',
      integrity: '',
      checkoutExpiresAt: 0,
      checkoutIds: [],
      attempts: [],
      refunds: [],
    };
    await this.#openCheckout(gateway, order);
    this.database.orders.set(id, order);
    return this.#view(order);
  }

  async #openCheckout(gateway: GatewayClient, order: OrderRecord): Promise<void> {
    const requestedAt = Date.now();
    const checkout = await gateway.checkouts.create({
      amount: order.amount,
      currency: CURRENCY,
      paymentType: 'DB',
      // Every checkout of the order carries the order's id: the report by it finds each charge, whichever checkout took it.
      merchantTransactionId: order.id,
      customParameters: { OrderID: order.id },
    });
    order.checkoutId = checkout.id;
    order.checkoutIds.push(checkout.id);
    order.integrity = checkout.integrity ?? '';
    order.checkoutTimestamp = checkout.timestamp;
    // Counted from before the request, so the page never offers a checkout the gateway has already dropped.
    order.checkoutExpiresAt = requestedAt + CHECKOUT_LIFETIME_MS;
    if (order.status !== 'paid') order.status = 'awaiting_payment';
  }

  get(id: string): OrderView {
    return this.#view(this.#order(id));
  }

  /** The order's open checkout as the gateway answered it, for `renderCheckout`. */
  checkoutOf(id: string): { id: string; integrity: string; timestamp?: string } {
    const order = this.#order(id);
    return { id: order.checkoutId, integrity: order.integrity, ...(order.checkoutTimestamp ? { timestamp: order.checkoutTimestamp } : {}) };
  }

  /**
   * A new checkout for an order whose checkout expired: the "start again" path.
   * A 3-D Secure challenge on the old checkout may still be finished after
   * this; if both are paid, the second charge is refunded.
   */
  async restartCheckout(gateway: GatewayClient, id: string): Promise<OrderView> {
    const order = this.#order(id);
    if (order.status === 'paid') throw new BadRequest('this order is paid already');
    await this.#openCheckout(gateway, order);
    return this.#view(order);
  }

  /**
   * The shopper is back from the widget through any of the order's checkouts:
   * read, verify against the order, then reconcile every charge the order has
   * (the checkout's status cannot show a charge made on it after it expired,
   * the report by the order's reference can).
   */
  async shopperReturn(gateway: GatewayClient, id: string, query: ShopperReturn): Promise<PaymentAnswer & { order: OrderView }> {
    const order = this.#order(id);
    const checkoutId = typeof query.id === 'string' ? query.id : '';
    if (!order.checkoutIds.includes(checkoutId)) throw new BadRequest("this return is not about one of the order's checkouts");
    const { answer, outcome } = await answerOf(
      gateway
        .handleShopperReturn(query)
        .then((payment) => gateway.verifyPayment(payment, { checkoutId, amount: order.amount, currency: CURRENCY, paymentType: 'DB' })),
      APPROVED,
    );
    if (answer.payment && !order.attempts.some((attempt) => attempt.id === answer.payment?.id)) order.attempts.push(answer.payment);
    // Declined, pending or throttled: this checkout's own answer is the shopper's. Anything else may hide a charge.
    if (!['approved', 'not_found', 'uncertain'].includes(answer.outcome)) return { ...answer, order: this.#view(order) };
    try {
      await this.#charges.reconcile(gateway, order);
    } catch (error) {
      // The report could not be read: the payment this checkout showed still counts for itself; other charges wait for the next report.
      if (!(error instanceof GatewayError) || outcome.kind !== 'approved') throw error;
      await this.#charges.reconcile(gateway, order, [outcome.payment]);
    }
    return { ...this.#afterReconcile(order, checkoutId, answer), order: this.#view(order) };
  }

  /** What the shopper is told once the order's charges are reconciled: paid (by this payment or another), expired, or this answer. */
  #afterReconcile(order: OrderRecord, checkoutId: string, answer: PaymentAnswer): PaymentAnswer {
    const own = answer.payment?.id;
    if (order.status === 'paid' && own && answer.outcome === 'approved' && own !== order.paidBy) {
      const refund = order.refunds.find((candidate) => candidate.referencedId === own);
      const undone = refund?.paymentType === 'RV' ? 'released' : 'refunded';
      const message = refund
        ? `Order ${order.id} was already paid by another payment, so this payment of ${refund.amount} ${refund.currency} was ${undone} to your card.`
        : `Order ${order.id} was already paid by another payment, so this payment is being refunded to your card.`;
      return { outcome: 'refunded', message, ...(answer.payment ? { payment: answer.payment } : {}) };
    }
    // The checkout itself no longer shows its payment (it expired, or was read before): the report told what happened.
    const refund = answer.outcome === 'approved' ? undefined : order.refunds.at(-1);
    if (order.status === 'paid' && refund) {
      const undone = refund.paymentType === 'RV' ? 'released' : 'refunded';
      const message = `Order ${order.id} is paid once. A second charge for it of ${refund.amount} ${refund.currency} was ${undone} to your card.`;
      return { outcome: 'refunded', message };
    }
    if (order.status === 'paid') {
      const payment = order.attempts.find((attempt) => attempt.id === order.paidBy);
      return { outcome: 'approved', message: APPROVED, ...(payment ? { payment } : {}) };
    }
    // The gateway's answer to a status call on an expired (or consumed) checkout, and the report shows no charge: expiry.
    if (answer.outcome === 'not_found') {
      if (order.checkoutId === checkoutId) order.status = 'expired';
      return { outcome: 'expired', message: 'The payment session expired (checkouts live 30 minutes).' };
    }
    return answer;
  }

  /** What a reconciliation job does: every charge of the order, from the report by its reference, reconciled. */
  async reconcile(gateway: GatewayClient, id: string): Promise<OrderView> {
    const order = this.#order(id);
    await this.#charges.reconcile(gateway, order);
    return this.#view(order);
  }

  /**
   * A notification about a payment: when it is an approved charge of an order,
   * reconciles the order's charges. Undefined when it is not about an order;
   * 'not settled yet' when a refund could not be asked for (send it again).
   */
  async charged(
    gateway: GatewayClient,
    payment: Pick<Payment, 'merchantTransactionId' | 'result' | 'paymentType'>,
  ): Promise<'order paid' | 'second charge refunded' | 'not approved' | 'not settled yet' | undefined> {
    const order = this.database.orders.get(payment.merchantTransactionId ?? '');
    if (!order || !CHARGE_TYPES.has(payment.paymentType)) return undefined;
    if (!isApproved(payment.result.code)) return 'not approved';
    const { refundsOpen } = await this.#charges.reconcile(gateway, order);
    if (refundsOpen) return 'not settled yet';
    return order.refunds.length ? 'second charge refunded' : 'order paid';
  }
}
