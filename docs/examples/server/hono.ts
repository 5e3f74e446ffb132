/** The checkout page's routes in Hono 4: runs on Node, Bun, Deno and edge runtimes alike. */
import { Hono } from 'hono';
import type { GatewayClient } from 'gw-elements/server';
import { createShop, type Answer, type Order, type PaymentPage } from './shop.js';

export function honoApp(client: GatewayClient, orders: ReadonlyMap<string, Order>, page: PaymentPage) {
  const shop = createShop(client, orders, page);
  const send = ({ status, body, headers = {} }: Answer) =>
    typeof body === 'string' ? new Response(body, { status, headers }) : Response.json(body, { status, headers });
  return new Hono()
    .get('/pay', async (c) => send(await shop.paymentPage(c.req.query('orderId'))))
    .post('/checkout', async (c) => send(await shop.createCheckout(((await c.req.json()) as { orderId?: string }).orderId)))
    .get('/payment-result', async (c) => send(await shop.paymentResult(c.req.query())));
}
