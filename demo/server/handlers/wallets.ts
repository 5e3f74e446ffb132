/** The wallets page's return route (demo/wallets.html): the payment read on the entity of its brands. */
import type { z } from 'zod';
import { shopperReturnQuery } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';

export const paymentInput = input({ query: shopperReturnQuery });
export function payment({ query }: z.infer<typeof paymentInput>, { gateway, wallets }: MerchantContext) {
  return wallets.shopperReturn(gateway, query);
}
