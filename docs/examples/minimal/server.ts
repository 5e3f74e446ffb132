// server.ts: one checkout page and its return route, against a local sandbox gateway. Run: npx tsx server.ts
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createGatewayClient, toOutcome } from 'gw-elements/server';
import { startSandbox } from 'gw-elements/sandbox';

// Later: the gateway's test host, your access token and entity id, from the environment.
const sandbox = await startSandbox({ port: 0, quiet: true });
const gateway = createGatewayClient({ baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! });
const order = { amount: '24.90', currency: 'EUR' }; // from your database, never from the browser
const page = await readFile(new URL('./index.html', import.meta.url));
const elements = await readFile(fileURLToPath(import.meta.resolve('gw-elements/browser')));
const checkouts = new Set<string>();

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
  const send = (status: number, type: string, body: string | Buffer) => response.writeHead(status, { 'content-type': type }).end(body);
  if (url.pathname === '/') return send(200, 'text/html', page);
  if (url.pathname === '/gw-elements.js') return send(200, 'text/javascript', elements);
  if (url.pathname === '/checkout' && request.method === 'POST') {
    const checkout = await gateway.checkouts.create({ ...order, paymentType: 'DB', merchantTransactionId: `order-${Date.now()}` });
    checkouts.add(checkout.id);
    const answer = { checkoutId: checkout.id, integrity: checkout.integrity, baseUrl: sandbox.url, shopperResultUrl: `${url.origin}/result` };
    return send(200, 'application/json', JSON.stringify(answer));
  }
  if (url.pathname === '/result') { // the shopper comes back with ?id=…&resourcePath=…
    const checkoutId = url.searchParams.get('id') ?? '';
    if (!checkouts.has(checkoutId)) return send(404, 'text/plain', 'unknown checkout');
    const outcome = await toOutcome(gateway.handleShopperReturn(Object.fromEntries(url.searchParams))
      .then((payment) => gateway.verifyPayment(payment, { checkoutId, ...order, paymentType: 'DB' })));
    return send(outcome.kind === 'approved' ? 200 : 402, 'text/plain', `${outcome.kind}: ${outcome.message}`);
  }
  send(404, 'text/plain', 'not found');
});
server.listen(Number(process.env.PORT ?? 3000), () => console.log(`open http://localhost:${(server.address() as AddressInfo).port}`));
