/**
 * The two routes a checkout page needs, written once without a framework:
 * create a checkout for an order, and handle the shopper's return. The
 * Express, Fastify, Hono and node:http examples only adapt them.
 */
import { GatewayError, toOutcome, type GatewayClient, type Outcome } from 'gw-elements/server';

export interface Order {
  readonly amount: string;
  readonly currency: string;
}

/** A route's answer, for the framework to send. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Stands for the shop's order database: the amount always comes from here, never from the browser.
 * `checkoutOrders` (which order each checkout pays) belongs to that database too: share it between instances.
 */
export function createShop(client: GatewayClient, orders: ReadonlyMap<string, Order>, checkoutOrders = new Map<string, Order>()) {
  return {
    /** POST /checkout {orderId} → {checkoutId, integrity} for <gw-checkout>. */
    async createCheckout(orderId: unknown): Promise<Answer> {
      const order = typeof orderId === 'string' ? orders.get(orderId) : undefined;
      if (!order) return { status: 404, body: { error: 'unknown order' } };
      try {
        const checkout = await client.checkouts.create({ ...order, paymentType: 'DB', merchantTransactionId: orderId as string });
        checkoutOrders.set(checkout.id, order);
        return { status: 200, body: { checkoutId: checkout.id, integrity: checkout.integrity } };
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error; // a bug: let the framework answer 500
        console.error(error); // refused or unreachable gateway; its errors hold no token or card data
        return { status: 502, body: { error: 'The payment service is unavailable. Please try again in a moment.' } };
      }
    },

    /** GET /payment-result?id=…&resourcePath=… → the outcome, verified against the order. */
    async paymentResult(query: { id?: unknown; resourcePath?: unknown }): Promise<Answer> {
      const order = typeof query.id === 'string' ? checkoutOrders.get(query.id) : undefined;
      if (!order) return { status: 404, body: { error: 'unknown checkout' } };
      // One outcome for whatever happened: a payment (approved, pending) or an error (declined, expired, ...).
      const outcome = await toOutcome(
        client.handleShopperReturn(query).then((payment) => client.verifyPayment(payment, { checkoutId: query.id as string, ...order, paymentType: 'DB' })),
      );
      return answerFor(outcome);
    },
  };
}

/** A payment's outcome (the client's one mapping, `outcomeOf`) as an HTTP answer to the shop's own page. Log `outcome.error` (safe to log) when there is one. */
export function answerFor(outcome: Outcome): Answer {
  switch (outcome.kind) {
    case 'approved':
      return { status: 200, body: { status: 'paid', paymentId: outcome.payment.id } };
    case 'pending':
      return { status: 202, body: { status: 'pending' } };
    // Uncertain: never charge again; a job re-checks reports.findByMerchantTransactionId(outcome.merchantTransactionId).
    case 'uncertain':
      return { status: 202, body: { status: 'checking' } };
    case 'declined':
      return { status: 402, body: { status: 'declined', code: outcome.resultCode } };
    case 'invalid':
      return { status: 400, body: { status: 'invalid', fields: outcome.parameterErrors.map((problem) => problem.name) } };
    case 'not_found':
      return { status: 410, body: { status: 'expired' } };
    case 'throttled':
      return { status: 429, body: { status: 'retry' }, headers: { 'retry-after': String(outcome.retryAfterSeconds ?? 60) } };
    // Do not ship: the payment is not this order's (mismatch), or will expire unpaid (stranded).
    case 'mismatch':
    case 'stranded':
      return { status: 409, body: { status: outcome.kind } };
    default:
      return { status: 502, body: { status: 'error', kind: outcome.kind } };
  }
}
