/** The order routes: check out (the server prices the cart), read an order, start again, the shopper's return, reconcile. */
import { z } from 'zod';
import { cartSchema } from '../catalogue.js';
import { reference, shopperReturnQuery } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';

const order = input({ params: z.object({ id: reference }) });

export const createOrderInput = input({ body: z.object({ lines: cartSchema }) });
export async function createOrder({ body }: z.infer<typeof createOrderInput>, { orders, gateway }: MerchantContext) {
  return { order: await orders.create(gateway, body.lines) };
}

export const getOrderInput = order;
export function getOrder({ params }: z.infer<typeof order>, { orders }: MerchantContext) {
  return { order: orders.get(params.id) };
}

export const restartCheckoutInput = order;
export async function restartCheckout({ params }: z.infer<typeof order>, { orders, gateway }: MerchantContext) {
  return { order: await orders.restartCheckout(gateway, params.id) };
}

export const orderReturnInput = input({ params: z.object({ id: reference }), query: shopperReturnQuery });
export function orderReturn({ params, query }: z.infer<typeof orderReturnInput>, { orders, gateway }: MerchantContext) {
  return orders.shopperReturn(gateway, params.id, query);
}

/** The shop's reconciliation job for one order: every charge found by the order's reference, a second one refunded. */
export const reconcileOrderInput = order;
export async function reconcileOrder({ params }: z.infer<typeof order>, { orders, gateway }: MerchantContext) {
  return { order: await orders.reconcile(gateway, params.id) };
}
