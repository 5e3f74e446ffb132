/** The checkout page's two routes on plain node:http, no framework. */
import { createServer, type IncomingMessage } from 'node:http';
import type { GatewayClient } from '../../../src/server/index.js';
import { createShop, type Answer, type Order } from './shop.js';

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function nodeHttpServer(client: GatewayClient, orders: ReadonlyMap<string, Order>) {
  const shop = createShop(client, orders);
  return createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    let answer: Answer = { status: 404, body: { error: 'not found' } };
    if (request.method === 'POST' && url.pathname === '/checkout') answer = await shop.createCheckout((await readJson(request)).orderId);
    if (request.method === 'GET' && url.pathname === '/payment-result') answer = await shop.paymentResult(Object.fromEntries(url.searchParams));
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
  });
}
