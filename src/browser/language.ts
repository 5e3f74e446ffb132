/**
 * Language tags as pages and `wpwlOptions.locale` write them ('ar-SA', 'de-AT'), reduced to the
 * table a component or the sandbox widget ships, and the writing direction that goes with them.
 */

/** `tag`'s primary language subtag when it is one of `supported` ('ar-SA' → 'ar'), else `fallback`. */
export function supportedLanguage<Language extends string>(tag: unknown, supported: readonly Language[], fallback: Language): Language {
  const primary = /^[a-z]{2,3}(?![a-z])/i.exec(typeof tag === 'string' ? tag : '')?.[0].toLowerCase();
  return supported.find((language) => language === primary) ?? fallback;
}

/** Right to left for Arabic, the one right-to-left language whose texts are shipped; left to right otherwise. */
export const directionOf = (language: string): 'ltr' | 'rtl' => (language === 'ar' ? 'rtl' : 'ltr');
