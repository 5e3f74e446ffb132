/**
 * The one fault model: a fault makes the sandbox's next `count` requests to a
 * gateway path hang, fail (HTTP 500) or drop. `Sandbox.fault`, the
 * `/__sandbox/faults` control, the merchant proxy's `/fault` and `gw-sandbox
 * trigger fault` all check a fault here, so they accept the same ones; the
 * request pipeline takes them here. No Node built-ins: the trigger CLI reads it too.
 */

/** `hang`: never answer; `error`: HTTP 500 before processing; `drop`: process, then close the socket unanswered. */
export type FaultMode = 'hang' | 'error' | 'drop';
export const FAULT_MODES: readonly FaultMode[] = ['hang', 'error', 'drop'];

/** The most requests one fault may cover: a bound, so a count is a small whole number in every caller. */
export const MAX_FAULT_COUNT = 999_999;

/**
 * The longest path a fault may name, in bytes: the gateway's longest path
 * (`/v1/checkouts/{id}/payment`, a checkout id of up to 48 characters) is under
 * 100, and 2 KB is the URL length every HTTP stack passes; beyond it no
 * request this fault could meet is sent by a real client.
 */
export const MAX_FAULT_PATH_BYTES = 2048;
/** Paths with a fault pending at once: the gateway has a dozen routes, so a test never needs more; listing them stays a small answer. */
export const MAX_PENDING_FAULTS = 100;
export const TOO_MANY_FAULTS = `has no fault set: ${MAX_PENDING_FAULTS} paths have one pending already (clear one with count 0, or reset)`;
/** What a request path is made of on the wire: visible ASCII (anything else is percent-encoded by every client), starting with `/`. */
const REQUEST_PATH = /^\/[\x21-\x7e]*$/;

/** A fault as set: `count` 0 clears the path's fault. */
export interface FaultSetting {
  readonly path: string;
  readonly mode: FaultMode;
  readonly count: number;
}

/** Why a fault was refused, by the field at fault (the controls answer it as a parameter error). */
export interface FaultRefusal {
  readonly name: 'path' | 'mode' | 'count';
  readonly value: string;
  readonly message: string;
}

/** Checks a fault given as text or numbers (a form, a query, a CLI argument or a typed call): the setting, or why not. */
export function checkFault(path: unknown, mode: unknown, count: unknown = 1): FaultSetting | FaultRefusal {
  if (typeof path !== 'string' || !REQUEST_PATH.test(path) || path.length > MAX_FAULT_PATH_BYTES || path.startsWith('/__sandbox/'))
    return {
      name: 'path',
      value: String(path).slice(0, 64),
      message: `must be a gateway path such as /v1/payments (visible ASCII, at most ${MAX_FAULT_PATH_BYTES} bytes)`,
    };
  if (!FAULT_MODES.includes(mode as FaultMode))
    return { name: 'mode', value: String(mode).slice(0, 64), message: `must be one of ${FAULT_MODES.join(', ')}` };
  const text = String(count);
  if (!/^\d{1,6}$/.test(text) || (typeof count !== 'string' && typeof count !== 'number'))
    return { name: 'count', value: text.slice(0, 64), message: `must be a whole number of requests, 0 to ${MAX_FAULT_COUNT}` };
  return { path, mode: mode as FaultMode, count: Number(text) };
}

export const isFaultRefusal = (checked: FaultSetting | FaultRefusal): checked is FaultRefusal => 'message' in checked;

/** The pending faults, by path: at most one per path, each counted down by the requests it takes. */
export class Faults {
  readonly #byPath = new Map<string, { mode: FaultMode; remaining: number }>();

  /** Sets (or, `count` 0, clears) the path's fault; false, and nothing set, when `MAX_PENDING_FAULTS` other paths have one. */
  set({ path, mode, count }: FaultSetting): boolean {
    if (count === 0) this.#byPath.delete(path);
    else if (this.#byPath.size >= MAX_PENDING_FAULTS && !this.#byPath.has(path)) return false;
    else this.#byPath.set(path, { mode, remaining: count });
    return true;
  }

  /** The fault the next request to `path` meets, counted as taken; the sandbox's own controls never meet one. */
  take(path: string): FaultMode | undefined {
    if (path.startsWith('/__sandbox/')) return undefined;
    const fault = this.#byPath.get(path);
    if (!fault) return undefined;
    if (--fault.remaining <= 0) this.#byPath.delete(path);
    return fault.mode;
  }

  /** The pending faults as the controls answer them (every value a string, as the gateway writes its answers). */
  list(): { path: string; mode: FaultMode; count: string }[] {
    return [...this.#byPath].map(([path, { mode, remaining }]) => ({ path, mode, count: String(remaining) }));
  }

  clear(): void {
    this.#byPath.clear();
  }
}
