/** The checkout page's routes on plain node:http, no framework. */
import { createServer, type IncomingMessage } from 'node:http';
import type { GatewayClient } from 'gw-elements/server';
import { createShop, type Answer, type Order, type PaymentPage } from './shop.js';

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function nodeHttpServer(client: GatewayClient, orders: ReadonlyMap<string, Order>, page: PaymentPage) {
  const shop = createShop(client, orders, page);
  const route = async (request: IncomingMessage): Promise<Answer> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/pay') return shop.paymentPage(url.searchParams.get('orderId'));
    if (request.method === 'POST' && url.pathname === '/checkout') return shop.createCheckout((await readJson(request)).orderId);
    if (request.method === 'GET' && url.pathname === '/payment-result') return shop.paymentResult(Object.fromEntries(url.searchParams));
    return { status: 404, body: { error: 'not found' } };
  };
  return createServer((request, response) => {
    // An error no route answered must not become an unhandled rejection: that ends the Node process.
    const failed = (error: unknown): Answer => (console.error(error), { status: 500, body: { error: 'internal error' } });
    void route(request)
      .catch(failed)
      .then((answer) => response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)));
  });
}
