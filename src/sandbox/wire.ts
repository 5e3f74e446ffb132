/**
 * The sandbox's wire format: form bodies in, the gateway's JSON (every value a
 * string, dotted and bracketed names nested) and small HTML pages out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Flat request parameters exactly as they came over the wire. */
export type FlatParams = Record<string, string>;

/** What a route answers; the server turns it into bytes and a log entry. */
export type Reply =
  | { readonly kind: 'json'; readonly status: number; readonly body: Record<string, unknown>; readonly cors?: boolean }
  | { readonly kind: 'html'; readonly status: number; readonly html: string }
  | { readonly kind: 'redirect'; readonly location: string; readonly resultCode?: string }
  | { readonly kind: 'script'; readonly bytes: Buffer };

/** Bodies larger than this are refused: no form of the seed comes close. */
export const MAX_BODY_BYTES = 256 * 1024;

export class BodyTooLargeError extends Error {}

/** Reads a request body up to MAX_BODY_BYTES. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Form-encoded text to flat parameters; a repeated name keeps its last value. */
export function parseForm(text: string): FlatParams {
  const params: FlatParams = Object.create(null) as FlatParams;
  for (const [name, value] of new URLSearchParams(text)) params[name] = value;
  return params;
}

/** `customer.browser.language` → ['customer', 'browser', 'language']; `customParameters[X]` → ['customParameters', 'X']. */
function pathOf(name: string): string[] {
  const bracket = /^([^[\]]+)\[([^\]]*)\]$/.exec(name);
  if (bracket) return [...bracket[1]!.split('.'), bracket[2]!];
  return name.split('.');
}

type Tree = { [key: string]: string | Tree };

/**
 * Nests flat names into the gateway's JSON shape. Objects have no prototype, so
 * names such as `__proto__` sent by a client are plain keys, never a pollution.
 */
export function nest(flat: Readonly<FlatParams>): Tree {
  const root: Tree = Object.create(null) as Tree;
  for (const [name, value] of Object.entries(flat)) {
    const path = pathOf(name);
    let node = root;
    for (const segment of path.slice(0, -1)) {
      const next = node[segment];
      if (typeof next === 'object') node = next;
      else node = node[segment] = Object.create(null) as Tree;
    }
    const leaf = path.at(-1)!;
    if (typeof node[leaf] !== 'object') node[leaf] = value;
  }
  return root;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The gateway's timestamp: `YYYY-MM-DD hh:mm:ss.SSS+0000`. */
export function gatewayTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}+0000`
  );
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept',
  'access-control-max-age': '600',
};

/** Answers a CORS preflight for the widget's endpoints. */
export function sendPreflight(response: ServerResponse): void {
  response.writeHead(204, { ...CORS_HEADERS, 'content-length': '0' });
  response.end();
}

/** Writes a reply. Pages must work inside the merchant's iframes, so no frame-blocking header is ever sent. */
export function sendReply(response: ServerResponse, reply: Reply): void {
  switch (reply.kind) {
    case 'json': {
      const text = JSON.stringify(reply.body);
      response.writeHead(reply.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
        'cache-control': 'no-store',
        ...(reply.cors ? CORS_HEADERS : {}),
      });
      response.end(text);
      return;
    }
    case 'html':
      response.writeHead(reply.status, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': Buffer.byteLength(reply.html),
        'cache-control': 'no-store',
      });
      response.end(reply.html);
      return;
    case 'redirect':
      response.writeHead(303, { location: reply.location, 'content-length': '0', 'cache-control': 'no-store' });
      response.end();
      return;
    case 'script':
      response.writeHead(200, {
        'content-type': 'application/javascript; charset=utf-8',
        'content-length': reply.bytes.length,
        'cache-control': 'no-cache',
        'access-control-allow-origin': '*',
      });
      response.end(reply.bytes);
      return;
  }
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
