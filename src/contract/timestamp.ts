/**
 * The gateway's `timestamp` of every answer, `YYYY-MM-DD hh:mm:ss.SSS+0000`:
 * written by the sandbox, read by the served widget (which counts a checkout's
 * remaining life on the gateway's clock, not the shopper's).
 */

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `date` as the gateway writes it, in UTC. */
export function gatewayTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}+0000`
  );
}

/** Milliseconds since the epoch of a gateway timestamp (any `±hhmm` offset), or NaN when it is not one. */
export function parseGatewayTimestamp(timestamp: string): number {
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d{1,3})?)([+-]\d\d)(\d\d)$/.exec(timestamp);
  return match ? Date.parse(`${match[1]}T${match[2]}${match[3]}:${match[4]}`) : Number.NaN;
}
