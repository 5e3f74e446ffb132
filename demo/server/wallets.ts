/**
 * The wallets page's back end (demo/wallets.html): a checkout on the entity of
 * the brands the page shows (the server helper picks it from `brands`: a KSA
 * merchant's MADA entity carries MADA, Apple Pay and STC Pay, the card entity
 * VISA, MASTER and Google Pay), and the shopper's return read on that entity.
 */
import { z } from 'zod';
import { PAYMENT_BRANDS, type GatewayClient } from 'gw-elements/server';

/** The page's request: the brands its one `<gw-checkout>` shows. */
export const walletCheckoutInput = z.object({ brands: z.array(z.enum(PAYMENT_BRANDS)).min(1).max(PAYMENT_BRANDS.length) });

/** The sample order the page pays: 45.00 SAR, a Saudi shop's currency. */
export async function createWalletCheckout(gateway: GatewayClient, brands: z.infer<typeof walletCheckoutInput>['brands']) {
  const checkout = await gateway.checkouts.create({ amount: '45.00', currency: 'SAR', paymentType: 'DB' }, { brands });
  return { id: checkout.id, integrity: checkout.integrity ?? '' };
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
