/** The checkout page's two routes in Hono 4: runs on Node, Bun, Deno and edge runtimes alike. */
import { Hono } from 'hono';
import type { GatewayClient } from 'gw-elements/server';
import { createShop, type Answer, type Order } from './shop.js';

export function honoApp(client: GatewayClient, orders: ReadonlyMap<string, Order>) {
  const shop = createShop(client, orders);
  const send = (answer: Answer) => Response.json(answer.body, { status: answer.status, headers: answer.headers ?? {} });
  return new Hono()
    .post('/checkout', async (c) => send(await shop.createCheckout(((await c.req.json()) as { orderId?: string }).orderId)))
    .get('/payment-result', async (c) => send(await shop.paymentResult(c.req.query())));
}
