/**
 * The sandbox's request log, bounded in entries and in bytes: values are cut,
 * an entry keeps a few kilobytes of fields at most, and the oldest entries go
 * first. Whatever a request carries, reading the log stays a small answer.
 */
import { REQUEST_IDENTIFIER_NAMES, type Redactor } from '../../contract/redaction.js';
import { utf8Length, utf8Prefix } from '../bytes.js';
import type { SandboxLimits } from '../limits.js';
import type { FaultMode } from './faults.js';
import type { FlatParams } from '../gateway/store.js';

export interface LoggedRequest {
  /** ISO time on the sandbox clock. */
  readonly at: string;
  readonly method: string;
  /** Path without the query (scrubbed of card numbers, cut to `logValueBytes`). */
  readonly path: string;
  /** HTTP status; 0 when the connection was dropped or left hanging by a fault. */
  readonly status: number;
  readonly resultCode?: string;
  /** The payment the request created or acted on, when there is one. */
  readonly paymentId?: string;
  /**
   * Query and form parameters scrubbed of secrets (`card.number` and `card.cvv`
   * masked by name, the request's token and card data and any card number by value), each value
   * cut to `logValueBytes`; fields beyond `logEntryBytes` are left out and
   * counted under the name `…`.
   */
  readonly params: Readonly<Record<string, string>>;
  /** The fault injected into this request, if any. */
  readonly fault?: FaultMode;
}

/** The name under which an entry counts the fields it left out. */
export const OMITTED_FIELDS = '…';

/** Cuts text to at most `bytes` bytes of UTF-8, marking the cut. */
export function cut(text: string, bytes: number): string {
  if (text.length * 3 <= bytes) return text;
  const length = utf8Length(text);
  return length <= bytes ? text : `${utf8Prefix(text, bytes)}…(${length} bytes)`;
}

/** What an entry counts against `logBytes`: its text and a fixed overhead for the object. */
const ENTRY_OVERHEAD_BYTES = 256;

export class RequestLog {
  #entries: LoggedRequest[] = [];
  #sizes: number[] = [];
  #bytes = 0;
  /** Entries before this index are dropped. */
  #head = 0;

  constructor(readonly limits: Pick<SandboxLimits, 'logEntries' | 'logBytes' | 'logValueBytes' | 'logEntryBytes'>) {}

  get size(): number {
    return this.#entries.length - this.#head;
  }

  /** Bytes the log counts against `logBytes` now. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The entries, oldest first, as they are now: a copy, since the request reading them is logged before its answer
   * is written (the live array then showed that read, and one entry past `logEntries`).
   */
  entries(): readonly LoggedRequest[] {
    return this.#entries.slice(this.#head);
  }

  /** The parameters as an entry keeps them: scrubbed of secrets (by name, by the request's own, by shape), cut, at most `logEntryBytes` in all. */
  params(params: Readonly<FlatParams>, redact: Redactor): Record<string, string> {
    // No prototype: a parameter named `__proto__` is logged like any other.
    const kept = Object.create(null) as Record<string, string>;
    let bytes = 0;
    let omitted = 0;
    for (const name in params) {
      const entryName = cut(redact(name), this.limits.logValueBytes);
      const value = cut(redact.deep(params[name]!, name, false, REQUEST_IDENTIFIER_NAMES), this.limits.logValueBytes);
      const size = utf8Length(entryName) + utf8Length(value);
      if (bytes + size > this.limits.logEntryBytes) {
        omitted++;
        continue;
      }
      bytes += size;
      kept[entryName] = value;
    }
    if (omitted) kept[OMITTED_FIELDS] = `${omitted} more fields`;
    return kept;
  }

  add(entry: LoggedRequest): void {
    const logged =
      entry.path.length * 3 > this.limits.logValueBytes ? { ...entry, path: cut(entry.path, this.limits.logValueBytes) } : entry;
    let size = ENTRY_OVERHEAD_BYTES + utf8Length(logged.path);
    for (const name in logged.params) size += utf8Length(name) + utf8Length(logged.params[name]!);
    this.#entries.push(logged);
    this.#sizes.push(size);
    this.#bytes += size;
    while (
      this.#entries.length - this.#head > this.limits.logEntries ||
      (this.#bytes > this.limits.logBytes && this.#entries.length - this.#head > 1)
    ) {
      this.#bytes -= this.#sizes[this.#head]!;
      this.#head++;
    }
    // Dropping from the front by index, and compacting now and then, keeps each request O(1).
    if (this.#head > 64) {
      this.#entries = this.#entries.slice(this.#head);
      this.#sizes = this.#sizes.slice(this.#head);
      this.#head = 0;
    }
  }

  clear(): void {
    this.#entries = [];
    this.#sizes = [];
    this.#bytes = 0;
    this.#head = 0;
  }
}
