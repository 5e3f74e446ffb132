/** The card payment routes: a server-to-server debit with 3-D Secure, the shopper's return from it, and its status. */
import type { Request } from 'express';
import { z } from 'zod';
import { amount, browserInput, cardInput, challengeWindow, reference, shopperReturnQuery } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';
import { browserFrom, cardFrom, threeDsReturnUrl } from '../shopper.js';

export const payByCardInput = input({ body: cardInput.extend({ amount, challengeWindow, browser: browserInput }) });
export function payByCard({ body }: z.infer<typeof payByCardInput>, { cardPayments, gateway }: MerchantContext, request: Request) {
  return cardPayments.pay(
    gateway,
    cardFrom(body),
    body.amount,
    browserFrom(request, body.browser, body.challengeWindow),
    threeDsReturnUrl(request),
  );
}

export const cardPaymentReturnInput = input({ query: shopperReturnQuery });
export function cardPaymentReturn({ query }: z.infer<typeof cardPaymentReturnInput>, { cardPayments, gateway }: MerchantContext) {
  return cardPayments.shopperReturn(gateway, query);
}

export const cardPaymentStatusInput = input({ query: z.object({ id: reference }) });
export function cardPaymentStatus({ query }: z.infer<typeof cardPaymentStatusInput>, { cardPayments, gateway }: MerchantContext) {
  return cardPayments.status(gateway, query.id);
}
