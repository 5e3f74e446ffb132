/**
 * Secret scrubbing, once for the server helper, the sandbox, the demo and the
 * notifications: a card number, a security code or an access token never
 * reaches an error, a log line or an answer. Three layers, because no single
 * one is enough:
 *
 * - by name: the fields that hold secrets are masked whatever their value,
 *   however the name is written (`card.cvv`, `customParameters[CVV]`,
 *   `securityCode`, `Authorization`: case-insensitive, by its last segment);
 * - by value, known: the secrets of the request at hand (its token, card
 *   number and security code, and in the sandbox every token it accepts) are
 *   known to whoever sends it and are replaced wherever they appear, including
 *   a gateway's or proxy's echo of the form;
 * - by value, shape: 12 to 19 digits that pass the Luhn check, run together or
 *   in groups split by any white space, dashes, dots, commas, slashes or
 *   underscores (mixed, or several at once), in ASCII, full-width or
 *   Arabic-Indic digits, are a card number wherever they stand (typed into a
 *   holder name, quoted in a message); `Bearer <token>` is a token; a value
 *   labelled as a security code (`cvv=123`) is one.
 *
 * Gateway ids (32 hex), UUIDs and checkout ids can hold long digit runs; the
 * words they form are left alone, so the ids a merchant acts on stay readable.
 */
import { passesLuhn } from './formats.js';
import { SECRET_FIELDS, SECRET_NAME_SPELLINGS, type SecretKind } from './secrets.js';

export type { SecretKind } from './secrets.js';

/** The declared secret fields by their lower-case name: a form name is matched whatever its case. */
const SECRET_FIELD_NAMES: ReadonlyMap<string, SecretKind> = new Map(
  Object.entries(SECRET_FIELDS).map(([name, kind]) => [name.toLowerCase(), kind]),
);

/**
 * The secret a field holds by its name, or undefined: a declared secret field
 * (secrets.ts) in any case, else by any segment of the name (`card.cvv`,
 * `customParameters[CVV]`, `securityCode`, and what lies under one:
 * `customParameters[cvv][0]`, `card.securityCode.value`), and `number` only
 * inside `card`: a house or an invoice has a number too.
 */
export function secretKindOfName(name: string): SecretKind | undefined {
  const lower = name.toLowerCase();
  const declared = SECRET_FIELD_NAMES.get(lower);
  if (declared) return declared;
  const segments = lower
    .split(/[.[\]]/)
    .map((segment) => segment.replace(/[\s_-]/g, ''))
    .filter(Boolean);
  for (const [index, segment] of segments.entries()) {
    if (Object.hasOwn(SECRET_NAME_SPELLINGS, segment)) return SECRET_NAME_SPELLINGS[segment];
    if (segment === 'number' && segments[index - 1] === 'card') return 'cardNumber';
  }
  return undefined;
}

/**
 * The values of a request's fields that are secret by name (`secretKindOfName`), other than its card number and
 * security code (which the scrubber is told apart): a wallet token, a one-time password, and the same secrets under
 * another spelling (`card.CVV`, `customParameters[cvv][0]`), so an echo of them is replaced wherever it stands.
 */
export function otherSecretValues(params: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(params))
    if (value && name !== 'card.number' && name !== 'card.cvv' && secretKindOfName(name) !== undefined) values.push(value);
  return values;
}

/** What a masked security code reads. */
export const MASKED_CVV = '***';
/** What a masked access token reads. */
export const MASKED_TOKEN = '[access token]';

/**
 * What may stand between the groups of a card number as written: any white
 * space (a space, a tab, a line break, a no-break or thin space), a dash (any
 * of Unicode's, a minus), a dot, a comma, a slash, a bar, a colon, a semicolon,
 * a tilde or an underscore, and a space as a form (`+`) encodes it, and each
 * of them as a URL encodes it (`%20`, `%2F`, `%7C`, `%09`, `%E2%80%93`, in
 * either case of hex); one to eight of them, not necessarily alike (`4111
 * 1111-1111 1111`, `4111 - 1111 - …`, `4111|1111|…`, a column aligned with
 * spaces). Never a star: it is what a masked number shows.
 */
