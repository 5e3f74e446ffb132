/**
 * The status store on Redis, for merchant back ends running as several
 * instances. Each operation is one Lua script, so it is atomic across every
 * instance and connection. No dependency: the merchant passes the client they
 * already have (node-redis or ioredis), typed here by the one method we call.
 */
import { invalidArgument, isObject } from '../errors.js';
import {
  checkStoreOptions,
  STATUS_STORE_DEFAULTS,
  StatusStoreUnavailableError,
  type ClaimAnswer,
  type StatusStore,
} from './status-store.js';

/**
 * A connected Redis client: ioredis (`call(command, ...args)`) or node-redis 4+
 * (`sendCommand([command, ...args])`). Both resolve to the server's reply.
 */
export type RedisClientLike =
  { call(command: string, ...args: string[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> };

export interface RedisStatusStoreOptions {
  client: RedisClientLike;
  /** Put before every key, so the store can share a Redis with other data. Default `gw-elements:`. */
  prefix?: string;
  /** How long a record is kept after its last write. Default 24 hours. */
  ttlMs?: number;
  /** Longest wait for one Redis operation before `StatusStoreUnavailableError`. Default 2000. */
  timeoutMs?: number;
  claimMs?: number;
  waitMs?: number;
  /** How long a record without a final value outlives its claim's end (a claim never ended leaves an unanswered mark, kept ttlMs). Default 2 minutes. */
  transientMs?: number;
  /**
   * The clock a settle dates its record by (and this process's copy of final values expires by), ms since the epoch;
   * claims are dated by the client's own clock, which should be this one. Default `Date.now`.
   */
  now?: () => number;
}

/** Final values this process saw, answered without a round trip (and through a Redis outage): a final value never changes. */
const LOCAL_FINALS = 1000;
/**
 * And at most this many UTF-16 code units of them: a payment's answer is a few kilobytes, but one may take up to the
 * 1 MB an answer can be, and a thousand of those would hold a gigabyte in every instance.
 */
const LOCAL_FINALS_MAX_UNITS = 8 * 1024 * 1024;

/**
 * A copy of final values, newest last, within `LOCAL_FINALS` entries and `LOCAL_FINALS_MAX_UNITS` code units. An
 * expired copy is not answered; it leaves when newer ones push it out.
 */
function localCopy(now: () => number, ttlMs: number) {
  const copies = new Map<string, { value: string; expires: number }>();
  let units = 0;
  const forget = (key: string) => {
    const entry = copies.get(key);
    if (entry) units -= key.length + entry.value.length;
    copies.delete(key);
  };
  return {
    remember(key: string, value: string) {
      forget(key);
      // One larger than the whole bound is not kept here (Redis still has it).
      if (key.length + value.length > LOCAL_FINALS_MAX_UNITS) return;
      copies.set(key, { value, expires: now() + ttlMs });
      units += key.length + value.length;
      while (copies.size > LOCAL_FINALS || units > LOCAL_FINALS_MAX_UNITS) forget(copies.keys().next().value!);
    },
    value(key: string): string | undefined {
      const entry = copies.get(key);
      return entry && entry.expires > now() ? entry.value : undefined;
    },
  };
}

// The record is a hash: final, holder, until, calls (comma-separated times), countedUntil (when the newest call leaves
// its window: an ended claim's record is kept until then, however short transientMs), answerOf, answer, unanswered.
// A held claim's record lives ttlMs past its until: if its holder vanishes mid-work, the next claim reads that it
// lapsed (and its work may have gone out) for as long as an unanswered mark is kept; a settle shortens it.
// The marker KEYS[2] holds when the store's data began and has no expiry: when it is missing, Redis
// is new or lost its data, whichever instance looks first; every instance reads the same marker.
// A field that is not what this script wrote (a corrupted record) is a Lua error: the store cannot answer.
const CLAIM = `
local now = tonumber(ARGV[2])
local since = redis.call('GET', KEYS[2])
if not since then
  since = ARGV[2]
  redis.call('SET', KEYS[2], since)
end
local r = redis.call('HMGET', KEYS[1], 'final', 'holder', 'until', 'calls', 'answerOf', 'answer', 'unanswered')
if r[1] then return {'final', since, r[1]} end
if ARGV[6] ~= '' and r[5] == ARGV[6] and r[6] then return {'answer', since, r[6]} end
if r[2] then
  local held = tonumber(r[3])
  if not held then return redis.error_reply('corrupted record') end
  if held > now then return {'busy', since, r[2], r[3]} end
end
local calls = {}
if ARGV[4] ~= '' then
  local window = tonumber(ARGV[5])
  local oldest
  for at in string.gmatch(r[4] or '', '[^,]+') do
    local t = tonumber(at)
    if not t then return redis.error_reply('corrupted record') end
    if now - t < window then
      table.insert(calls, at)
      if not oldest or t < oldest then oldest = t end
    end
  end
  if #calls >= tonumber(ARGV[4]) then return {'limited', since, string.format('%d', oldest + window)} end
  table.insert(calls, ARGV[2])
end
local unanswered = r[7]
if not unanswered and r[2] then unanswered = ARGV[2] end
redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'until', ARGV[3], 'calls', table.concat(calls, ','))
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'countedUntil', string.format('%d', now + tonumber(ARGV[5]))) end
if unanswered then
  redis.call('HSET', KEYS[1], 'unanswered', unanswered)
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
  return {'claimed', since, '1'}
end
redis.call('PEXPIRE', KEYS[1], math.max(0, tonumber(ARGV[3]) - now) + tonumber(ARGV[7]))
return {'claimed', since, '0'}
`;

// Final values and unanswered marks live ttlMs; an ended claim's record transientMs. A late answer of a claim that
// lapsed leaves the record's life as the claim that replaced it set it: that holder may still vanish mid-work, and the
// next claim must then read that it did.
const SETTLE = `
local r = redis.call('HMGET', KEYS[1], 'final', 'holder', 'countedUntil')
local final = r[1]
local holds = r[2] == ARGV[1]
if ARGV[3] == '1' then
  if ARGV[4] == '1' and not final then
    final = ARGV[2]
    redis.call('HSET', KEYS[1], 'final', final)
  end
  redis.call('HSET', KEYS[1], 'answerOf', ARGV[1], 'answer', ARGV[2])
  if holds then redis.call('HDEL', KEYS[1], 'unanswered') end
elseif ARGV[6] == '1' and holds then
  redis.call('HSET', KEYS[1], 'unanswered', ARGV[7])
end
if holds then redis.call('HDEL', KEYS[1], 'holder', 'until') end
if ARGV[3] == '1' or holds then
  if final or redis.call('HEXISTS', KEYS[1], 'unanswered') == 1 then
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
  elseif holds or not r[2] then
    redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[8]), (tonumber(r[3]) or 0) - tonumber(ARGV[7])))
  end
end
if final then return {'1', final} end
return {'0', ''}
`;

const RENEW = `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'until', ARGV[2])
if redis.call('HEXISTS', KEYS[1], 'unanswered') == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return 1
`;

const READ = `return redis.call('HGET', KEYS[1], 'final')`;

/** `createRedisStatusStore({ client })`: the shared store for several instances. Throws `StatusStoreUnavailableError` when Redis cannot answer. */
export function createRedisStatusStore(options: RedisStatusStoreOptions): StatusStore {
  checkStoreOptions('createRedisStatusStore(options)', options, ['ttlMs', 'transientMs', 'claimMs', 'waitMs', 'timeoutMs']);
  if (options.prefix !== undefined && typeof options.prefix !== 'string')
    throw invalidArgument('createRedisStatusStore(options).prefix', 'must be a string');
  const { client } = options;
  const send = commandSender(client);
  const prefix = options.prefix ?? 'gw-elements:';
  const ttl = options.ttlMs ?? STATUS_STORE_DEFAULTS.ttlMs;
  const ttlMs = String(ttl);
  const timeoutMs = options.timeoutMs ?? 2000;
  const transientMs = options.transientMs ?? STATUS_STORE_DEFAULTS.transientMs;
  // A renewed claim's record outlives the claim's next lapse by ttlMs, as a claim's does (see CLAIM).
  const renewedMs = String(ttl + (options.claimMs ?? STATUS_STORE_DEFAULTS.claimMs));
  const now = options.now ?? Date.now;
  // Two copies of final values, both answered: what claims and settles saw, and what reads saw (in practice the client's
  // memories of the checkouts it created, which every return reads first, one per page load), so the one never pushes
  // the other out: a return through an outage needs both.
  const finals = localCopy(now, ttl);
  const reads = localCopy(now, ttl);

  async function run(script: Script, keys: string[], args: string[]): Promise<unknown> {
    const operation = (async () => {
      const sha = await script.sha;
      try {
        return await send(['EVALSHA', sha, String(keys.length), ...keys, ...args]);
      } catch (error) {
        // A restarted Redis has an empty script cache: send the script itself once (EVAL caches it again).
        if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
        return send(['EVAL', script.source, String(keys.length), ...keys, ...args]);
      }
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StatusStoreUnavailableError(`Redis did not answer within ${timeoutMs} ms`, { retryAfterSeconds: 1 })),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([operation, timeout]);
    } catch (error) {
      if (error instanceof StatusStoreUnavailableError) throw error;
      // Redis answered with an error reply (ioredis's `ReplyError`, node-redis's `ErrorReply`), which names its kind first
      // (`OOM`: full under noeviction; `READONLY`: a replica): only that word is shown, Redis's text stays in the cause.
      const replied =
        error instanceof Error && [error.name, error.constructor.name].some((name) => name === 'ReplyError' || name === 'ErrorReply');
      const refusal = replied ? /^([A-Z]{2,20})\b/.exec(error.message)?.[1] : undefined;
      const message = refusal === undefined ? 'Redis could not be reached' : `Redis refused the operation (${refusal})`;
      throw new StatusStoreUnavailableError(message, { cause: error, retryAfterSeconds: 1 });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs the settle script: the key's final value, when it has one. */
  async function settleIn(key: string, token: string, value?: string, final?: boolean, unanswered?: boolean) {
    // The script's reply: ['1', final value] or ['0', ''].
    const [hasFinal, stored] = strings(
      await run(
        SETTLE_SCRIPT,
        [prefix + key],
        [
          token,
          value ?? '',
          value === undefined ? '0' : '1',
          final ? '1' : '0',
          ttlMs,
          unanswered ? '1' : '0',
          String(now()),
          String(transientMs),
        ],
      ),
    );
    return hasFinal === '1' && stored !== undefined ? stored : undefined;
  }

  return {
    timing: { claimMs: options.claimMs, waitMs: options.waitMs },
    async claim(key, request): Promise<ClaimAnswer> {
      const local = finals.value(key) ?? reads.value(key);
      if (local !== undefined) return { status: 'final', value: local };
      const { token, now, until, limit, answerOf } = request;
      const reply = strings(
        await run(
          CLAIM_SCRIPT,
          [prefix + key, `${prefix}epoch`],
          [
            token,
            String(now),
            String(until),
            limit ? String(limit.count) : '',
            limit ? String(limit.windowMs) : '',
            answerOf ?? '',
            ttlMs,
            String(transientMs),
          ],
        ),
      );
      // The script's replies: [status, since, value or holder or retryAt, until] (busy has all four). Anything else (a
      // proxy, another server, a corrupted cache) is no answer: a wait or a retry hint computed from it would be junk.
      const [status, marker, first, second] = reply;
      const since = timeOf(marker);
      if (since !== undefined && first !== undefined) {
        switch (status) {
          case 'final':
            finals.remember(key, first);
            return { status: 'final', value: first };
          case 'answer':
            return { status: 'answer', value: first };
          case 'busy': {
            const until = timeOf(second);
            if (until !== undefined) return { status: 'busy', holder: first, until };
            break;
          }
          case 'limited': {
            const retryAt = timeOf(first);
            if (retryAt !== undefined) return { status: 'limited', retryAt };
            break;
          }
          case 'claimed':
            if (first === '0' || first === '1') return { status: 'claimed', since, ...(first === '1' ? { unanswered: true } : {}) };
        }
      }
      throw new StatusStoreUnavailableError(`Redis answered the claim with ${shownReply(reply)}`);
    },
    async settle(key, token, { value, final, unanswered, hint }) {
      // A hint (the client's memory of a checkout it created, one per page load) is not copied here: a thousand page
      // loads would push out the approved payments this copy answers shoppers with through a Redis outage.
      if (hint) return settleIn(key, token, value, final, unanswered);
      if (final && value !== undefined && finals.value(key) === undefined) finals.remember(key, value);
      const stored = await settleIn(key, token, value, final, unanswered);
      if (stored !== undefined) finals.remember(key, stored);
      return stored;
    },
    async read(key) {
      const local = finals.value(key) ?? reads.value(key);
      if (local !== undefined) return local;
      const value = await run(READ_SCRIPT, [prefix + key], []);
      if (value === null || value === undefined) return undefined;
      const [text] = strings([value]);
      if (text === undefined) throw new StatusStoreUnavailableError(`Redis answered a read with ${shownReply(value)}`);
      reads.remember(key, text);
      return text;
    },
    async renew(key, token, until) {
      return Number(await run(RENEW_SCRIPT, [prefix + key], [token, String(until), ttlMs, renewedMs])) === 1;
    },
  };
}

interface Script {
  readonly source: string;
  readonly sha: Promise<string>;
}

function script(source: string): Script {
  let sha: Promise<string> | undefined;
  return {
    source,
    // Computed on first use (Web Crypto is asynchronous), once per process.
    get sha() {
      sha ??= globalThis.crypto.subtle
        .digest('SHA-1', new TextEncoder().encode(source))
        .then((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join(''));
      return sha;
    },
  };
}

const CLAIM_SCRIPT = script(CLAIM);
const SETTLE_SCRIPT = script(SETTLE);
const RENEW_SCRIPT = script(RENEW);
const READ_SCRIPT = script(READ);

/** One way to send a raw command, whichever client was given. ioredis also has a `sendCommand`, taking its own Command objects: `call` comes first. */
function commandSender(client: unknown): (args: string[]) => Promise<unknown> {
  if (isObject(client) && typeof client.call === 'function')
    return ([command, ...args]) => (client.call as (command: string, ...args: string[]) => Promise<unknown>)(command!, ...args);
  if (isObject(client) && typeof client.sendCommand === 'function')
    return (args) => (client.sendCommand as (args: string[]) => Promise<unknown>)(args);
  throw invalidArgument(
    'createRedisStatusStore(options).client',
    'must be a connected node-redis or ioredis client (an object with call() or sendCommand())',
  );
}

const decoder = new TextDecoder();
/** A reply's items as strings, whichever client decoded them (Buffers or strings); none when any item is something else. */
const strings = (reply: unknown): string[] =>
  Array.isArray(reply) && reply.every((item) => typeof item === 'string' || item instanceof Uint8Array)
    ? reply.map((item: string | Uint8Array) => (typeof item === 'string' ? item : decoder.decode(item)))
    : [];

/** A time the scripts wrote (milliseconds, as the caller's clock gave them); undefined for anything else. */
const timeOf = (text: string | undefined): number | undefined =>
  text !== undefined && /^-?\d{1,16}(\.\d+)?$/.test(text) ? Number(text) : undefined;

/** A reply as an error shows it: the start of its JSON, or its type when it has none. */
function shownReply(reply: unknown): string {
  try {
    return String(JSON.stringify(reply)).slice(0, 100);
  } catch {
    return typeof reply;
  }
}
