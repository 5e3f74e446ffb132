/**
 * The wallets page's back end (demo/wallets.html): a checkout on the entity of
 * the brands the page shows (the server helper picks it from `brands`: a KSA
 * merchant's MADA entity carries MADA, Apple Pay and STC Pay, the card entity
 * VISA, MASTER and Google Pay), and the shopper's return read on that entity.
 */
import type { GatewayClient, PaymentBrand } from 'gw-elements/server';

/** The page's two set-ups: the entity of each is the one of its brands. */
export const WALLET_SETUPS = {
  mada: { label: 'MADA entity: Apple Pay, STC Pay, mada cards', brands: ['APPLEPAY', 'STC_PAY', 'MADA'] },
  cards: { label: 'Card entity: Google Pay, VISA, Mastercard', brands: ['GOOGLEPAY', 'VISA', 'MASTER'] },
} as const satisfies Record<string, { label: string; brands: readonly PaymentBrand[] }>;

export type WalletSetup = keyof typeof WALLET_SETUPS;

/** The sample order the page pays: 45.00 SAR, a Saudi shop's currency. */
export function createWalletCheckout(gateway: GatewayClient, setup: WalletSetup) {
  return gateway.checkouts.create({ amount: '45.00', currency: 'SAR', paymentType: 'DB' }, { brands: WALLET_SETUPS[setup].brands });
}

/** What the page shows of the payment after the shopper's return: how the platform reports it. */
export async function walletReturn(gateway: GatewayClient, query: { id?: string; resourcePath?: string }) {
  const payment = await gateway.handleShopperReturn({ id: query.id ?? '', resourcePath: query.resourcePath ?? '' });
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