const PERCENT_ENCODED_SEPARATOR = String.raw`%(?:2[0B-Fb-f]|3[ABab]|5[Ff]|7[CEce]|0[9A-Da-d]|[Cc]2%[Aa]0|[Ee]2%80%(?:8[0-9A-Fa-f]|9[0-5])|[Ee]2%88%92)`;
const SEPARATOR_CHARACTER = String.raw`${PERCENT_ENCODED_SEPARATOR}|[\s.,+/_|:;~\u2010-\u2015\u2212-]`;
const SEPARATOR = `(?:${SEPARATOR_CHARACTER}){1,8}`;
const IS_SEPARATOR = new RegExp(`^(?:${SEPARATOR_CHARACTER})$`);

/**
 * A card number as it may be shown: its first six and last four digits at most
 * (PCI DSS), the rest stars; separators between groups stay where they were written.
 */
export function maskCardNumber(number: string): string {
  const pieces = number.match(new RegExp(`${SEPARATOR_CHARACTER}|[^]`, 'g')) ?? [];
  const length = pieces.filter((piece) => !IS_SEPARATOR.test(piece)).length;
  let seen = 0;
  return pieces
    .map((piece) => {
      if (IS_SEPARATOR.test(piece)) return piece;
      seen++;
      return length >= 13 && (seen <= 6 || seen > length - 4) ? piece : '*';
    })
    .join('');
}

/** Not right after a digit: the hex digits of a percent escape before it (the `0` of `%20`, the `F` of `%2F`) are none. */
const NOT_AFTER_A_DIGIT = String.raw`(?<!(?<!%[0-9A-Fa-f]?)\d)`;
// Digits run together, or in groups of 3 to 6 split by separators (as printed on a card: 4-4-4-4, 4-6-5), not touching
// other digits; the word around decides whether it is part of an id, the Luhn check whether it is a card number.
const DIGIT_RUN = new RegExp(String.raw`${NOT_AFTER_A_DIGIT}(?:\d{12,19}|\d{4}${SEPARATOR}\d{3,6}(?:${SEPARATOR}\d{3,6}){1,4})(?!\d)`, 'g');
const SPLIT_GROUPS = new RegExp(`(${SEPARATOR})`);
const WORD_CHARACTER = /[0-9A-Za-z-]/;
const ID_WORD = /^(?:[0-9a-f]{32}|[0-9A-F]{32}|[0-9a-f]{40}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The longest word `ID_WORD` takes: a longer one is no id, however far it goes on. */
const ID_WORD_MAX_LENGTH = 40;

/**
 * The word around `start`..`end`, or a piece of it longer than any id: walked at most that far each way, so a text
 * of one huge word (`1234-1234-…`, a hostile answer) costs a bounded walk per digit run, not the whole word each time.
 */
function wordAround(text: string, start: number, end: number): string {
  const first = Math.max(0, end - ID_WORD_MAX_LENGTH - 1);
  const last = Math.min(text.length, start + ID_WORD_MAX_LENGTH + 1);
  while (start > first && WORD_CHARACTER.test(text[start - 1]!)) start--;
  while (end < last && WORD_CHARACTER.test(text[end]!)) end++;
  return text.slice(start, end);
}

/** True when the characters from `start` to `end` lie inside a gateway id, a build number or a UUID. */
const isIdAround = (text: string, start: number, end: number) => ID_WORD.test(wordAround(text, start, end));

/**
 * The longest leading groups of a separated run that form a card number (13–19
 * digits passing Luhn; 12 in dotted groups is the platform's `shortId`, never a
 * printed card): a number may be followed by more digits (`4200 0000 0000 0000
 * 123`, a security code typed after it).
 */
function cardPrefix(run: string): string | undefined {
  // Groups and the separators between them, in turn: [group, separator, group, …].
  const parts = run.split(SPLIT_GROUPS);
  for (let count = (parts.length + 1) / 2; count > 1; count--) {
    const digits = parts.filter((_, index) => index % 2 === 0 && index < 2 * count).join('');
    if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) return parts.slice(0, 2 * count - 1).join('');
  }
  return undefined;
}

/** `maskCardNumbers` for ASCII digits. */
function maskAsciiCardNumbers(text: string): string {
  if (!/\d{4}/.test(text)) return text;
  return text.replace(DIGIT_RUN, (run: string, offset: number) => {
    if (isIdAround(text, offset, offset + run.length)) return run;
    if (/^\d+$/.test(run)) return passesLuhn(run) ? maskCardNumber(run) : run;
    const card = cardPrefix(run);
    return card === undefined ? run : maskCardNumber(card) + run.slice(card.length);
  });
}

