/**
 * Where the kit may send a secret: the access token (the server helper), card
 * and 3-D Secure data (the elements). Once, so the client and the elements
 * refuse the same URLs.
 */

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** https:, or http: on localhost / 127.0.0.1 / ::1 only (a local sandbox), and no credentials in the URL. */
export function isSecureEndpoint(url: URL): boolean {
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname));
  return secure && !url.username && !url.password;
}
