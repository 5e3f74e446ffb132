/**
 * What differs between the runtimes the sandbox's core runs in (Node's HTTP
 * server, a browser's service worker), handed to it by each adapter rather
 * than swapped in by a bundler: the real time, the source of randomness and
 * where the widget script's bytes come from.
 */

/** The payment widget script the sandbox serves, and its integrity value. */
export interface WidgetScript {
  readonly bytes: Uint8Array;
  /** `sha384-` + base64(sha384(bytes)), for the script element's integrity attribute. */
  readonly integrity: string;
}

export interface SandboxRuntime {
  /** Real time in milliseconds since the epoch; the sandbox's clock adds what tests advanced it by. */
  now(): number;
  /** `size` cryptographically strong random bytes: ids the widget endpoints trust, secrets, IVs. */
  randomBytes(size: number): Uint8Array;
  /** The widget script to serve, read again on every reset (a test may have rebuilt it). */
  widgetScript(): WidgetScript;
}

/** Randomness from the Web Crypto API, which Node 20+ and every browser have. */
export function webRandomBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  // getRandomValues fills at most 65,536 bytes per call.
  for (let offset = 0; offset < size; offset += 65_536) crypto.getRandomValues(bytes.subarray(offset, Math.min(size, offset + 65_536)));
  return bytes;
}
