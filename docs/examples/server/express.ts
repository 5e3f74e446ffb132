/** The checkout page's routes in Express 5 (async handlers' errors reach Express by themselves). */
import express from 'express';
import type { GatewayClient } from 'gw-elements/server';
import { createShop, type Answer, type Order, type PaymentPage } from './shop.js';

export function expressApp(client: GatewayClient, orders: ReadonlyMap<string, Order>, page: PaymentPage, checkoutOrders?: Map<string, Order>) {
  const shop = createShop(client, orders, page, checkoutOrders);
  const send = (response: express.Response, { status, body, headers }: Answer) => {
    response.status(status).set(headers ?? {});
    if (typeof body === 'string') response.send(body);
    else response.json(body);
  };
  const app = express();
  app.use(express.json());
  app.get('/pay', async (request, response) => send(response, await shop.paymentPage(request.query.orderId)));
  app.post('/checkout', async (request, response) => send(response, await shop.createCheckout(request.body?.orderId)));
  app.get('/payment-result', async (request, response) => send(response, await shop.paymentResult(request.query)));
  return app;
}
