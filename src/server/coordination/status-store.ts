/**
 * Where the server helper keeps the state that must be shared by everything
 * answering for one checkout or payment (concurrent requests, server instances):
 * who is reading a status right now, how many status calls went out this minute,
 * and the first approved answer. Every operation is atomic, so two instances can
 * never both decide to send the same status call.
 */
import {
  GatewayError,
  GatewayNetworkError,
  invalidArgument,
  isObject,
  isThenable,
  type GatewayErrorDetails,
  type OutcomeKind,
} from '../errors.js';

type Awaitable<T> = T | Promise<T>;

/** What `claim` asks for. Times are ms since the epoch, on the caller's clock. */
export interface ClaimRequest {
  /** Unique to this attempt: names the claim in `settle`, `renew` and another caller's `answerOf`. */
  readonly token: string;
  readonly now: number;
  /** The claim lapses at this time unless renewed (so a crashed holder frees the key). */
  readonly until: number;
  /** Counts each granted claim; refused once `count` were granted within the last `windowMs`. */
  readonly limit?: { readonly count: number; readonly windowMs: number };
  /** The token of a claim this caller waited for: when that claim left an answer, it is returned instead of a new claim. */
  readonly answerOf?: string;
}

/** One of five outcomes, decided atomically. */
export type ClaimAnswer =
  /** The key's lasting value (the first final `settle`): answer with it, send nothing. */
  | { readonly status: 'final'; readonly value: string }
  /** The answer the claim named by `answerOf` left. */
  | { readonly status: 'answer'; readonly value: string }
  /** Another live claim holds the key: wait for it (it lapses at `until`). */
  | { readonly status: 'busy'; readonly holder: string; readonly until: number }
  /** `limit` is used up; the oldest counted claim leaves the window at `retryAt`. */
  | { readonly status: 'limited'; readonly retryAt: number }
  /**
   * The caller holds the key until `until` and must `settle` it. `unanswered`:
   * an earlier holder's work went out and its answer is unknown (it said so, or
   * its claim lapsed). `since`: when the store's data begins (its start, or the
   * moment it noticed it lost its data); nothing before that is known to it.
   */
  | { readonly status: 'claimed'; readonly unanswered?: boolean; readonly since?: number };

/**
 * The shared state behind `handleShopperReturn` and `createFulfilment`. Keys are
 * strings the helper chooses (`status:{entityId}:/v1/checkouts/{id}/payment`: an answer is kept per entity, as the gateway answers per entity;
 * `fulfil:{paymentId}`, `checkout:{id}`); values are strings (JSON) the store never interprets.
 *
 * The contract every implementation keeps (test/server/coordination/status-store.contract.ts
 * holds the memory and the Redis store to it):
 * - `claim` is one atomic step: a final value wins; then the answer of the claim
 *   named in `answerOf`; then a live claim (`until` > `now`) makes the caller
 *   wait; then a used-up `limit` refuses; otherwise the claim is granted and,
 *   with a `limit`, counted at `now` (a sliding window, not calendar minutes).
 *   A granted claim says `unanswered` when an earlier claim ended `unanswered`
 *   or lapsed (its holder vanished mid-work), until the holder of a later claim
 *   settles a value (a lapsed claim's late answer is to an older read: it clears nothing).
 * - `settle` stores `value` as the answer of `token`'s claim, makes it the key's
 *   final value when `final` is set and there is none yet (the first final is kept
 *   for the store's whole `ttlMs`, whatever else is written), ends the claim when `token` still
 *   holds it, and returns the final value. It works even after the claim lapsed:
 *   an answer read from the gateway is never thrown away. `unanswered` (without
 *   a value) ends the claim and records that its work went out unanswered.
 * - `renew` moves a claim's `until` while `token` holds it; false once it lost it.
 * - `read` returns the key's final value, if any, and writes nothing.
 * - Final values and `unanswered` marks live `ttlMs` after their last write and
 *   are never evicted for room, except a final value settled as a `hint` (what
 *   the caller can do without: the client's memory of a checkout it created),
 *   which a store short of room may drop first, and then an unanswered mark settled
 *   as a hint (a mark read only beside those memories: once they are gone, it tells
 *   nothing the caller does not already assume); everything else (claims,
 *   counted calls, answers that are not final) may expire once no claim and no
 *   counted call needs it.
 * - A store that cannot vouch for its answer (unreachable, timed out, its data
 *   lost, full) throws `StatusStoreUnavailableError`: it never grants a claim it is
 *   unsure of, since that could send a status call another holder already sent.
 */
