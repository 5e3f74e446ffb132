/** The wallets page's routes (demo/wallets.html): a checkout on the entity of the brands the page shows, and its return. */
import type { z } from 'zod';
import { shopperReturnQuery } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';
import { createWalletCheckout, walletCheckoutInput, walletReturn } from '../wallets.js';

export const checkoutInput = input({ body: walletCheckoutInput });
export function checkout({ body }: z.infer<typeof checkoutInput>, { gateway }: MerchantContext) {
  return createWalletCheckout(gateway, body.brands);
}

export const paymentInput = input({ query: shopperReturnQuery });
export function payment({ query }: z.infer<typeof paymentInput>, { gateway }: MerchantContext) {
  return walletReturn(gateway, query);
}
