/**
 * The sandbox's wire format: form bodies in, the gateway's JSON (every value a
 * string, dotted and bracketed names nested) and small HTML pages out.
 */
import type { GatewayResult } from '../../contract/result-codes.js';
import type { FlatParams } from '../gateway/store.js';
import { utf8Length } from '../bytes.js';
import { RequestLimitError, type SandboxLimits } from '../limits.js';

// The timestamp format lives in the contract, which the widget reads it with; the sandbox's modules take it from here.
export { gatewayTimestamp } from '../../contract/timestamp.js';

/** A JSON answer's body: every answer of the gateway carries a result (the contract's answer types and the widget's alike). */
export type AnswerBody = { readonly result: GatewayResult; readonly ndc?: string };

/** What a route answers; the server turns it into bytes and a log entry. */
export type Reply =
  /** `text`, when given, is the whole answer already serialised; `body` then holds its fields without the envelope. */
  | { readonly kind: 'json'; readonly status: number; readonly body: AnswerBody; readonly text?: string; readonly cors?: boolean }
  | { readonly kind: 'html'; readonly status: number; readonly html: string }
  | { readonly kind: 'redirect'; readonly location: string; readonly resultCode?: string }
  | { readonly kind: 'script'; readonly bytes: Uint8Array };

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
    if (name.length * 3 > limits.nameBytes && utf8Length(name) > limits.nameBytes)
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
 * A name's text wins over names below it (`customer.email` and
 * `customer.email.x`): those are not echoed, so every echoed value stays the
 * text sent, as the answer's values are.
 */
export function nest(flat: Readonly<FlatParams>): Tree {
  const root: Tree = Object.create(null) as Tree;
  names: for (const [name, value] of Object.entries(flat)) {
    const path = pathOf(name);
    let node = root;
    for (const segment of path.slice(0, -1)) {
      const next = node[segment];
      if (typeof next === 'string') continue names;
      node = next ?? (node[segment] = Object.create(null) as Tree);
    }
    node[path.at(-1)!] = value;
  }
  return root;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept',
  'access-control-max-age': '600',
};

/**
 * An answer as it goes on the wire: status, headers and body. Each adapter
 * sends it as it is (the service worker as a web `Response`, node:http with
 * `writeHead`); nothing else writes a status or a header.
 */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text goes out as UTF-8. */
  readonly body: string | Uint8Array | null;
}

/** The answer to a CORS preflight for the widget's endpoints. */
export const PREFLIGHT: WireAnswer = { status: 204, headers: CORS_HEADERS, body: null };

/** A reply on the wire. Pages must work inside the merchant's iframes, so no frame-blocking header is ever sent. */
export function toWire(reply: Reply): WireAnswer {
  switch (reply.kind) {
    case 'json':
      return {
        status: reply.status,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...(reply.cors ? CORS_HEADERS : {}) },
        body: reply.text ?? JSON.stringify(reply.body),
      };
    case 'html':
      return {
        status: reply.status,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
        body: reply.html,
      };
    case 'redirect':
      return { status: 303, headers: { location: reply.location, 'cache-control': 'no-store' }, body: null };
    case 'script':
      return {
        status: 200,
        headers: {
          'content-type': 'application/javascript; charset=utf-8',
          'cache-control': 'no-cache',
          'access-control-allow-origin': '*',
        },
        body: reply.bytes,
      };
  }
}

/** The HTTP status a reply is sent with, for the request log. */
export const statusOf = (reply: Reply): number =>
  reply.kind === 'json' || reply.kind === 'html' ? reply.status : reply.kind === 'redirect' ? 303 : 200;

/** The result code a reply carries, for the request log. */
export function resultCodeOf(reply: Reply): string | undefined {
  if (reply.kind === 'json') return reply.body.result.code;
  if (reply.kind === 'redirect') return reply.resultCode;
  return undefined;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