export interface StatusStore {
  claim(key: string, request: ClaimRequest): Awaitable<ClaimAnswer>;
  settle(
    key: string,
    token: string,
    settlement: { value?: string; final?: boolean; unanswered?: boolean; hint?: boolean },
  ): Awaitable<string | undefined>;
  renew(key: string, token: string, until: number): Awaitable<boolean>;
  /** Optional for stores written before it: without it, no "not found" is believed (see README "The status store"). */
  read?(key: string): Awaitable<string | undefined>;
  /** How long a claim lives without renewal and how long a caller waits for another's; defaults in STATUS_STORE_DEFAULTS. */
  readonly timing?: { readonly claimMs?: number; readonly waitMs?: number };
}

/**
 * The shared store could not answer (unreachable, too slow, full, or it lost its data).
 * Nothing was sent to the gateway because of the request that got it: try again
 * later. `cause` holds the store's own error when there was one.
 */
export class StatusStoreUnavailableError extends GatewayError {
  override name = 'StatusStoreUnavailableError';
  // For the shopper it is what a throttled read is: nothing was sent, try again shortly.
  override readonly outcome: OutcomeKind = 'throttled';
  /** Seconds after which the store may answer again, when known. */
  declare readonly retryAfterSeconds?: number;

  constructor(message: string, details: GatewayErrorDetails = {}) {
    // What the store would have told (a paid checkout, a fulfilment done) is not known: never a safe new attempt.
    super(message, { paymentMayExist: true, ...details });
  }
}

export const STATUS_STORE_DEFAULTS = {
  /** How long a final value (an approval, a done fulfilment) or an unanswered mark is kept after its last write. */
  ttlMs: 24 * 60 * 60 * 1000,
  /** The memory store's bound, in UTF-16 code units of keys and values (about bytes × 2 in RAM): beyond it, new claims are refused. */
  maxBytes: 32 * 1024 * 1024,
  /** How long a record without a final value outlives its claim: the status-call window plus a margin for waiters. Counted calls keep their record until they leave their window, however short this is. */
  transientMs: 2 * 60 * 1000,
  /** A claim lapses this long after its last renewal; a live holder renews it every third of that. */
  claimMs: 10_000,
  /** How long a caller waits for another's claim before giving up with GatewayThrottledError. */
  waitMs: 30_000,
} as const;

/** A granted claim, renewed while its work runs. `signal` aborts when the claim was lost (it lapsed and another took it). */
export interface Lease {
  readonly signal: AbortSignal;
  /** Stores the answer (a final one for everyone from now on) and ends the claim; resolves to the key's final value. */
  settle(value: string, final: boolean): Promise<string | undefined>;
  /** Ends the claim without an answer (the work failed): the next caller may try. */
  release(): Promise<void>;
  /**
   * Ends the claim recording that its work went out and the answer is unknown: every later claim is told `unanswered`.
   * `hint`: the mark means something only beside the hints settled before it (a checkout status's, beside the memory
   * of the checkout's creation), so a store short of room may drop it once no hint is left.
   */
  unanswered(hint?: boolean): Promise<void>;
}

export type Acquired =
  | { readonly kind: 'value'; readonly value: string; readonly final: boolean }
  /** `unanswered` and `since` as the store granted the claim (see ClaimAnswer). */
  | { readonly kind: 'lease'; readonly lease: Lease; readonly unanswered: boolean; readonly since: number | undefined }
  | { readonly kind: 'limited'; readonly retryAt: number }
  /** Another claim still held the key when `waitMs` ran out. */
  | { readonly kind: 'busy'; readonly until: number };

export interface AcquireOptions {
  now: () => number;
  limit?: ClaimRequest['limit'];
  signal?: AbortSignal | undefined;
}