/** Full-width and Arabic-Indic digits (`４１１１…`, `٤١١١…`): each one UTF-16 unit, as its ASCII digit is. */
const OTHER_DIGITS = /[\uff10-\uff19\u0660-\u0669\u06f0-\u06f9]/;
const asciiDigits = (text: string) =>
  text.replace(new RegExp(OTHER_DIGITS.source, 'g'), (digit) => {
    const code = digit.charCodeAt(0);
    return String(code - (code >= 0xff10 ? 0xff10 : code >= 0x06f0 ? 0x06f0 : 0x0660));
  });

/**
 * Every card number that passes the Luhn check, run together or in separated groups, masked; gateway ids and UUIDs
 * kept. Digits of other scripts are read as the digits they are, and masked where they were written.
 */
export function maskCardNumbers(text: string): string {
  const masked = maskAsciiCardNumbers(text);
  if (!OTHER_DIGITS.test(masked)) return masked;
  // One unit for one unit: what is masked in the ASCII reading is masked at the same place in the text.
  const read = asciiDigits(masked);
  const again = maskAsciiCardNumbers(read);
  if (again === read) return masked;
  let shown = '';
  for (let index = 0; index < masked.length; index++) shown += again[index] === '*' && read[index] !== '*' ? '*' : masked[index];
  return shown;
}

// `Bearer abc…` in an echoed header or a message, also form- or URL-encoded (`Bearer+abc…`, `Bearer%20abc%3D`);
// `cvv=123`, `"CVV":"123"`, `securityCode: 123`, `customParameters[CVV]=123`, `cvv%3D123` in an echoed form, URL or
// object (any case, the names `secretKindOfName` knows).
const BEARER = /\b(Bearer)(\s+|%20|\+)[A-Za-z0-9._~+/=%-]+/gi;
// Amex's `cid` only as a word of its own: inside one (`acid`, `decid`) it labels nothing.
const SECURITY_CODE_LABEL = String.raw`(?:(?:card[_-]?)?(?:cvv2?|cvc2?|cvn|csc|security[_-]?code|verification[_-]?(?:value|code))|card[_-]?code|(?<![a-z])cid)`;
const LABELLED_CVV = new RegExp(String.raw`(${SECURITY_CODE_LABEL}(?:\]|%5D)?["']?\s*(?:[:=]|%3[ADad])\s*["']?)([^"'&\s,;}]+)`, 'gi');
const LABELS = new RegExp(String.raw`bearer|${SECURITY_CODE_LABEL}`, 'i');

/** Secrets an echoed header or form names: `Bearer` tokens and labelled security codes. Never touches other data. */
export function maskLabelledSecrets(text: string): string {
  // Most texts name neither: one cheap test spares two global replaces (the sandbox runs this on every request it logs).
  if (!LABELS.test(text)) return text;
  return text.replace(BEARER, `$1$2${MASKED_TOKEN}`).replace(LABELLED_CVV, `$1${MASKED_CVV}`);
}

/** Secrets recognisable without knowing them: card numbers, Bearer tokens, labelled security codes. */
export function maskSecretsByShape(text: string): string {
  return maskLabelledSecrets(maskCardNumbers(text));
}

/** Any value as text, never throwing: an object that cannot be converted is named by its type (for masks and error messages alike). */
export function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `[${typeof value}]`;
  }
}

/**
 * A value safe to show next to its field name: secret fields masked by name
 * (card numbers keep their first six and last four digits at most, security
 * codes, one-time passwords and tokens nothing), every other value scrubbed by shape.
 */
export function maskParameter(name: string, value: string): string {
  // Total on any input (a caller without TypeScript): a secret may come as a number, and a mask never throws.
  if (typeof name !== 'string' || typeof value !== 'string') return maskParameter(textOf(name), textOf(value ?? ''));
  const kind = secretKindOfName(name);
  if (kind === undefined) return maskSecretsByShape(value);
  if (kind === 'cardNumber') return maskCardNumber(value);
  if (kind !== 'accessToken') return MASKED_CVV;
  // `Authorization: Bearer …` keeps its scheme, which tells a reader what was sent; a bare value is all token.
  return value.replace(/(\S+\s+)?.*/s, (_, scheme: string | undefined) => `${scheme ?? ''}${MASKED_TOKEN}`);
}

