/**
 * The one encoding for every value the kit writes into an HTTP header (a
 * `Link` header of `widgetPreload`, and anything added later): a value built
 * from data (an integrity list, a URL, an id) can never break a header line,
 * split a response, or make the HTTP library refuse the answer.
 */

const WHITESPACE = /[\t\n\f\r ]+/g;
const NOT_VISIBLE_ASCII = /[^\x20-\x7e]/gu;
const encoder = new TextEncoder();

/**
 * `text` as a header value: every run of whitespace (line breaks and tabs
 * included, which separate list items alike) one space, the ends trimmed, and
 * every other character outside visible ASCII percent-encoded as UTF-8.
 */
export function headerValue(text: string): string {
  return text
    .replace(WHITESPACE, ' ')
    .trim()
    .replace(NOT_VISIBLE_ASCII, (character) =>
      [...encoder.encode(character)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    );
}