/**
 * Claims `key`, or waits for the claim that holds it and takes its answer. The
 * wait is bounded: the holder renews its claim only while it works, a crashed
 * holder's claim lapses after `claimMs`, and nobody waits longer than `waitMs`.
 * Store failures become `StatusStoreUnavailableError`.
 */
export async function acquire(store: StatusStore, key: string, options: AcquireOptions): Promise<Acquired> {
  const { claimMs, waitMs } = timingOf(store);
  const { now, limit, signal } = options;
  const giveUpAt = Date.now() + waitMs;
  let answerOf: string | undefined;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted)
      throw new GatewayNetworkError('The wait for the status store was aborted by its caller; nothing was sent', { cause: signal.reason });
    const token = globalThis.crypto.randomUUID();
    const at = now();
    const answer = claimAnswerOf(await guarded(() => store.claim(key, claimRequest(token, at, at + claimMs, limit, answerOf))));
    switch (answer.status) {
      case 'final':
      case 'answer':
        return { kind: 'value', value: answer.value, final: answer.status === 'final' };
      case 'limited':
        return { kind: 'limited', retryAt: answer.retryAt };
      case 'claimed':
        return {
          kind: 'lease',
          lease: startLease(store, key, token, claimMs, now),
          unanswered: answer.unanswered === true,
          since: answer.since,
        };
      case 'busy': {
        if (Date.now() >= giveUpAt) return { kind: 'busy', until: answer.until };
        answerOf = answer.holder;
        // Woken at once when the holder is in this process; otherwise short first polls
        // (a status call takes a few hundred ms), then at most every 100 ms.
        await nextLook(store, key, Math.min(100, 5 * 2 ** attempt, Math.max(1, giveUpAt - Date.now())), signal);
      }
    }
  }
}

/**
 * A claim's answer as the contract shapes it, or the store failing, typed: a store of the merchant's own may answer
 * anything, and a status nobody handles would be polled again at once, for ever, without yielding.
 */
function claimAnswerOf(answer: ClaimAnswer): ClaimAnswer {
  const { status, value, holder, until, retryAt, since } = (answer ?? {}) as Partial<Record<string, unknown>>;
  const time = (field: unknown) => typeof field === 'number' && Number.isFinite(field);
  const valid =
    status === 'final' || status === 'answer'
      ? typeof value === 'string'
      : status === 'busy'
        ? typeof holder === 'string' && time(until)
        : status === 'limited'
          ? time(retryAt)
          : status === 'claimed' && (since === undefined || time(since));
  if (valid) return answer;
  throw new StatusStoreUnavailableError(
    `The status store answered a claim with a reply that is not one (status ${typeof status === 'string' ? JSON.stringify(status.slice(0, 20)) : typeof status})`,
    {
      retryAfterSeconds: 1,
    },
  );
}

/** The store's claim and wait times, each the default where the store does not set it. */
function timingOf(store: StatusStore): { claimMs: number; waitMs: number } {
  const { claimMs = STATUS_STORE_DEFAULTS.claimMs, waitMs = STATUS_STORE_DEFAULTS.waitMs } = store.timing ?? {};
  return { claimMs, waitMs };
}

/** A claim's request; `limit` and `answerOf` only when there is one (a store may tell absent from undefined). */
function claimRequest(token: string, now: number, until: number, limit: ClaimRequest['limit'], answerOf: string | undefined): ClaimRequest {
  const request: { -readonly [K in keyof ClaimRequest]: ClaimRequest[K] } = { token, now, until };
  if (limit) request.limit = limit;
  if (answerOf) request.answerOf = answerOf;
  return request;
}

