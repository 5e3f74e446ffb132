/** The checkout page's routes in Fastify 5. */
import Fastify from 'fastify';
import type { GatewayClient } from 'gw-elements/server';
import { createShop, type Answer, type Order, type PaymentPage } from './shop.js';

export function fastifyApp(client: GatewayClient, orders: ReadonlyMap<string, Order>, page: PaymentPage) {
  const shop = createShop(client, orders, page);
  const app = Fastify();
  // A string body is the page's HTML (its content-type is in the headers); an object is sent as JSON.
  const send = (reply: { code(status: number): { headers(values: Record<string, string>): { send(body: unknown): unknown } } }, answer: Answer) =>
    reply.code(answer.status).headers(answer.headers ?? {}).send(answer.body);
  app.get<{ Querystring: { orderId?: string } }>('/pay', async (request, reply) => send(reply, await shop.paymentPage(request.query.orderId)));
  app.post<{ Body: { orderId?: string } }>('/checkout', async (request, reply) => send(reply, await shop.createCheckout(request.body?.orderId)));
  app.get<{ Querystring: { id?: string; resourcePath?: string } }>('/payment-result', async (request, reply) => send(reply, await shop.paymentResult(request.query)));
  return app;
}
