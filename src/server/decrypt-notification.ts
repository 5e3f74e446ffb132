/**
 * The gateway's encrypted notifications (webhooks): AES-256-GCM over the hex
 * body, the IV and the authentication tag in hex headers, the key the
 * listener's 64-hex-character secret. Decrypted with Web Crypto only, so it
 * runs on Node, Bun, Deno and edge runtimes.
 */
import { ANSWER_MAX_DEPTH, nestsDeeperThan } from '../contract/limits.js';
import { redactByShape } from '../contract/redaction.js';
import { parseGatewayTimestamp } from '../contract/timestamp.js';
import { GatewayError, invalidArgument, isObject, readClock, type GatewayErrorDetails } from './errors.js';
import type {
  Notification,
  PaymentNotification,
  RegistrationNotification,
  RiskNotification,
  TestNotification,
} from '../contract/notification-payloads.js';

export type {
  Notification,
  PaymentNotification,
  RegistrationAction,
  RegistrationNotification,
  RiskNotification,
  TestNotification,
} from '../contract/notification-payloads.js';

/** Why a notification was refused; nothing in the error ever holds the secret. */
export type NotificationErrorReason =
  /** The secret is not 64 hex characters. */
  | 'invalid-secret'
  /** `X-Initialization-Vector` or `X-Authentication-Tag` is absent. */
  | 'missing-header'
  /** The body, IV or tag is not hex of a usable length. */
  | 'invalid-encoding'
  /** Decryption failed: another secret, or a changed body, IV or tag. */
  | 'authentication-failed'
  /** It decrypted, but is not a notification the platform sends. */
  | 'invalid-payload'
  /** No Web Crypto (`globalThis.crypto.subtle`) in this runtime. */
  | 'unsupported-runtime'
  /** Older than the caller's `maxAgeSeconds` by the payload's own timestamp, or without one (a replay, or a delivery retried for days). */
  | 'stale';

/** What an authenticated notification is about: named when it is refused as `stale`, so it can be read as it stands now. */
export interface NotificationSubject {
  readonly type: 'PAYMENT' | 'REGISTRATION' | 'RISK';
  /** The payment's or registration's id, as the payload gives it. */
  readonly id: string | undefined;
}

/**
 * A notification that cannot be trusted or read. Its `reason` says whose the failure is: the listener's own setup
 * (`invalid-secret`, `unsupported-runtime`: answer 500, and the gateway sends it again once fixed) or the delivery's
 * (answer 200 and log it, so a forger learns nothing; after `stale`, read its `subject` as it stands now).
 */
export class NotificationError extends GatewayError {
  override name = 'NotificationError';
  declare readonly reason: NotificationErrorReason;
  /** With `stale` only: the payment or registration the authenticated notification is about. */
  declare readonly subject?: NotificationSubject;

  constructor(message: string, details: GatewayErrorDetails & { reason: NotificationErrorReason; subject?: NotificationSubject }) {
    super(message, details);
  }
}

const refused = (reason: NotificationErrorReason, message: string) => new NotificationError(message, { reason });

/** What arrived at the merchant's URL: the raw body and the request headers. */
export interface EncryptedNotification {
  /**
   * The raw request body, as a string or bytes: the hex ciphertext (`text/plain`,
   * UTF-8, Latin-1 or any charset that writes ASCII as ASCII), or the JSON wrapper `{"encryptedBody": "<hex>"}` some listeners
   * are set to (`application/json`). Either case of hex. Read it raw.
   */
  readonly body: string | Uint8Array | ArrayBuffer;
  /** A `Headers` object, or a plain record such as Node's `req.headers` (names in any case). */
  readonly headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** A larger body is refused before any work: the platform's notifications are a payment object, a few kilobytes. */
export const MAX_NOTIFICATION_BODY_CHARACTERS = 1024 * 1024;
const TAG_BYTES = 16;

function header(headers: EncryptedNotification['headers'] | null | undefined, name: string): string {
  let value: unknown;
  if (typeof headers !== 'object' || headers === null)
    throw refused('missing-header', `The notification has no headers, so no ${name} header`);
  if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
  else {
    const wanted = name.toLowerCase();
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === wanted);
    value = key === undefined ? undefined : (headers as Record<string, string | readonly string[] | undefined>)[key];
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw refused('invalid-encoding', `Header ${name} must be sent once`);
    value = value[0];
  }
  if (typeof value !== 'string' || value.trim() === '') throw refused('missing-header', `The notification has no ${name} header`);
  return value.trim();
}

/**
 * `read()`, for a value from untyped code: what is not a request is refused with the kit's error, never a TypeError,
 * even when reading it throws (a revoked proxy, a framework's getter or a typed array's `byteLength` that fails). The
 * foreign error is dropped, not carried as the cause: its message may hold anything.
 */
function readSafely<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof NotificationError) throw error;
    throw refused('invalid-encoding', 'The notification could not be read: reading its headers or body threw');
  }
}

