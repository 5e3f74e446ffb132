/** The preauthorisation routes: hold an amount, capture parts of it, refund a capture, release the hold. */
import type { Request } from 'express';
import { z } from 'zod';
import { amount, cardInput, reference } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';
import { cardFrom, shopperIp } from '../shopper.js';

export function listReservations(_input: unknown, { reservations }: MerchantContext) {
  return { reservations: reservations.list() };
}

export const reserveInput = input({ body: cardInput.extend({ amount }) });
export function reserve({ body }: z.infer<typeof reserveInput>, { reservations, gateway }: MerchantContext, request: Request) {
  return reservations.reserve(gateway, cardFrom(body), body.amount, shopperIp(request));
}

const reservation = z.object({ id: reference });

export const captureInput = input({ params: reservation, body: z.object({ amount }) });
export function capture({ params, body }: z.infer<typeof captureInput>, { reservations, gateway }: MerchantContext) {
  return reservations.capture(gateway, params.id, body.amount);
}

export const refundInput = input({ params: reservation, body: z.object({ captureId: reference, amount }) });
export function refund({ params, body }: z.infer<typeof refundInput>, { reservations, gateway }: MerchantContext) {
  return reservations.refund(gateway, params.id, body.captureId, body.amount);
}

export const reverseInput = input({ params: reservation });
export function reverse({ params }: z.infer<typeof reverseInput>, { reservations, gateway }: MerchantContext) {
  return reservations.reverse(gateway, params.id);
}
