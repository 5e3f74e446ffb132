/**
 * Every resource limit of the sandbox, in one place and in bytes where size is
 * meant, so that no request and no amount of traffic can kill or bloat it.
 * Beyond a limit a request gets a well-formed answer in the gateway's shape
 * (HTTP 413 for a body, HTTP 400 `200.300.404` for the rest); stores and the
 * request log drop their oldest entries instead of growing.
 */
import { utf8Length } from './bytes.js';

export interface SandboxLimits {
  /** Bytes of one request body; a larger body answers HTTP 413. */
  bodyBytes: number;
  /** Fields in one request (form body or query string). */
  fields: number;
  /** Bytes of one field name. */
  nameBytes: number;
  /** Segments of one field name: `customer.browser.language` has 3, `customParameters[X]` 2. */
  nameDepth: number;
  /** Bytes one stored checkout or payment may take (see `recordBytes()`): a request that would store more answers HTTP 400. */
  recordBytes: number;
  /** Bytes all stored checkouts and payments may take together; beyond it the oldest are dropped. */
  storeBytes: number;
  /** Records of each kind kept; beyond it the oldest are dropped. */
  checkouts: number;
  payments: number;
  registrations: number;
  /** Requests the log keeps, and the bytes it may take; beyond either the oldest are dropped. */
  logEntries: number;
  logBytes: number;
  /** Bytes of one logged value (longer values are cut) and of one log entry's fields (further fields are left out). */
  logValueBytes: number;
  logEntryBytes: number;
}

export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  // No form of the API reference comes close: the largest legitimate values are 2 KB browser headers and 2 KB custom parameters.
  bodyBytes: 256 * 1024,
  fields: 1000,
  nameBytes: 256,
  nameDepth: 8,
  recordBytes: 32 * 1024,
  storeBytes: 64 * 1024 * 1024,
  checkouts: 50_000,
  payments: 50_000,
  registrations: 10_000,
  logEntries: 1000,
  logBytes: 2 * 1024 * 1024,
  logValueBytes: 256,
  logEntryBytes: 4 * 1024,
});

/** Merges caller overrides into the defaults; each limit must be a positive whole number. */
export function resolveLimits(overrides: Partial<SandboxLimits> = {}): Readonly<SandboxLimits> {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`sandbox limit ${name} must be a whole number above 0, not ${String(value)}`);
  }
  return Object.freeze(limits);
}

/**
 * What a field costs in memory beyond its text: the property slot and the
 * string headers. Counting it keeps a thousand one-letter fields from
 * passing for a few bytes.
 */
const FIELD_OVERHEAD_BYTES = 64;
/** What a checkout or payment record costs before its fields. */
export const RECORD_OVERHEAD_BYTES = 512;

/** The bytes a set of stored fields counts against `recordBytes` and `storeBytes`. */
export function fieldBytes(fields: Readonly<Record<string, string>>): number {
  let bytes = 0;
  for (const name in fields) bytes += utf8Length(name) + utf8Length(fields[name]!) + FIELD_OVERHEAD_BYTES;
  return bytes;
}

/** A request refused before it reaches a route: too large, too many fields, a name too long or too deep. */
export class RequestLimitError extends Error {
  constructor(
    /** 413 for a body over `bodyBytes`, 400 for the rest. */
    readonly status: 400 | 413,
    /** The answer's `result.description`: which limit, and its value. */
    readonly description: string,
  ) {
    super(description);
    this.name = 'RequestLimitError';
  }
}

export const bodyTooLarge = (limits: SandboxLimits) => new RequestLimitError(413, `request body larger than ${limits.bodyBytes} bytes`);