/** The secrets of one request, as its sender knows them. */
export interface KnownSecrets {
  accessToken?: string | undefined;
  /** Other tokens to replace wherever they appear (the sandbox knows every token it accepts). */
  accessTokens?: Iterable<string> | undefined;
  cardNumber?: string | undefined;
  cvv?: string | undefined;
  /** The values of the request's other declared secret fields (`otherSecretValues`, secrets.ts): a wallet token, a one-time password. */
  others?: readonly (string | undefined)[] | undefined;
  /**
   * Exact texts never masked by shape (the request's merchantTransactionId: an
   * order id holding a millisecond timestamp can pass the Luhn check, and it is
   * the key a merchant looks the payment up by). Known secrets inside are still replaced.
   */
  keep?: readonly (string | undefined)[];
}

/**
 * Fields that name a transaction (ids, references, timestamps): masked only by
 * known secrets, never by shape, so the keys a merchant acts on stay intact.
 */
export const IDENTIFIER_NAMES: ReadonlySet<string> = new Set([
  'id',
  'referencedId',
  'registrationId',
  'merchantTransactionId',
  'ndc',
  'buildNumber',
  'timestamp',
  'paymentId',
  'checkoutId',
  'shortId',
  // The scheme's id of a standing instruction's first payment (15 digits at Visa): later payments must quote it intact.
  'CardholderInitiatedTransactionID',
]);

/**
 * The same, for the fields of a request as a caller sent them: the merchant's
 * own key and a standing instruction's quoted scheme id, which may be 15 digits
 * that pass the card check (a Visa transaction id does 1 time in 10), and is
 * kept and echoed as quoted. Anything else named like an answer's id (`id`,
 * `ndc`, `shortId` sent as request fields) is the caller's free text, scrubbed fully.
 */
export const REQUEST_IDENTIFIER_NAMES: ReadonlySet<string> = new Set(['merchantTransactionId', 'standingInstruction.initialTransactionId']);

/**
 * Fields holding a URL the shopper is sent to: scrubbed of known secrets and card numbers by shape, but a 3-digit run
 * in them is a path segment, a port or an order number, never taken for the request's security code (masked, it
 * would send the shopper elsewhere, or to no valid URL at all).
 */
const URL_NAMES: ReadonlySet<string> = new Set(['shopperResultUrl']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An access token as an echo may spell it: as sent; without its base64 padding
 * (which carries nothing); percent-encoded, with upper- or lower-case hex (in a
 * form or a URL); and decoded, when it is base64 of readable text (the
 * platform's tokens are, and the decoded form holds the credential itself).
 */
function tokenSpellings(token: string): string[] {
  const unpadded = token.replace(/=+$/, '');
  let decoded: string | undefined;
  try {
    const text = /^[A-Za-z0-9+/]+={0,2}$/.test(token) ? atob(token) : undefined;
    decoded = text !== undefined && /^[\x20-\x7e]{8,}$/.test(text) ? text : undefined;
  } catch {
    // Not base64 after all: no decoded spelling.
  }
  const spellings = [token, unpadded, decoded].flatMap((spelling) => {
    if (spelling === undefined) return [];
    const encoded = encodeURIComponent(spelling);
    return [spelling, encoded, encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())];
  });
  // In this order the whole token is replaced before the unpadded spelling it begins with; short spellings match anything.
  return [...new Set(spellings)].filter((spelling) => spelling.length >= 8);
}

/**
 * Scrubs one text. `known` replaces only the request's token and card number
 * (exact values: it never mangles other data); `secrets` also its security
 * code where it stands alone and labelled secrets (`Bearer …`, `cvv=…`), but
 * no card number by shape (for answers handed back as data: a digit run the
 * request did not know, it cannot tell there from the merchant's own
 * references); `deep` copies a JSON-like value with every
 * string scrubbed, field names deciding how.
 */
// A percent-escape of a character that never needs one (a digit, a letter, `-._~`): `%34%31%31%31…` is `4111…` to every
// URL parser (RFC 3986, 2.3), so it is the same secret, spelled to slip past a scrubber that reads the plain form.
const OVER_ENCODED = /%(?:3[0-9]|4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9AE]|2[DE])/i;
const OVER_ENCODED_ALL = new RegExp(OVER_ENCODED.source, 'gi');
const decodeUnreserved = (text: string) => text.replace(OVER_ENCODED_ALL, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));

/**
 * `scrub`, also seeing through needless percent-escapes: when the text read as
 * a URL parser reads it holds a secret, the scrubbed plain reading is what is
 * shown; otherwise the text keeps its spelling.
 */
function throughEscapes(scrub: (text: string) => string): (text: string) => string {
  return (text) => {
    const scrubbed = scrub(text);
    if (!OVER_ENCODED.test(scrubbed)) return scrubbed;
    const plain = decodeUnreserved(scrubbed);
    const again = scrub(plain);
    return again === plain ? scrubbed : again;
  };
}

