/**
 * The URL rules both elements apply before they load or post anything: only
 * http(s) ever (never `javascript:` or `data:`), and only https, or http on this
 * machine (a local sandbox), where card or 3-D Secure data is sent.
 */

export { isSecureEndpoint } from '../contract/endpoint.js';

/** `value` as an http(s) URL (resolved against `base` when given, else absolute only), or undefined. */
export function httpUrl(value: string, base?: string): URL | undefined {
  try {
    const url = new URL(value, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}
