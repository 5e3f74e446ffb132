/** The card payment routes: a server-to-server debit with 3-D Secure, and the shopper's return from it. */
import type { Request } from 'express';
import type { z } from 'zod';
import { amount, browserInput, cardInput, challengeWindow, shopperReturnQuery } from '../input.js';
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
