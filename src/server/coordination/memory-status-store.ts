/**
 * The default status store: in this process's memory, bounded in bytes. It
 * keeps the contract of `status-store.ts` for the callers of one process.
 */
import {
  checkStoreOptions,
  STATUS_STORE_DEFAULTS,
  StatusStoreUnavailableError,
  type ClaimAnswer,
  type ClaimRequest,
  type StatusStore,
} from './status-store.js';

/** A record as both built-in stores keep it (the Redis store as a hash with these fields). */
interface StoredRecord {
  final?: string;
  holder?: string;
  until?: number;
  /** When counted claims were granted. */
  calls: number[];
  /** When the newest counted claim leaves its window: the record is kept until then, whatever `transientMs`. */
  countedUntil?: number;
  answerOf?: string;
  answer?: string;
  /** When a claim's work went out and its answer is unknown (ended `unanswered`, or lapsed). */
  unanswered?: number;
}

export interface MemoryStatusStoreOptions {
  /** How long a final value or an unanswered mark is kept after its last write. Default 24 hours. */
  ttlMs?: number;
  /** Bound of the store in UTF-16 code units (keys, values, claims, 64 per record). Default 32 Mi. */
  maxBytes?: number;
  /** How long a record without a final value outlives its claim's end (a claim never ended leaves an unanswered mark, kept ttlMs). Default 2 minutes. */
  transientMs?: number;
  claimMs?: number;
  waitMs?: number;
  now?: () => number;
}

interface Entry {
  record: StoredRecord;
  expires: number;
  size: number;
  /** When it was written: no entry after it in its map was written earlier. */
  written: number;
}

/** What the memory store holds now: `bytes` in all, of which `keptBytes` are final values and unanswered marks. */
export interface MemoryStoreUsage {
  readonly records: number;
  readonly bytes: number;
  readonly keptBytes: number;
  readonly maxBytes: number;
}

/**
 * A copy of `record` with `changes`, every field always present (absent is `undefined`): records of one shape,
 * never reshaped by `delete` or built by spreading, keep V8's fast property access, which a store operation
 * on every shopper return leans on (spreads and deletes made its records slow dictionaries: a read, claim and settle
 * cost 6–7 µs that way, about 4 µs in one shape).
 */
const recordOf = (record: StoredRecord, changes: Partial<StoredRecord> = {}): StoredRecord => {
  const pick = <K extends keyof StoredRecord>(name: K): StoredRecord[K] =>
    (name in changes ? changes[name] : record[name]) as StoredRecord[K];
  return {
    final: pick('final'),
    holder: pick('holder'),
    until: pick('until'),
    calls: pick('calls'),
    countedUntil: pick('countedUntil'),
    answerOf: pick('answerOf'),
    answer: pick('answer'),
    unanswered: pick('unanswered'),
  };
};

const RECORD_OVERHEAD = 64;
const sizeOf = (key: string, record: StoredRecord) =>
  RECORD_OVERHEAD +
  key.length +
  (record.final?.length ?? 0) +
  (record.answer?.length ?? 0) +
  (record.answerOf?.length ?? 0) +
  (record.holder?.length ?? 0) +
  record.calls.length * 16;
const isKept = (record: StoredRecord) => record.final !== undefined || record.unanswered !== undefined;

/**
 * The default store: in this process's memory, bounded in bytes. Shares nothing with other processes.
 * Answers and unanswered marks live their whole `ttlMs`: the bound is kept by dropping hints
 * (the client's memory of the checkouts it created), oldest first, then the marks settled as hints once no hint is
 * left (a checkout status's mark, worth nothing without its checkout's memory), and then by refusing new claims
 * (`StatusStoreUnavailableError`, throttled, with `retryAfterSeconds`), never by dropping an answer or another mark.
 */
