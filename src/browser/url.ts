/**
 * The URL rules both elements apply before they load or post anything: only
 * http(s) ever (never `javascript:` or `data:`), and only https, or http on this
 * machine (a local sandbox), where card or 3-D Secure data is sent.
 */

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** `value` as an http(s) URL (resolved against `base` when given, else absolute only), or undefined. */
export function httpUrl(value: string, base?: string): URL | undefined {
  try {
    const url = new URL(value, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** https:, or http: on localhost / 127.0.0.1 / ::1 only, and no credentials in the URL. */
export function isSecureEndpoint(url: URL): boolean {
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname));
  return secure && !url.username && !url.password;
}