/**
 * A JSON key naming a secret (`"cvv":`, `"card_number":`, `"customParameters[CID]":`, `"number":` of a `card`): a
 * segment of it is a spelling `secretKindOfName` knows, its separators anywhere. An answer holding one is copied and
 * masked by name, whatever else it holds.
 */
const SEPARATORS = String.raw`[\s_-]*`;
/** The spellings as one alternation, grouped by first letter (`c(?:vv|vc|id|…)|p(?:an|…)`): the scan runs on every answer. */
function spellingsPattern(spellings: readonly string[]): string {
  const byFirst = new Map<string, string[]>();
  for (const spelling of spellings) byFirst.set(spelling[0]!, [...(byFirst.get(spelling[0]!) ?? []), spelling.slice(1)]);
  return [...byFirst]
    .map(([first, rests]) => `${first}${SEPARATORS}(?:${rests.map((rest) => [...rest].join(SEPARATORS)).join('|')})`)
    .join('|');
}
// A segment starts after the key's quote or a separator, so the scan tries the spellings at those characters only. It
// ends the key (`"cvv":`) or another segment follows (`cvv.value`, `[CVV]`): taken as a key without reading on to its
// end, so each try costs a spelling's length, and a text of many `[cvv.` (a hostile answer) is scanned in linear time.
// A value that reads like one (`"number.`) only costs a copy.
const SECRET_KEY = new RegExp(
  String.raw`[".[](?:${spellingsPattern([...Object.keys(SECRET_NAME_SPELLINGS), 'number'])})(?:[.[\]]|"\s*:)`,
  'i',
);

export interface Redactor {
  (text: string): string;
  known(text: string): string;
  secrets(text: string): string;
  /** False when `text` (JSON text, escapes unread) certainly holds none of the request's own secrets, no labelled one and no key naming one: `secrets` and `deep` would change nothing in it. */
  mayHold(text: string): boolean;
  /**
   * A copy with every string scrubbed: secret field names masked, identifiers (an answer's, `IDENTIFIER_NAMES`, unless
   * told otherwise: a request's are `REQUEST_IDENTIFIER_NAMES`) by `known` only, the rest fully (or, `answer`, by `secrets`).
   */
  deep<T>(value: T, name?: string, answer?: boolean, identifiers?: ReadonlySet<string>): T;
}

/**
 * A scrubber for everything built around one request: its own secrets by value
 * (a security code only where it stands alone: not inside a longer number, an
 * amount, a date part, a result code or an id, which a 3-digit code could
 * otherwise mangle), then every secret recognisable by shape.
 */
