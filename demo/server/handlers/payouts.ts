/** The payout routes: register a card to pay out to, list the registered cards, send a credit to one. */
import { z } from 'zod';
import { amount, cardInput, reference } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';
import { cardFrom } from '../shopper.js';

export function listPayoutCards(_input: unknown, { payouts }: MerchantContext) {
  return { payoutCards: payouts.cards() };
}

export const registerCardInput = input({ body: cardInput });
export function registerCard({ body }: z.infer<typeof registerCardInput>, { payouts, gateway }: MerchantContext) {
  return payouts.registerCard(gateway, cardFrom(body));
}

export const payoutInput = input({ body: z.object({ registrationId: reference, amount }) });
export function payout({ body }: z.infer<typeof payoutInput>, { payouts, gateway }: MerchantContext) {
  return payouts.pay(gateway, body.registrationId, body.amount);
}
