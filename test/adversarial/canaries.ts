/**
 * Secret canaries and the one way the adversarial suites look for them: a
 * canary is found only where it cannot stand by chance. A 3 or 4 digit
 * security code can occur inside any random hex id or UUID (the client's
 * `GW_REFERENCE`, a sandbox payment id), so words shaped like an id are taken
 * out of a text before a code is looked for, and a code is a leak only where
 * it stands alone (not inside a longer number, a decimal or a time), the rule
 * the redactor masks by. Card numbers and tokens are long enough to be
 * looked for anywhere, in any spelling the redactor must catch.
 */

import { inspect } from 'node:util';

/**
 * Gateway ids (32 hex), sandbox and git build numbers (40 hex), the sandbox's end-to-end identities (64 hex), UUIDs,
 * checkout ids (`<32 hex>.<host>`) and connector transaction ids (16 upper-case hex), also joined by an underscore (an
 * `ndc`, `<entityId>_<32 hex>`) or after an escaped slash (`%2Fv1%2Fpayments%2F<32 hex>`): a CVV found in
 * the random hex of one (`…B9731E…`) stands in an id, where the redactor rightly leaves it (a fresh-clone CI run once
 * failed on that, 1 in about 10,000 answers).
 */
const ID_WORDS =
  /(?<![0-9A-Za-z])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}|[0-9a-f]{40}|[0-9A-Fa-f]{32}(?:\.[a-z0-9-]+)?|[0-9A-F]{16})(?![0-9A-Za-z])/g;

/**
 * The separators a card number may be written with: any white space (also JSON-escaped, `\t`), a dash, a dot, a
 * comma, a slash, a bar, a colon, a semicolon, a tilde, an underscore, each also as a URL encodes it (`%20`, `%2F`, `%7C`,
 * `%09`), and a space as a form (`+`) encodes it.
 */
const CARD_SEPARATORS = /%(?:20|2[BCF]|3[AB]|7C|0[9AD])|\\[tnr]|[\s.,+/_|:;~-]/gi;
/** Full-width and Arabic-Indic digits, read as the ASCII digits they are. */
const asciiDigits = (text: string) =>
  text.replace(/[\uff10-\uff19\u0660-\u0669\u06f0-\u06f9]/g, (digit) => {
    const code = digit.charCodeAt(0);
    return String(code - (code >= 0xff10 ? 0xff10 : code >= 0x06f0 ? 0x06f0 : 0x0660));
  });

/** A text as a URL parser reads it: every percent-escape of a letter, digit or `-._~` is that character (RFC 3986, 2.3). */
const asParsed = (text: string): string =>
  text.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(character) ? character : escape;
  });

/** True when `text` holds the security code `code` standing alone, outside any id. */
export function holdsCode(text: string, code: string): boolean {
  // An escape left after parsing is of a reserved character (`%2F`), a separator: read as one, it ends the word before an id.
  const words = asParsed(text).replace(/%[0-9A-Fa-f]{2}/g, ' ');
  return new RegExp(`(?<!\\d|\\d[.:])${code}(?!\\d|[.:]\\d)`).test(words.replace(ID_WORDS, '<id>'));
}

/** True when `text` holds the card number `digits` run together or split by any separators. */
export const holdsCardNumber = (text: string, digits: string): boolean =>
  asciiDigits(asParsed(text)).replace(CARD_SEPARATORS, '').includes(digits);

/** The spellings of a token that hold the whole credential: as sent, without its base64 padding, decoded. */
function tokenForms(token: string): string[] {
  const forms = [token, token.replace(/=+$/, '')];
  try {
    forms.push(atob(token));
  } catch {
    // Not base64: no decoded form.
  }
  return forms;
}

/** True when `text` holds `token` in any of its forms, as written, percent-encoded (any character, needed or not, any case) or JSON-escaped. */
export const holdsToken = (text: string, token: string): boolean => {
  const read = asParsed(text);
  const lower = read.toLowerCase();
  return tokenForms(token).some(
    (form) => read.includes(form) || read.includes(form.replaceAll('/', '\\/')) || lower.includes(encodeURIComponent(form).toLowerCase()),
  );
};

export interface Canaries {
  readonly token?: string;
  readonly cardNumbers?: readonly string[];
  readonly codes?: readonly string[];
  /** Other secrets (wallet tokens, long one-time values): looked for as written. */
  readonly values?: readonly string[];
}

/** The first canary `text` holds, described, or undefined. */
export function leakIn(text: string, canaries: Canaries): string | undefined {
  if (canaries.token && holdsToken(text, canaries.token)) return 'the access token';
  for (const digits of canaries.cardNumbers ?? []) if (holdsCardNumber(text, digits)) return `card number ${digits}`;
  for (const code of canaries.codes ?? []) if (holdsCode(text, code)) return `code ${code}`;
  for (const value of canaries.values ?? []) if (text.includes(value)) return `secret ${value}`;
  return undefined;
}

/** Console output while `run` runs, captured (the client must write none holding a secret). */
export async function capturingConsole<T>(run: () => Promise<T>): Promise<{ result: T; printed: string[] }> {
  const printed: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
  const saved = methods.map((name) => console[name]);
  for (const name of methods) console[name] = (...args: unknown[]) => void printed.push(args.map((arg) => inspect(arg)).join(' '));
  try {
    return { result: await run(), printed };
  } finally {
    methods.forEach((name, index) => (console[name] = saved[index]!));
  }
}