/** Hex as bytes; `maxBytes` refuses a longer text before any parsing. */
function hexBytes(text: string, what: string, maxBytes: number): Uint8Array<ArrayBuffer> {
  if (text.length > maxBytes * 2) throw refused('invalid-encoding', `The ${what} is longer than ${maxBytes} bytes of hex`);
  if (text.length === 0 || text.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(text))
    throw refused('invalid-encoding', `The ${what} is not hex`);
  const bytes = new Uint8Array(text.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = parseInt(text.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/** The hex ciphertext of a body: the raw text, or the `encryptedBody` of the JSON wrapper. Hex is ASCII, so any charset that writes ASCII as ASCII reads the same. */
function ciphertextHex(body: unknown): string {
  let text: string;
  // Refused before any work: a body (padding included) larger than any notification is never decoded nor trimmed.
  const size = typeof body === 'string' ? body.length : body instanceof ArrayBuffer || ArrayBuffer.isView(body) ? body.byteLength : 0;
  if (size > MAX_NOTIFICATION_BODY_CHARACTERS) throw refused('invalid-encoding', 'The notification body is too large');
  if (typeof body === 'string') text = body;
  else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) text = new TextDecoder().decode(body);
  else throw refused('invalid-encoding', 'The notification body must be the raw text or bytes of the request');
  text = text.trim();
  if (!text.startsWith('{')) return text;
  // The wrapper is one flat object. Anything nested is refused unparsed: the body is not authenticated yet, and nesting
  // is what costs a parser (a megabyte of brackets held it for most of a second; a flat megabyte takes a millisecond).
  if (text.includes('[') || text.includes('{', 1))
    throw refused(
      'invalid-encoding',
      'The JSON notification body nests objects or lists: it is not the wrapper {"encryptedBody": "<hex>"}',
    );
  let wrapper: unknown;
  try {
    wrapper = JSON.parse(text);
  } catch {
    throw refused('invalid-encoding', 'The notification body is neither hex nor the JSON wrapper {"encryptedBody": "<hex>"}');
  }
  const hex = isObject(wrapper) ? wrapper.encryptedBody : undefined;
  if (typeof hex !== 'string') throw refused('invalid-encoding', 'The JSON notification body has no encryptedBody text');
  return hex.trim();
}

const hasResult = (payload: Record<string, unknown>) => isObject(payload.result) && typeof payload.result.code === 'string';

/** The decrypted text as a typed notification, or `invalid-payload`. */
function parseNotification(text: string): Notification {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refused('invalid-payload', 'The decrypted notification is not JSON');
  }
  if (!isObject(parsed) || !isObject(parsed.payload)) throw refused('invalid-payload', 'The decrypted notification has no payload object');
  if (nestsDeeperThan(parsed, ANSWER_MAX_DEPTH))
    throw refused(
      'invalid-payload',
      `The decrypted notification nests deeper than ${ANSWER_MAX_DEPTH} levels, which no notification of the platform does`,
    );
  const { type, action, payload } = parsed;
  switch (type) {
    case 'PAYMENT':
      if (typeof payload.id === 'string' && hasResult(payload)) return parsed as unknown as PaymentNotification;
      break;
    case 'REGISTRATION':
      if (typeof payload.id === 'string' && (action === 'CREATED' || action === 'UPDATED' || action === 'DELETED'))
        return parsed as unknown as RegistrationNotification;
      break;
    case 'RISK':
      return parsed as unknown as RiskNotification;
    case 'test':
      return parsed as unknown as TestNotification;
  }
  throw refused(
    'invalid-payload',
    // Only a short word is echoed: a type of another shape may hold anything, a card number or a secret among it.
    `The decrypted notification is not a PAYMENT, REGISTRATION, RISK or test notification the platform sends (type ${typeof type === 'string' && /^[A-Za-z_-]{1,32}$/.test(type) ? JSON.stringify(type) : `of another shape (${typeof type})`})`,
  );
}

/**
 * A freshness window, by policy: the platform signs no time, so the payload's
 * own `timestamp` (when its payment or registration last changed) is what a
 * listener can judge a delivery's age by.
 */
export interface NotificationFreshness {
  /** Refuse a payload whose timestamp is older than this (or more than this ahead of `now`, a clock that cannot be trusted). */
  readonly maxAgeSeconds: number;
  /** The listener's clock, ms since the epoch; `Date.now` by default. */
  readonly now?: () => number;
}

/**
 * Decrypts and checks one notification. Throws `NotificationError` (a
 * `GatewayError`) with its `reason` when the secret is malformed, a header is
 * missing, the body or a header is not hex, decryption fails (another secret,
 * a changed body, IV or tag), or the plaintext is not a notification. Answer
 * 2xx only after it resolves and you have stored what it says. With
 * `freshness`, a payment, registration or risk notification whose payload is
 * older than `maxAgeSeconds` (or has no readable timestamp) is refused with
 * reason `stale`; the platform's listener test notification is never stale.
 */
export async function decryptNotification(
  notification: EncryptedNotification,
  secretHex: string,
  freshness?: NotificationFreshness,
): Promise<Notification> {
  const window = freshnessWindow(freshness);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw refused('unsupported-runtime', 'Web Crypto (globalThis.crypto.subtle) is not available in this runtime');
  if (typeof secretHex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(secretHex))
    throw refused('invalid-secret', 'The notification secret must be 64 hex characters (a 256-bit key)');
  const { body, headers } = readSafely(() => {
    const { body, headers } = (
      typeof notification === 'object' && notification !== null ? notification : {}
    ) as Partial<EncryptedNotification>;
    return { body, headers };
  });
  const iv = hexBytes(
    readSafely(() => header(headers, 'X-Initialization-Vector')),
    'X-Initialization-Vector header',
    64,
  );
  const tag = hexBytes(
    readSafely(() => header(headers, 'X-Authentication-Tag')),
    'X-Authentication-Tag header',
    TAG_BYTES,
  );
  // At most 64 bytes: hexBytes refused a longer one unread.
  if (iv.length < 12) throw refused('invalid-encoding', 'The X-Initialization-Vector header must be 12 to 64 bytes of hex');
  if (tag.length !== TAG_BYTES) throw refused('invalid-encoding', `The X-Authentication-Tag header must be ${TAG_BYTES} bytes of hex`);
  const ciphertext = hexBytes(
    readSafely(() => ciphertextHex(body)),
    'notification body',
    MAX_NOTIFICATION_BODY_CHARACTERS / 2,
  );
  const sealed = new Uint8Array(ciphertext.length + tag.length);
  sealed.set(ciphertext);
  sealed.set(tag, ciphertext.length);
  let key: CryptoKey;
  try {
    key = await subtle.importKey('raw', hexBytes(secretHex, 'secret', 32), { name: 'AES-GCM' }, false, ['decrypt']);
  } catch {
    // A well-formed 256-bit key is refused only by a Web Crypto without AES-GCM: this runtime's failing, not the delivery's.
    throw refused('unsupported-runtime', "This runtime's Web Crypto cannot import an AES-256-GCM key");
  }
  let plaintext: ArrayBuffer;
  try {
    plaintext = await subtle.decrypt({ name: 'AES-GCM', iv, tagLength: TAG_BYTES * 8 }, key, sealed);
  } catch {
    // Web Crypto says only "operation failed"; which of secret, body, IV or tag is wrong cannot be told, by design.
    throw refused('authentication-failed', 'The notification failed authentication: another secret, or a changed body, IV or tag');
  }
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    throw refused('invalid-payload', 'The decrypted notification is not UTF-8 text');
  }
  // What a notification carries is output like any answer: a secret under its name (a card number, a security code) or
  // labelled as one (`Bearer …`) is masked, whatever the sender put in it; ids and the merchant's references stay.
  const parsed = parseNotification(decoded);
  const scrubbed = redactByShape.mayHold(decoded) ? redactByShape.deep(parsed, '', true) : parsed;
  if (window) checkFreshness(scrubbed, window);
  return scrubbed;
}

