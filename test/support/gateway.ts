/**
 * Browser-test helpers that act as the merchant's back end: every call goes
 * through the sandbox's merchant proxy the test runner mounts (/__gw/api), which
 * adds the access token.
 */
import { clockSandboxUrl, entityId, sandboxUrl } from '/__gw/sandbox.js';

export { clockSandboxUrl, entityId, sandboxUrl };

/** A same-origin page that stands for the merchant's shopper result URL. */
export const shopperResultUrl = `${location.origin}/__gw/result`;

export interface GatewayAnswer {
  status: number;
  body: Record<string, any>;
}

/**
 * Calls the sandbox as the merchant's server would: form-encoded POST, or GET with a query.
 * `sandbox: 'clock'` calls the second sandbox (at `clockSandboxUrl`), the one to use in
 * tests that move the clock, so other test files' checkouts never expire under them.
 */
export async function merchantCall(
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string> = {},
  options: { sandbox?: 'shared' | 'clock' } = {},
): Promise<GatewayAnswer> {
  const form = new URLSearchParams({ entityId, ...params });
  const proxy = options.sandbox === 'clock' ? '/__gw/clock/api' : '/__gw/api';
  const url = method === 'GET' ? `${proxy}${path}${path.includes('?') ? '&' : '?'}${form}` : `${proxy}${path}`;
  const response = await fetch(url, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : {},
    body: method === 'POST' ? form : undefined,
  });
  return { status: response.status, body: await response.json() };
}
