/**
 * Where the shopper-return handler remembers a checkout's status calls and its
 * first approved payment, so a reload (or a second server instance sharing the
 * store) neither meets the consumed-checkout answer nor exceeds the gateway's
 * 2-status-calls-a-minute limit.
 */
import type { Payment } from './types.js';

export interface StatusRecord {
  /** The first approved payment read for this resource path; answered from here from then on. */
  readonly payment?: Payment;
  /** When status calls were sent (ms since the epoch), for the 2-a-minute limit. */
  readonly calls: readonly number[];
}

/** Implement over Redis, a database, etc. to share it between server instances. Keys are resource paths. */
export interface StatusStore {
  get(key: string): StatusRecord | undefined | Promise<StatusRecord | undefined>;
  set(key: string, record: StatusRecord): void | Promise<void>;
}

export interface MemoryStatusStoreOptions {
  /** How long a record is kept after its last write. Default 24 hours. */
  ttlMs?: number;
  /** Most records kept; the least recently written goes first. Default 5000. */
  maxEntries?: number;
  now?: () => number;
}

export const STATUS_STORE_DEFAULTS = { ttlMs: 24 * 60 * 60 * 1000, maxEntries: 5000 } as const;

/** The default store: in this process's memory, bounded in age and size. */
export function createMemoryStatusStore(options: MemoryStatusStoreOptions = {}): StatusStore & { readonly size: number } {
  const { ttlMs, maxEntries } = { ...STATUS_STORE_DEFAULTS, ...options };
  const now = options.now ?? Date.now;
  const records = new Map<string, { record: StatusRecord; expires: number }>();
  return {
    get size() {
      return records.size;
    },
    get(key) {
      const entry = records.get(key);
      if (entry && entry.expires <= now()) records.delete(key);
      return entry && entry.expires > now() ? entry.record : undefined;
    },
    set(key, record) {
      // Re-inserting moves the key to the end, so the Map's first key is always the oldest write.
      records.delete(key);
      records.set(key, { record, expires: now() + ttlMs });
      for (const oldest of records.keys()) {
        if (records.size <= maxEntries) break;
        records.delete(oldest);
      }
    },
  };
}
