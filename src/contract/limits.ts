/**
 * The gateway's lifetimes and rate limits, in one place for the sandbox, the
 * server helper, the components and the demo.
 */

/** A checkout lives 30 minutes after creation (seed: Limits, Checkout lifetime). */
export const CHECKOUT_LIFETIME_MS = 30 * 60 * 1000;

/**
 * A pending transaction (a 3-D Secure step the shopper has not finished) times
 * out this long after it started: an attempt begun in a checkout's last minute
 * may still complete after the checkout itself has expired.
 */
export const ATTEMPT_LIFETIME_MS = 30 * 60 * 1000;

/** GET /v1/checkouts/{id}/payment: at most this many calls per checkout per minute (seed: Limits). */
export const STATUS_CALLS_PER_MINUTE = 2;

/** The window the status-call limit counts over. */
export const STATUS_CALL_WINDOW_MS = 60 * 1000;
