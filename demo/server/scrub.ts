/**
 * The last net under the demo merchant's answers and console lines: the access
 * token and the card number a request carried, by value, and anything shaped
 * like a card number, token or security code, by the client's own
 * `maskParameter`. The answers are built not to hold them; this catches a slip.
 */
import { maskParameter } from 'gw-elements/server';

/** A field name that is no secret's own: its value is masked only where something in it looks like a secret. */
const ANY_FIELD = 'text';

export interface Scrubber {
  (text: string): string;
  /** Every string in a JSON-like value scrubbed, in a copy. */
  deep<T>(value: T): T;
}

export function scrubberFor(secrets: readonly (string | undefined)[]): Scrubber {
  const known = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
  const scrub = ((text: string) =>
    maskParameter(
      ANY_FIELD,
      known.reduce((scrubbed, secret) => scrubbed.replaceAll(secret, '[redacted]'), text),
    )) as Scrubber;
  const deep = (value: unknown): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (Array.isArray(value)) return value.map(deep);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, deep(inner)]));
    return value;
  };
  scrub.deep = <T>(value: T) => deep(value) as T;
  return scrub;
}
