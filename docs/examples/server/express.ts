/** The checkout page's two routes in Express 5 (async handlers' errors reach Express by themselves). */
import express from 'express';
import type { GatewayClient } from 'gw-elements/server';
import { createShop, type Answer, type Order } from './shop.js';

export function expressApp(client: GatewayClient, orders: ReadonlyMap<string, Order>, checkoutOrders?: Map<string, Order>) {
  const shop = createShop(client, orders, checkoutOrders);
  const send = (response: express.Response, answer: Answer) => response.status(answer.status).set(answer.headers ?? {}).json(answer.body);
  const app = express();
  app.use(express.json());
  app.post('/checkout', async (request, response) => send(response, await shop.createCheckout(request.body?.orderId)));
  app.get('/payment-result', async (request, response) => send(response, await shop.paymentResult(request.query)));
  return app;
}
