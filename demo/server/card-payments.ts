/**
 * Card payments server to server: the shop sends the card details itself
 * (a debit, DB), 3-D Secure answers pending with the redirect for
 * `<gw-3ds-handler>`, and the shopper's return is read and verified against
 * what was sent.
 */
import type { GatewayClient, ShopperReturn } from 'gw-elements/server';
import { CURRENCY } from './catalogue.js';
import { newReference, type DemoDatabase } from './database.js';
import { NotFound } from './input.js';
import { answerOf } from './payment-answer.js';
import { brandOf, threeDsShopper, type BrowserContext, type ShopperCard } from './shopper.js';
import type { PaymentAnswer } from './views.js';

export class CardPayments {
  /** What each payment was sent with, by its id: its return is verified against it. */
  readonly #sent = new Map<string, { amount: string; currency: string }>();

  constructor(private readonly database: DemoDatabase) {}

  /** A debit with the card; 3-D Secure answers pending with the redirect for `<gw-3ds-handler>`. */
  async pay(gateway: GatewayClient, card: ShopperCard, amount: string, browser: BrowserContext, shopperResultUrl: string) {
    const paymentBrand = brandOf(card.number);
    const merchantTransactionId = newReference(this.database, 'card', 'Card payment (server-to-server, 3-D Secure)');
    const { answer, outcome } = await answerOf(
      gateway.payments.create({
        paymentType: 'DB',
        paymentBrand,
        amount,
        currency: CURRENCY,
        merchantTransactionId,
        card,
        ...threeDsShopper(browser, shopperResultUrl),
      }),
      'Payment approved without a challenge.',
    );
    if (answer.payment) this.#sent.set(answer.payment.id, { amount, currency: CURRENCY });
    return { ...answer, ...(outcome.kind === 'pending' && outcome.redirect ? { redirect: outcome.redirect } : {}) };
  }

  /**
   * The payment as it stands, verified against what was sent: after 3-D Secure stopped on the page (a timeout, a
   * refused frame) it may still be approved, pending or declined; the page asks before it offers a new payment.
   */
  async status(gateway: GatewayClient, id: string): Promise<PaymentAnswer> {
    const expected = this.#sent.get(id);
    if (!expected) throw new NotFound('no card payment with this id');
    const { answer } = await answerOf(
      gateway.payments.get(id).then((payment) => gateway.verifyPayment(payment, { id, ...expected, paymentType: 'DB' })),
      'Payment approved.',
    );
    return answer;
  }

  /** The shopper is back from 3-D Secure: the payment's status, verified against what was sent. */
  async shopperReturn(gateway: GatewayClient, query: ShopperReturn): Promise<PaymentAnswer> {
    const expected = typeof query.id === 'string' ? this.#sent.get(query.id) : undefined;
    if (!expected) throw new NotFound('no card payment with this id');
    const { answer } = await answerOf(
      gateway
        .handleShopperReturn(query)
        .then((payment) => gateway.verifyPayment(payment, { id: String(query.id), ...expected, paymentType: 'DB' })),
      'Payment approved after 3-D Secure.',
    );
    return answer;
  }
}
