/**
 * The two routes a checkout page needs, written once without a framework:
 * create a checkout for an order, and handle the shopper's return. The
 * Express, Fastify, Hono and node:http examples only adapt them.
 * (In your app, import from 'gw-elements/server'.)
 */
import {
  classifyResult,
  GatewayDeclinedError,
  GatewayError,
  GatewayNotFoundError,
  GatewayThrottledError,
  GatewayValidationError,
  UncertainOutcomeError,
  type GatewayClient,
} from '../../../src/server/index.js';

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
      const checkout = await client.checkouts.create({ ...order, paymentType: 'DB', merchantTransactionId: orderId as string });
      checkoutOrders.set(checkout.id, order);
      return { status: 200, body: { checkoutId: checkout.id, integrity: checkout.integrity } };
    },

    /** GET /payment-result?id=…&resourcePath=… → the outcome, verified against the order. */
    async paymentResult(query: { id?: unknown; resourcePath?: unknown }): Promise<Answer> {
      const order = typeof query.id === 'string' ? checkoutOrders.get(query.id) : undefined;
      if (!order) return { status: 404, body: { error: 'unknown checkout' } };
      try {
        const payment = await client.handleShopperReturn(query);
        if (classifyResult(payment.result.code) === 'pending') return { status: 202, body: { status: 'pending' } };
        client.verifyPayment(payment, { checkoutId: query.id as string, ...order, paymentType: 'DB' });
        return { status: 200, body: { status: 'paid', paymentId: payment.id } };
      } catch (error) {
        return answerFor(error);
      }
    },
  };
}

/** The gateway's errors as HTTP answers to the shop's own page. Log `error` (it is safe to log) before answering. */
export function answerFor(error: unknown): Answer {
  if (error instanceof GatewayDeclinedError) return { status: 402, body: { status: 'declined', code: error.resultCode } };
  if (error instanceof GatewayThrottledError) {
    return { status: 429, body: { status: 'retry' }, headers: { 'retry-after': String(error.retryAfterSeconds ?? 60) } };
  }
  if (error instanceof GatewayValidationError) return { status: 400, body: { status: 'invalid', fields: error.parameterErrors.map((problem) => problem.name) } };
  if (error instanceof GatewayNotFoundError) return { status: 410, body: { status: 'expired' } };
  // Uncertain: never charge again; a job re-checks reports.findByMerchantTransactionId(error.merchantTransactionId).
  if (error instanceof UncertainOutcomeError) return { status: 202, body: { status: 'checking' } };
  if (error instanceof GatewayError) return { status: 502, body: { status: 'error', name: error.name } };
  throw error;
}
