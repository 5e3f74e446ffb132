/** The saved-card routes: save a card without paying, pay in one click with a saved one, delete one. */
import { z } from 'zod';
import { reference, shopperReturnQuery } from '../input.js';
import { input, type MerchantContext } from '../route.js';

export function listCards(_input: unknown, { wallet }: MerchantContext) {
  return { cards: wallet.cards() };
}

export function saveCheckout(_input: unknown, { wallet, gateway }: MerchantContext) {
  return wallet.saveCheckout(gateway);
}

export const saveReturnInput = input({ query: shopperReturnQuery });
export async function saveReturn({ query }: z.infer<typeof saveReturnInput>, { wallet, gateway }: MerchantContext) {
  return { ...(await wallet.saveReturn(gateway, query)), cards: wallet.cards() };
}

export function oneClickCheckout(_input: unknown, { wallet, gateway }: MerchantContext) {
  return wallet.oneClickCheckout(gateway);
}

export const payReturnInput = input({ query: shopperReturnQuery });
export function payReturn({ query }: z.infer<typeof payReturnInput>, { wallet, gateway }: MerchantContext) {
  return wallet.payReturn(gateway, query);
}

export const deleteCardInput = input({ params: z.object({ id: reference }) });
export async function deleteCard({ params }: z.infer<typeof deleteCardInput>, { wallet, gateway }: MerchantContext) {
  return { ...(await wallet.delete(gateway, params.id)), cards: wallet.cards() };
}
