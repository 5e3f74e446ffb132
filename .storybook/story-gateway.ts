/**
 * The merchant back end the stories talk to, as connect-style middleware over
 * a real sandbox gateway. The dev server mounts it (main.ts), and so does the
 * story test's static server for the built Storybook (test/storybook/), so
 * stories behave the same in both. Routes, all under /__gw/:
 *   GET  /__gw/config.json   the sandbox URL and entity id (never the token)
 *   *    /__gw/api/<path>    forwarded to the sandbox with the Bearer token added
 *   POST /__gw/hang?path=P      the sandbox's next request to path P never answers, which
 *                               holds an element in `loading`, `submitting` or `method`
 *   GET  /__gw/result        a same-origin shopper result page
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sandbox } from '../src/sandbox/index.js';

type Next = (error?: unknown) => void;

const RESULT_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back at the shop</title></head><body><p>Back at the shop.</p></body></html>';

/** The request's form body as text (the stories post form-encoded fields only). */
async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Middleware answering /__gw/* for a running sandbox; anything else goes to `next`. */
export function storyGateway(sandbox: Sandbox) {
  return (request: IncomingMessage, response: ServerResponse, next: Next): void => {
    const url = new URL(request.url ?? '/', 'http://stories.invalid');
    if (!url.pathname.startsWith('/__gw/')) return next();
    answer(sandbox, request, response, url).catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`story gateway: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}

async function answer(sandbox: Sandbox, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  if (url.pathname === '/__gw/config.json') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ sandboxUrl: sandbox.url, entityId: sandbox.entities[0] }));
    return;
  }
  if (url.pathname === '/__gw/result') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(RESULT_PAGE);
    return;
  }
  if (url.pathname === '/__gw/hang' && request.method === 'POST') {
    sandbox.fault(url.searchParams.get('path') ?? '', 'hang');
    response.writeHead(204);
    response.end();
    return;
  }
  if (url.pathname.startsWith('/__gw/api/')) {
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request);
    const upstream = await fetch(`${sandbox.url}${url.pathname.slice('/__gw/api'.length)}${url.search}`, {
      method: request.method ?? 'GET',
      headers: {
        authorization: `Bearer ${sandbox.tokens[0]}`,
        ...(body ? { 'content-type': request.headers['content-type'] ?? 'application/x-www-form-urlencoded; charset=UTF-8' } : {}),
      },
      body,
    });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
    return;
  }
  response.writeHead(404, { 'content-type': 'text/plain' });
  response.end(`no story gateway route ${url.pathname}`);
}
