/**
 * HTML the shop's server writes: a tagged template that escapes every value it
 * is given, unless the value is HTML already (another template's result, or
 * markup a library rendered, such as `renderCheckout`'s, marked with `trusted`).
 */

/** Markup that is safe to put in a page as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function write(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(write).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: each value escaped, lists joined, nothing for `null`, `undefined` and `false`. */
export function html(strings: TemplateStringsArray, ...values: readonly Value[]): Html {
  return new Html(strings.reduce((page, part, index) => page + part + (index < values.length ? write(values[index]!) : ''), ''));
}

/** Markup from a source that escapes its own values (`renderCheckout`'s). */
export const trusted = (markup: string) => new Html(markup);

/** JSON for a `<script type="application/json">` block: no `<`, so no `</script>` inside. */
export const scriptJson = (value: unknown) => trusted(JSON.stringify(value).replace(/</g, '\\u003c'));