/** The freshness option checked before any work: a bad one is the caller's mistake, never a stale delivery. */
function freshnessWindow(freshness: NotificationFreshness | undefined): { maxAgeMs: number; now: () => number } | undefined {
  if (freshness === undefined) return undefined;
  const { maxAgeSeconds, now } = (typeof freshness === 'object' && freshness !== null ? freshness : {}) as Partial<NotificationFreshness>;
  if (typeof maxAgeSeconds !== 'number' || !Number.isFinite(maxAgeSeconds) || maxAgeSeconds <= 0)
    throw invalidArgument('freshness.maxAgeSeconds', 'must be a positive number of seconds');
  if (now !== undefined && typeof now !== 'function') throw invalidArgument('freshness.now', 'must be a function');
  return { maxAgeMs: maxAgeSeconds * 1000, now: now ?? Date.now };
}

function checkFreshness(notification: Notification, { maxAgeMs, now }: { maxAgeMs: number; now: () => number }): void {
  if (notification.type === 'test') return;
  const { timestamp: stamp, id } = (notification.payload ?? {}) as { timestamp?: unknown; id?: unknown };
  // Authenticated: what it is about is the gateway's word, and what a listener reads next.
  const stale = (message: string) =>
    new NotificationError(message, { reason: 'stale', subject: { type: notification.type, id: typeof id === 'string' ? id : undefined } });
  const at = typeof stamp === 'string' ? parseGatewayTimestamp(stamp) : Number.NaN;
  if (Number.isNaN(at)) throw stale('The notification carries no readable timestamp, so its age cannot be told');
  const age = readClock(now, 'freshness.now') - at;
  // Written so that an age that is not a number (it cannot be, after readClock) would refuse, never pass.
  if (!(Math.abs(age) <= maxAgeMs))
    throw stale(`The notification is ${Math.round(age / 1000)} s old by its payload's timestamp, beyond the ${maxAgeMs / 1000} s allowed`);
}