function startLease(store: StatusStore, key: string, token: string, claimMs: number, now: () => number): Lease {
  // Made when `signal` is first read (fulfilment reads it; a shopper return never does): an AbortController
  // costs about 25 µs in Node 20, a tenth of a status read on loopback.
  let lost: AbortController | undefined;
  let lostReason: StatusStoreUnavailableError | undefined;
  const renewal = setInterval(() => {
    Promise.resolve()
      .then(() => store.renew(key, token, now() + claimMs))
      .then(
        (held) => {
          if (held || lostReason) return;
          lostReason = new StatusStoreUnavailableError(`The claim on ${key} lapsed and was taken by another request`);
          lost?.abort(lostReason);
        },
        () => undefined, // The store is unreachable: so are the others; the claim lasts until it lapses.
      );
  }, claimMs / 3);
  (renewal as { unref?: () => void }).unref?.();
  const end = () => clearInterval(renewal);
  return {
    get signal() {
      if (!lost) {
        lost = new AbortController();
        if (lostReason) lost.abort(lostReason);
      }
      return lost.signal;
    },
    async settle(value, final) {
      end();
      return guarded(() => store.settle(key, token, { value, final })).finally(() => wake(store, key));
    },
    async release() {
      end();
      await guarded(() => store.settle(key, token, {})).finally(() => wake(store, key));
    },
    async unanswered(hint) {
      end();
      await guarded(() => store.settle(key, token, hint ? { unanswered: true, hint } : { unanswered: true })).finally(() =>
        wake(store, key),
      );
    },
  };
}

/** Runs one store operation; anything but our own typed errors becomes StatusStoreUnavailableError. */
export function guarded<T>(operation: () => Awaitable<T>): Promise<T> {
  try {
    const value = operation();
    // A store that answers at once (the memory store) costs its caller one microtask, not the three of an async wrapper.
    return isThenable<T>(value)
      ? Promise.resolve(value).catch((error: unknown) => {
          throw storeFailure(error);
        })
      : Promise.resolve(value);
  } catch (error) {
    return Promise.reject(storeFailure(error));
  }
}

/** Our own typed errors as they are; anything else a store throws or rejects with, as StatusStoreUnavailableError. */
const storeFailure = (error: unknown): Error =>
  error instanceof GatewayError
    ? error
    : new StatusStoreUnavailableError('The status store did not answer', { cause: error, retryAfterSeconds: 1 });

/** Callers of this process waiting for a key of a store, woken when a lease of this process on it ends. */
const sleepers = new WeakMap<StatusStore, Map<string, Set<() => void>>>();

function wake(store: StatusStore, key: string) {
  const waiting = sleepers.get(store)?.get(key);
  sleepers.get(store)?.delete(key);
  for (const resume of waiting ?? []) resume();
}

/** Resolves after `ms`, or sooner when a lease of this process on `key` ends; rejects when `signal` aborts. */
function nextLook(store: StatusStore, key: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const byKey = sleepers.get(store) ?? new Map<string, Set<() => void>>();
    sleepers.set(store, byKey);
    const waiting = byKey.get(key) ?? new Set<() => void>();
    byKey.set(key, waiting);
    const timer = setTimeout(done, ms);
    waiting.add(done);
    // settle() removes it, whichever way the wait ends.
    signal?.addEventListener('abort', aborted);
    function settle() {
      clearTimeout(timer);
      waiting.delete(done);
      if (!waiting.size && byKey.get(key) === waiting) byKey.delete(key);
      signal?.removeEventListener('abort', aborted);
    }
    function done() {
      settle();
      resolve();
    }
    function aborted() {
      settle();
      reject(
        new GatewayNetworkError('The wait for the status store was aborted by its caller; nothing was sent', { cause: signal!.reason }),
      );
    }
  });
}

/** True for an object that keeps the StatusStore contract's three operations. */
export function isStatusStore(value: unknown): value is StatusStore {
  const store = value as Partial<StatusStore> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.claim === 'function' &&
    typeof store.settle === 'function' &&
    typeof store.renew === 'function'
  );
}

/** Options of a built-in store: an object whose durations are positive, finite numbers and whose clock is a function. */
export function checkStoreOptions(what: string, options: unknown, durations: readonly string[]): void {
  if (!isObject(options)) throw invalidArgument(what, 'must be an object of options');
  for (const name of durations) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0))
      throw invalidArgument(`${what}.${name}`, 'must be a positive number of milliseconds');
  }
  if (options.now !== undefined && typeof options.now !== 'function') throw invalidArgument(`${what}.now`, 'must be a function');
}
