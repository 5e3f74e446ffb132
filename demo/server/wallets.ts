/**
 * The wallets page's back end (demo/wallets.html): a checkout on the entity of
 * the brands the page shows (the server helper picks it from `brands`: a KSA
 * merchant's MADA entity carries MADA, Apple Pay and STC Pay, the card entity
 * VISA, MASTER and Google Pay), and the shopper's return read on that entity.
 */
import type { GatewayClient, PaymentBrand } from 'gw-elements/server';
import { NotFound } from './input.js';

/** The page's two set-ups: the entity of each is the one of its brands. */
export const WALLET_SETUPS = {
  mada: { label: 'MADA entity: Apple Pay, STC Pay, mada cards', brands: ['APPLEPAY', 'STC_PAY', 'MADA'] },
  cards: { label: 'Card entity: Google Pay, VISA, Mastercard', brands: ['GOOGLEPAY', 'VISA', 'MASTER'] },
} as const satisfies Record<string, { label: string; brands: readonly PaymentBrand[] }>;

export type WalletSetup = keyof typeof WALLET_SETUPS;

/** The sample order the page pays: 45.00 SAR, a Saudi shop's currency. */
const ORDER = { amount: '45.00', currency: 'SAR', paymentType: 'DB' } as const;
/** Checkouts the page keeps, newest last: a return for an older one (or one this page never made) is refused. */
const KEPT = 1000;

/** The wallets page's checkouts: made on the entity of the page's brands, and each return read only for one of them. */
export class WalletPayments {
  readonly #checkouts = new Set<string>();

  async createCheckout(gateway: GatewayClient, setup: WalletSetup) {
    const checkout = await gateway.checkouts.create(ORDER, { brands: WALLET_SETUPS[setup].brands });
    this.#checkouts.add(checkout.id);
    for (const oldest of this.#checkouts) {
      if (this.#checkouts.size <= KEPT) break;
      this.#checkouts.delete(oldest);
    }
    return checkout;
  }

  /** What the page shows of the payment after the shopper's return: how the platform reports it, verified against the page's order. */
  async shopperReturn(gateway: GatewayClient, query: { id?: string; resourcePath?: string }) {
    const checkoutId = query.id ?? '';
    // Another page's checkout (an order's, say) is not this page's payment, whatever it paid.
    if (!this.#checkouts.has(checkoutId)) throw new NotFound('no wallet checkout with this id');
    const payment = gateway.verifyPayment(await gateway.handleShopperReturn({ id: checkoutId, resourcePath: query.resourcePath ?? '' }), {
      checkoutId,
      ...ORDER,
    });
    return {
      payment: {
        paymentBrand: payment.paymentBrand,
        paymentType: payment.paymentType,
        amount: payment.amount,
        currency: payment.currency,
        result: payment.result,
        last4Digits: payment.card?.last4Digits,
      },
    };
  }
}