export function createMemoryStatusStore(
  options: MemoryStatusStoreOptions = {},
): StatusStore & { readonly size: number; readonly usage: MemoryStoreUsage } {
  checkStoreOptions('createMemoryStatusStore(options)', options, ['ttlMs', 'maxBytes', 'transientMs', 'claimMs', 'waitMs']);
  const { ttlMs, maxBytes, transientMs } = { ...STATUS_STORE_DEFAULTS, ...options };
  const now = options.now ?? Date.now;
  const since = now();
  // Two maps in order of last write, so the first entry of each is the next to expire.
  const kept = new Map<string, Entry>();
  const transient = new Map<string, Entry>();
  /**
   * Kept records settled as hints (what the client remembers of the checkouts it creates), oldest first: the first to
   * go for room. Losing one costs a proof, never an answer: that checkout's "no session" reads as unknown, not expired.
   * Without this, creations (a bot loading a checkout page) would fill the bound and refuse every shopper's claim.
   */
  const hints = new Set<string>();
  /**
   * Unanswered marks settled as hints, oldest first: dropped for room only once every hint is gone, so a mark never
   * goes while the memory it is read beside stays. Without this, created checkouts whose status answers were lost
   * (a bot during a gateway incident) would fill the bound with marks for their whole `ttlMs` and refuse every shopper.
   */
  const hintedMarks = new Set<string>();
  let bytes = 0;
  let keptBytes = 0;
  const drop = (key: string) => {
    const entry = kept.get(key) ?? transient.get(key);
    if (!entry) return;
    bytes -= entry.size;
    if (kept.delete(key)) keptBytes -= entry.size;
    transient.delete(key);
    hints.delete(key);
    hintedMarks.delete(key);
  };
  /**
   * Drops hints, then hinted marks, oldest first, until `size` more bytes fit (or none is left); true when they fit.
   * A mark whose record still counts status calls within their minute stays until they leave it: dropped with it,
   * they would let a third call a minute go out, past the gateway's limit.
   */
  const makeRoom = (size: number) => {
    const at = now();
    for (const droppable of [hints, hintedMarks])
      for (const key of droppable) {
        if (bytes + size <= maxBytes) break;
        if (droppable === hintedMarks && ((kept.get(key) ?? transient.get(key))?.record.countedUntil ?? 0) > at) continue;
        drop(key);
      }
    return bytes + size <= maxBytes;
  };
  // No entry expires before `sweepAt`, so until then a sweep would find nothing. Every operation sweeping
  // would walk the holes deleted entries leave at the front of a Map (V8 compacts it only when it grows):
  // under 200 concurrent returns that walk was a tenth of a return's CPU.
  let sweepAt = -Infinity;
  // A clock that went back breaks the order the bound relies on: then every operation sweeps, as before.
  let latest = -Infinity;
  let ordered = true;
  const expire = () => {
    const at = now();
    if (ordered && at < sweepAt) return;
    for (const map of [kept, transient]) {
      for (const [key, entry] of map) {
        if (entry.expires > at) break;
        lapse(key, entry);
      }
    }
    // Kept entries expire in the order they were written; a transient one no sooner than `transientMs` after its write.
    const firstKept = kept.values().next().value;
    const firstTransient = transient.values().next().value;
    sweepAt = Math.min(firstKept?.expires ?? Infinity, firstTransient ? firstTransient.written + transientMs : Infinity);
  };
  const read = (key: string): StoredRecord | undefined => {
    expire();
    const entry = kept.get(key) ?? transient.get(key);
    if (entry && entry.expires <= now()) lapse(key, entry);
    return (kept.get(key) ?? transient.get(key))?.record;
  };
  const write = (key: string, record: StoredRecord) => {
    drop(key);
    const at = now();
    if (at < latest) ordered = false;
    latest = at;
    const size = sizeOf(key, record);
    const keep = isKept(record);
    const expires = keep ? at + ttlMs : Math.max(Math.max(at, record.until ?? 0) + transientMs, record.countedUntil ?? 0);
    const entry = { record, size, written: at, expires };
    sweepAt = Math.min(sweepAt, entry.expires);
    (keep ? kept : transient).set(key, entry);
    bytes += size;
    if (keep) keptBytes += size;
  };
  /**
   * An expired record goes, except a claim never ended: its holder vanished mid-work (a process that died, a store it
   * could not reach), so its work may have gone out, and the mark that it did is kept `ttlMs`, as when a holder says so
   * (a notification retried an hour later is told `resumed`).
   */
  function lapse(key: string, { record }: Entry) {
    drop(key);
    if (record.holder !== undefined)
      write(key, recordOf(record, { holder: undefined, until: undefined, calls: [], unanswered: record.unanswered ?? record.until }));
  }
  /** New transient work is refused once the store holds `maxBytes` that no hint can make room for. */
  const ensureRoom = (key: string, record: StoredRecord) => {
    const current = kept.get(key) ?? transient.get(key);
    if (makeRoom(sizeOf(key, record) - (current?.size ?? 0))) return;
    const next = transient.values().next().value;
    throw new StatusStoreUnavailableError(
      `The status store holds its ${maxBytes} bytes; no new claim until records expire (nothing was sent)`,
      {
        retryAfterSeconds: Math.max(1, Math.ceil(((next?.expires ?? now() + transientMs) - now()) / 1000)),
      },
    );
  };
  // No await between reading and writing a record: each operation is atomic on the event loop.
  return {
    timing: { claimMs: options.claimMs, waitMs: options.waitMs },
    get size() {
      return kept.size + transient.size;
    },
    get usage() {
      expire();
      return { records: kept.size + transient.size, bytes, keptBytes, maxBytes };
    },
    claim(key, request) {
      const record = read(key) ?? { calls: [] };
      const answer = decideClaim(record, request);
      if (answer.status !== 'claimed') return answer;
      const lapsed = record.holder !== undefined;
      const next = recordOf(record, {
        holder: request.token,
        until: request.until,
        calls: grantedCalls(record, request),
        countedUntil: request.limit ? request.now + request.limit.windowMs : record.countedUntil,
        unanswered: record.unanswered ?? (lapsed ? request.now : undefined),
      });
      const { unanswered } = next;
      if (!isKept(next)) ensureRoom(key, next);
      write(key, next);
      return { status: 'claimed', since, ...(unanswered !== undefined ? { unanswered: true } : {}) };
    },
    settle(key, token, { value, final, unanswered, hint }) {
      const found = read(key);
      const record = recordOf(found ?? { calls: [] });
      if (value === undefined && record.holder !== token) return record.final;
      // A hint: older ones make room for it (it is written whatever the bound: the client's memory of a checkout it
      // just created is worth more than one older), and it is among the first to go when room is needed.
      const hinted = hint === true && found === undefined && value !== undefined;
      if (hinted) makeRoom(sizeOf(key, recordOf(record, { final: final ? value : undefined, answer: value, answerOf: token })));
      if (value !== undefined) {
        if (final && record.final === undefined) record.final = value;
        record.answerOf = token;
        record.answer = value;
        // An answer is what was unknown: the key is known again, but only by the holder's own answer. A lapsed claim's late
        // answer is older than what a later claim sent (its lost answer left the mark): it leaves the mark as it is.
        if (record.holder === token) record.unanswered = undefined;
      } else if (unanswered) record.unanswered = now();
      if (record.holder === token) {
        record.holder = undefined;
        record.until = undefined;
      }
      write(key, record);
      if (hinted) hints.add(key);
      // A hinted mark of a key that holds nothing else: it stays droppable only while nothing is written to it again.
      else if (hint === true && unanswered && value === undefined && record.final === undefined) hintedMarks.add(key);
      return record.final;
    },
    renew(key, token, until) {
      const record = read(key);
      if (record?.holder !== token) return false;
      write(key, recordOf(record, { until }));
      return true;
    },
    read(key) {
      return read(key)?.final;
    },
  };
}

/** The contract's order of outcomes for one record (the Redis store's Lua script follows the same steps). */
function decideClaim(record: StoredRecord, request: ClaimRequest): ClaimAnswer {
  if (record.final !== undefined) return { status: 'final', value: record.final };
  // `settle` writes answerOf and answer together.
  if (request.answerOf !== undefined && record.answerOf === request.answerOf) return { status: 'answer', value: record.answer! };
  if (record.holder !== undefined && record.until !== undefined && record.until > request.now)
    return { status: 'busy', holder: record.holder, until: record.until };
  if (request.limit) {
    const calls = recentCalls(record, request.now, request.limit.windowMs);
    if (calls.length >= request.limit.count) return { status: 'limited', retryAt: Math.min(...calls) + request.limit.windowMs };
  }
  return { status: 'claimed' };
}

const recentCalls = (record: StoredRecord, now: number, windowMs: number) => record.calls.filter((at) => now - at < windowMs);
const grantedCalls = (record: StoredRecord, { now, limit }: ClaimRequest) =>
  limit ? [...recentCalls(record, now, limit.windowMs), now] : [];