export function createRedactor(secrets: KnownSecrets = {}): Redactor {
  const exact: [string, string][] = [];
  const { accessToken, cardNumber, cvv } = secrets;
  // Short values are not replaced anywhere by value: they would match unrelated text. Their fields are still masked by name.
  for (const token of new Set(secrets.accessTokens ? [accessToken, ...secrets.accessTokens] : [accessToken])) {
    if (!token) continue;
    // A token echoed inside a form or a URL is percent-encoded (a base64 token's `=`, `+`, `/`), or cut of its padding: the token too.
    for (const spelling of tokenSpellings(token)) exact.push([spelling, MASKED_TOKEN]);
  }
  // Other declared secrets (a wallet token, a one-time password): long ones wherever they appear, short ones where they stand alone.
  const others = (secrets.others ?? []).filter((value): value is string => typeof value === 'string' && value.length >= 3);
  for (const value of others)
    if (value.length >= 8) for (const spelling of new Set([value, encodeURIComponent(value)])) exact.push([spelling, MASKED_CVV]);
  if (cardNumber && cardNumber.length >= 8) exact.push([cardNumber, maskCardNumber(cardNumber)]);
  // The request's card number in any spelling (`4111 1111 …`, `4111%201111…`, `4111+1111…`), not only as sent.
  const digits = cardNumber && /^\d{12,19}$/.test(cardNumber) ? cardNumber : undefined;
  const spelledCard = digits ? new RegExp(`${NOT_AFTER_A_DIGIT}${[...digits].join(`(?:${SEPARATOR})?`)}(?!\\d)`, 'g') : undefined;
  const codes = [cvv, ...others.filter((value) => value.length < 8)].filter((code): code is string => !!code && code.length >= 3);
  // Compiled on first need: most texts never hold a code, and a redactor is made per payment request.
  let standalone: RegExp | undefined;
  const standaloneCodes = () => (standalone ??= new RegExp(`(?<!\\d|\\d[.:])(?:${codes.map(escape).join('|')})(?!\\d|[.:]\\d)`, 'g'));
  const holdsCode = (text: string) => codes.some((code) => text.includes(code));
  // Kept only where scrubbing would change it: a short order id (`42`) kept as it is would split the card number around it.
  const keep = secrets.keep?.filter(
    (text): text is string => !!text && text.length >= 8 && (maskSecretsByShape(text) !== text || holdsCode(text)),
  );
  const known = throughEscapes((text: string) => {
    for (const [secret, replacement] of exact) text = text.replaceAll(secret, replacement);
    return spelledCard ? text.replace(spelledCard, maskCardNumber) : text;
  });
  const shaped = (text: string, cards: boolean): string => {
    const kept = keep?.find((part) => text.includes(part));
    if (kept !== undefined)
      return text
        .split(kept)
        .map((part) => shaped(part, cards))
        .join(kept);
    if (holdsCode(text))
      text = text.replace(standaloneCodes(), (code: string, offset: number, whole: string) =>
        isIdAround(whole, offset, offset + code.length) ? code : MASKED_CVV,
      );
    return cards ? maskSecretsByShape(text) : maskLabelledSecrets(text);
  };
  // JSON may escape a token's `/` as `\/`, and any character as `\uXXXX`: such a text is scrubbed after parsing, whatever it holds.
  const needles = exact.flatMap(([secret]) => [secret, secret.replaceAll('/', '\\/')]);
  const redact = throughEscapes((text: string) => shaped(known(text), true)) as Redactor;
  redact.known = known;
  redact.secrets = throughEscapes((text) => shaped(known(text), false));
  redact.mayHold = (text) =>
    // A JSON escape may hide a secret's character or a separator between its digits (`\u0034`, `4111\t1111…`), or the
    // quotes of a label inside a quoted value (`"{\"cvv\":\"737\"}"`, which the label scan reads only once parsed).
    /\\[bfnrtu"]/.test(text) ||
    OVER_ENCODED.test(text) ||
    needles.some((needle) => text.includes(needle)) ||
    (spelledCard !== undefined && text.search(spelledCard) >= 0) ||
    (holdsCode(text) && text.search(standaloneCodes()) >= 0) ||
    SECRET_KEY.test(text) ||
    maskLabelledSecrets(text) !== text;
  redact.deep = <T>(value: T, name = '', answer = false, identifiers = IDENTIFIER_NAMES): T =>
    deepCopy(value, answer ? redact.secrets : redact, known, name, identifiers) as T;
  return redact;
}

function deepCopy(
  value: unknown,
  scrub: (text: string) => string,
  known: (text: string) => string,
  name: string,
  identifiers: ReadonlySet<string>,
): unknown {
  // A number is text to a reader too (`"cvv": 737`, `"number": 4111111111111111` from a JSON echo of a form): scrubbed as
  // its digits, and kept a number only when nothing in them was a secret.
  if (typeof value === 'number' || typeof value === 'bigint') {
    const text = String(value);
    const scrubbed = deepCopy(text, scrub, known, name, identifiers);
    return scrubbed === text ? value : scrubbed;
  }
  if (typeof value === 'string') {
    if (secretKindOfName(name)) return maskParameter(name, value);
    if (URL_NAMES.has(name)) return maskSecretsByShape(known(value));
    return identifiers.has(name) ? known(value) : scrub(value);
  }
  if (Array.isArray(value)) return value.map((item) => deepCopy(item, scrub, known, name, identifiers));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  // Everything under a secret's name is that secret (`securityCode: {value: …}`).
  const secret = secretKindOfName(name) !== undefined;
  for (const [key, item] of Object.entries(value)) {
    // `card: {number, cvv}` names the same secrets as the flat `card.number`, `card.cvv`, at any depth (`card.card`, a
    // copy's `x.card`); a name can hold a secret too (`customParameters[4111…]`).
    const child = secret ? name : /(?:^|\.)card$/i.test(name) ? `card.${key}` : key;
    // Defined, not assigned: a `__proto__` key of an answer is a field like any other, never the copy's prototype.
    Object.defineProperty(copy, scrub(key), {
      value: deepCopy(item, scrub, known, child, identifiers),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** The scrubber that knows no request: shape only. For logs and answers of many requests. */
export const redactByShape: Redactor = createRedactor();
