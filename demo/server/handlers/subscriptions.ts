/** The subscription routes: sign up with a saved card, the monthly billing run, cancelling. */
import type { Request } from 'express';
import { z } from 'zod';
import { PLAN } from '../catalogue.js';
import { BadRequest, browserInput, cardInput, challengeWindow, reference, shopperReturnQuery } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';
import { browserFrom, cardFrom, threeDsReturnUrl } from '../shopper.js';

export function listSubscriptions(_input: unknown, { subscriptions, gatewayNow, advanceGatewayClock }: MerchantContext) {
  return {
    plan: PLAN,
    subscriptions: subscriptions.list(),
    now: new Date(gatewayNow()).toISOString(),
    canMoveClock: Boolean(advanceGatewayClock),
  };
}

export const signUpInput = input({ body: cardInput.extend({ challengeWindow, browser: browserInput }) });
export function signUp({ body }: z.infer<typeof signUpInput>, { subscriptions, gateway }: MerchantContext, request: Request) {
  return subscriptions.signUp(gateway, cardFrom(body), browserFrom(request, body.browser, body.challengeWindow), threeDsReturnUrl(request));
}

export const signUpReturnInput = input({ query: shopperReturnQuery });
export function signUpReturn({ query }: z.infer<typeof signUpReturnInput>, { subscriptions, gateway }: MerchantContext) {
  return subscriptions.signUpReturn(gateway, query);
}

/** A month on the gateway's clock (31 days, so every monthly charge comes due), then the shop's billing run. */
export async function nextMonth(_input: unknown, context: MerchantContext) {
  if (!context.advanceGatewayClock) throw new BadRequest('only the sandbox gateway can move its clock');
  context.advanceGatewayClock(31 * 24 * 3600);
  const charges = await context.subscriptions.chargeDue(context.gateway);
  return { charges, ...listSubscriptions(undefined, context) };
}

export const cancelInput = input({ params: z.object({ id: reference }) });
export async function cancel({ params }: z.infer<typeof cancelInput>, { subscriptions, gateway }: MerchantContext) {
  return { subscription: await subscriptions.cancel(gateway, params.id) };
}
