/**
 * The gateway's lifetimes and rate limits, in one place for the sandbox, the
 * server helper, the components and the demo.
 */

/**
 * The longest delay a timer holds (2^31 - 1 ms, 24.8 days) in browsers and Node: a longer one fires at once, so
 * every deadline, timeout and wait is held to it.
 */
export const TIMER_MAX_MS = 2 ** 31 - 1;

/** A checkout lives 30 minutes after creation (the API reference's limits). */
export const CHECKOUT_LIFETIME_MS = 30 * 60 * 1000;

/**
 * A pending transaction (a 3-D Secure step the shopper has not finished) times
 * out this long after it started: an attempt begun in a checkout's last minute
 * may still complete after the checkout itself has expired.
 */
export const ATTEMPT_LIFETIME_MS = 30 * 60 * 1000;

/** GET /v1/checkouts/{id}/payment: at most this many calls per checkout per minute (the API reference's limits). */
export const STATUS_CALLS_PER_MINUTE = 2;

/** The window the status-call limit counts over. */
export const STATUS_CALL_WINDOW_MS = 60 * 1000;

/**
 * The most bytes the kit reads of one gateway answer that is not a report
 * page: a payment, a checkout, a registration or a refusal is a few kilobytes
 * (the sandbox keeps one at 32 KB at most, every field of the field table at
 * its longest), so 1 MB is far above anything the platform sends and far
 * below what would hurt a server. The notification body has the same bound.
 */
export const ANSWER_MAX_BYTES = 1024 * 1024;

/**
 * The most bytes one transaction takes in a report page: the sandbox's bound
 * on a stored payment (32 KB, every field counted with its overhead), ten
 * times a real transaction with billing, customer and 3-D Secure data.
 */
export const REPORT_TRANSACTION_MAX_BYTES = 32 * 1024;

/**
 * Transactions a report page may carry per transaction asked for when the
 * search includes linked ones: each match with the payment it references and
 * those referencing it (a preauthorisation, a capture, a refund).
 */
export const LINKED_TRANSACTIONS_PER_MATCH = 4;

/**
 * The most preconditions of a 3-D Secure `redirect` the browser runs before the challenge. The platform sends
 * one (the 3DS method); each waits in a hidden frame of its own for up to 10 seconds, so a redirect holding
 * thousands (a 1 MB answer holds ten thousand) would keep the shopper waiting for hours.
 */
export const REDIRECT_MAX_PRECONDITIONS = 4;

/**
 * The most levels of objects and lists a gateway answer or notification may nest: the platform's deepest
 * (a report entry's `threeDSecure` or `redirect.parameters`) is four, so 32 is far above anything it sends.
 * Every walk over an answer (scrubbing, binding, keeping it) stays within the stack below that; a 200 KB
 * answer of nested lists, well within the bytes an answer may take, would otherwise overflow it.
 */
export const ANSWER_MAX_DEPTH = 32;

/**
 * True when `value` nests objects or lists more than `levels` deep (a value that is neither is level 0). The walk
 * stops one level past `levels`, so its own stack stays that shallow however deep the value goes.
 */
export function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels <= 0) return true;
  // `for…in` allocates nothing (a parsed answer has own, enumerable keys only); this runs on every answer.
  if (Array.isArray(value)) {
    for (const child of value) if (nestsDeeperThan(child, levels - 1)) return true;
  } else for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}
