/** The checkout page's two routes in Fastify 5. */
import Fastify from 'fastify';
import type { GatewayClient } from 'gw-elements/server';
import { createShop, type Answer, type Order } from './shop.js';

export function fastifyApp(client: GatewayClient, orders: ReadonlyMap<string, Order>) {
  const shop = createShop(client, orders);
  const app = Fastify();
  const send = (reply: { code(status: number): { headers(values: Record<string, string>): { send(body: unknown): unknown } } }, answer: Answer) =>
    reply.code(answer.status).headers(answer.headers ?? {}).send(answer.body);
  app.post<{ Body: { orderId?: string } }>('/checkout', async (request, reply) => send(reply, await shop.createCheckout(request.body?.orderId)));
  app.get<{ Querystring: { id?: string; resourcePath?: string } }>('/payment-result', async (request, reply) => send(reply, await shop.paymentResult(request.query)));
  return app;
}
