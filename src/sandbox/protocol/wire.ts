/**
 * The sandbox's wire format: form bodies in, the gateway's JSON (every value a
 * string, dotted and bracketed names nested) and small HTML pages out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayResult } from '../../contract/result-codes.js';
import { bodyTooLarge, RequestLimitError, type SandboxLimits } from '../limits.js';

// The timestamp format lives in the contract, which the widget reads it with; the sandbox's modules take it from here.
export { gatewayTimestamp } from '../../contract/timestamp.js';

/** Flat request parameters exactly as they came over the wire. */
export type FlatParams = Record<string, string>;

/** A JSON answer's body: every answer of the gateway carries a result (the contract's answer types and the widget's alike). */
export type AnswerBody = { readonly result: GatewayResult; readonly ndc?: string };

/** What a route answers; the server turns it into bytes and a log entry. */
export type Reply =
  /** `text`, when given, is the whole answer already serialised; `body` then holds its fields without the envelope. */
  | { readonly kind: 'json'; readonly status: number; readonly body: AnswerBody; readonly text?: string; readonly cors?: boolean }
  | { readonly kind: 'html'; readonly status: number; readonly html: string }
  | { readonly kind: 'redirect'; readonly location: string; readonly resultCode?: string }
  | { readonly kind: 'script'; readonly bytes: Buffer };

/**
 * Reads a request body of at most `limits.bodyBytes`. A larger one is refused
 * as soon as it is known to be, and the rest of it is read and thrown away
 * rather than cut off: closing a connection the client is still writing to
 * resets it, and the client would never see the HTTP 413.
 */
export function readBody(request: IncomingMessage, limits: SandboxLimits): Promise<string> {
  return new Promise((resolve, reject) => {
    request.on('error', reject);
    if (Number(request.headers['content-length'] ?? 0) > limits.bodyBytes) {
      request.resume();
      reject(bodyTooLarge(limits));
      return;
    }
    let chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limits.bodyBytes) {
        chunks.push(chunk);
        return;
      }
      chunks = [];
      request.off('data', onData).off('end', onEnd).resume();
      reject(bodyTooLarge(limits));
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    request.on('data', onData).once('end', onEnd);
  });
}

/**
 * A copy of `text` that shares no memory with the string it was cut from. V8
 * keeps a whole string alive behind any slice of it: a 14-character field
 * name kept in a record or the log would hold its entire request body.
 */
export const detached = (text: string): string => ` ${text}`.slice(1);

/** Segments of a field name, as `nest` splits it. */
const depthOf = (name: string) => (name.includes('.') || name.includes('[') ? pathOf(name).length : 1);

/**
 * Form-encoded text to flat parameters; a repeated name keeps its last value.
 * Refuses (HTTP 400) more than `limits.fields` fields and names longer or
 * deeper than the limits, before anything is kept.
 */
export function parseForm(text: string, limits: SandboxLimits): FlatParams {
  const params: FlatParams = Object.create(null) as FlatParams;
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > limits.fields) throw new RequestLimitError(400, `more than ${limits.fields} fields in one request`);
    if (name.length * 3 > limits.nameBytes && Buffer.byteLength(name) > limits.nameBytes)
      throw new RequestLimitError(400, `a field name longer than ${limits.nameBytes} bytes`);
    if (depthOf(name) > limits.nameDepth) throw new RequestLimitError(400, `a field name of more than ${limits.nameDepth} segments`);
    params[detached(name)] = detached(value);
  }
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
      const text = reply.text ?? JSON.stringify(reply.body);
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
