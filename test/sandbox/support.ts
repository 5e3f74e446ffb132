/**
 * Helpers for the sandbox's node tests: a real sandbox on loopback per test
 * file, and calls made as the merchant's server (form POST, GET with a query).
 */
import { after, before } from 'node:test';
import { CARDS, startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export { CARDS };
export { cardPayment, threeDsFields } from '../../src/sandbox/fixtures.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  token?: string | null;
  entityId?: string | null;
}

/** A merchant call on the test file's sandbox. */
export type MerchantCall = (
  method: 'GET' | 'POST',
  path: string,
  params?: Record<string, string>,
  options?: CallOptions,
) => Promise<Answer>;

/** Starts one sandbox for the whole test file and closes it afterwards; reset between tests as needed. */
export function useSandbox(options: SandboxOptions = {}): { readonly sandbox: Sandbox; call: MerchantCall } {
  let sandbox: Sandbox | undefined;
  before(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, ...options });
  });
  after(async () => {
    await sandbox?.close();
  });
  const handle = {
    get sandbox(): Sandbox {
      if (!sandbox) throw new Error('sandbox not started yet');
      return sandbox;
    },
    call: ((method, path, params = {}, callOptions = {}) => call(handle.sandbox, method, path, params, callOptions)) as MerchantCall,
  };
  return handle;
}

/** A merchant call: the Bearer token and entityId are added unless told otherwise (null leaves them out). */
export async function call(
  sandbox: Sandbox,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string> = {},
  options: CallOptions = {},
): Promise<Answer> {
  const token = options.token === undefined ? sandbox.tokens[0] : options.token;
  const entityId = options.entityId === undefined ? sandbox.entities[0] : options.entityId;
  const form = new URLSearchParams({ ...(entityId ? { entityId } : {}), ...params });
  const url = method === 'GET' ? `${sandbox.url}${path}${form.size ? `?${form}` : ''}` : `${sandbox.url}${path}`;
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : {}),
    },
    ...(method === 'POST' ? { body: form } : {}),
  });
  const text = await response.text();
  let body: any = text;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json')) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body };
}

/** The widget's card form as the shopper's browser posts it to `/v1/checkouts/{id}/widget/payments`. */
export const widgetCard = (number: string, shopperResultUrl = 'https://shop.example/result') => ({
  paymentBrand: number.startsWith('5') ? 'MASTER' : 'VISA',
  'card.number': number,
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
  shopperResultUrl,
});

/** A public (browser-side) request: no token, no entity. */
export async function browserCall(
  sandbox: Sandbox,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string> = {},
): Promise<Answer> {
  return call(sandbox, method, path, params, { token: null, entityId: null });
}

/** The hidden inputs of the forms in an HTML page, by name. */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!;
  return fields;
}

/** Posts the redirect object's form as the shopper's browser would, returning the answer. */
export async function postForm(url: string, parameters: readonly { name: string; value: string }[]): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(parameters.map(({ name, value }) => [name, value])),
  });
}
