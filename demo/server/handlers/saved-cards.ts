/** The saved-card routes: save a card without paying, pay in one click with a saved one, delete one. */
import { z } from 'zod';
import { reference, shopperReturnQuery } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';

export function listCards(_input: unknown, { savedCards }: MerchantContext) {
  return { cards: savedCards.cards() };
}

export function saveCheckout(_input: unknown, { savedCards, gateway }: MerchantContext) {
  return savedCards.saveCheckout(gateway);
}

export const saveReturnInput = input({ query: shopperReturnQuery });
export async function saveReturn({ query }: z.infer<typeof saveReturnInput>, { savedCards, gateway }: MerchantContext) {
  return { ...(await savedCards.saveReturn(gateway, query)), cards: savedCards.cards() };
}

export function oneClickCheckout(_input: unknown, { savedCards, gateway }: MerchantContext) {
  return savedCards.oneClickCheckout(gateway);
}

export const payReturnInput = input({ query: shopperReturnQuery });
export function payReturn({ query }: z.infer<typeof payReturnInput>, { savedCards, gateway }: MerchantContext) {
  return savedCards.payReturn(gateway, query);
}

export const deleteCardInput = input({ params: z.object({ id: reference }) });
export async function deleteCard({ params }: z.infer<typeof deleteCardInput>, { savedCards, gateway }: MerchantContext) {
  return { ...(await savedCards.delete(gateway, params.id)), cards: savedCards.cards() };
}
