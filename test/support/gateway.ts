/**
 * Browser-test helpers that act as the merchant's back end: every call goes
 * through the test runner's proxy (/__gw/api), which adds the access token.
 */
import { entityId, sandboxUrl } from '/__gw/sandbox.js';

export { entityId, sandboxUrl };

/** A same-origin page that stands for the merchant's shopper result URL. */
export const shopperResultUrl = `${location.origin}/__gw/result`;

export interface GatewayAnswer {
  status: number;
  body: Record<string, any>;
}

/** Calls the sandbox as the merchant's server would: form-encoded POST, or GET with a query. */
export async function merchantCall(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}): Promise<GatewayAnswer> {
  const form = new URLSearchParams({ entityId, ...params });
  const url = method === 'GET' ? `/__gw/api${path}${path.includes('?') ? '&' : '?'}${form}` : `/__gw/api${path}`;
  const response = await fetch(url, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : {},
    body: method === 'POST' ? form : undefined,
  });
  return { status: response.status, body: await response.json() };
}
