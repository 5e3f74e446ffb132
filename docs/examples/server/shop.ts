/**
 * The routes a checkout page needs, written once without a framework: the
 * payment page with its checkout rendered into the HTML (or, for a page that
 * mounts `<gw-checkout>` by script, the checkout as JSON), and the shopper's
 * return. The Express, Fastify, Hono and node:http examples only adapt them.
 */
import { GatewayError, renderCheckout, toOutcome, type GatewayClient, type Outcome, type RenderCheckoutOptions } from 'gw-elements/server';

export interface Order {
  readonly amount: string;
  readonly currency: string;
}

/** A route's answer, for the framework to send: JSON for the shop's scripts, or a whole HTML page (a string). */
export interface Answer {
  status: number;
  body: Record<string, unknown> | string;
  headers?: Record<string, string>;
}

/**
 * Where the payment page's checkout runs: `baseUrl` (the gateway's, as the client's), `shopperResultUrl` (your page
 * the shopper comes back to; it sends `id` and `resourcePath` to /payment-result) and `elementScript` (your module
 * that imports 'gw-elements/checkout', loaded once the widget is ready).
 */
export type PaymentPage = Pick<RenderCheckoutOptions, 'baseUrl' | 'shopperResultUrl' | 'elementScript'>;

const html = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>Pay</title></head><body>${body}</body></html>`;
const HTML = { 'content-type': 'text/html; charset=utf-8' };

/**
 * Stands for the shop's order database: the amount always comes from here, never from the browser.
 * `checkoutOrders` (which order each checkout pays) belongs to that database too: share it between instances.
 */
export function createShop(
  client: GatewayClient,
  orders: ReadonlyMap<string, Order>,
  page: PaymentPage,
  checkoutOrders = new Map<string, Order>(),
) {
  /** A new checkout for the order, or why there is none (status and a message for the shopper). */
  async function newCheckout(orderId: unknown) {
    const order = typeof orderId === 'string' ? orders.get(orderId) : undefined;
    if (!order) return { status: 404, error: 'Unknown order.' };
    try {
      const checkout = await client.checkouts.create({ ...order, paymentType: 'DB', merchantTransactionId: orderId as string });
      checkoutOrders.set(checkout.id, order);
      return { checkout, order };
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error; // a bug: let the framework answer 500
      console.error(error); // refused or unreachable gateway; its errors hold no token or card data
      return { status: 502, error: 'The payment service is unavailable. Please try again in a moment.' };
    }
  }

  return {
    /** GET /pay?orderId=… → the payment page, its checkout in the HTML: the widget starts while the page parses. */
    async paymentPage(orderId: unknown): Promise<Answer> {
      const made = await newCheckout(orderId);
      if (!made.checkout) return { status: made.status, body: html(`<p role="alert">${made.error}</p>`), headers: HTML };
      const form = renderCheckout(made.checkout, page);
      const title = `<h1>Pay ${made.order.amount} ${made.order.currency}</h1>`;
      return { status: 200, body: html(title + form.html, form.head), headers: { ...HTML, link: form.link } };
    },

    /** POST /checkout {orderId} → {checkoutId, integrity}, for a page that mounts <gw-checkout> by script (a single-page app). */
    async createCheckout(orderId: unknown): Promise<Answer> {
      const made = await newCheckout(orderId);
      if (!made.checkout) return { status: made.status, body: { error: made.error } };
      return { status: 200, body: { checkoutId: made.checkout.id, integrity: made.checkout.integrity } };
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
