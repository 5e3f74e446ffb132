/**
 * The saved-card texts of the widget, apart from texts.ts so the other
 * languages can be added there without touching these; a language without its
 * own saved-card texts gets the English ones. `wpwlOptions.labels` overrides them by key.
 */
import type { Language } from './texts.js';

const EN = {
  save: 'Save card',
  savedCards: 'Saved cards',
  expires: 'expires',
  payWithSaved: 'Pay now',
  anotherCard: 'Pay with another card',
  chooseCard: 'Choose a saved card',
};
export type SavedCardTexts = typeof EN;

const BY_LANGUAGE: Partial<Record<Language, SavedCardTexts>> = {
  en: EN,
  de: {
    save: 'Karte speichern',
    savedCards: 'Gespeicherte Karten',
    expires: 'gültig bis',
    payWithSaved: 'Jetzt bezahlen',
    anotherCard: 'Mit einer anderen Karte bezahlen',
    chooseCard: 'Wählen Sie eine gespeicherte Karte',
  },
  ar: {
    save: 'حفظ البطاقة',
    savedCards: 'البطاقات المحفوظة',
    expires: 'تنتهي في',
    payWithSaved: 'ادفع الآن',
    anotherCard: 'الدفع ببطاقة أخرى',
    chooseCard: 'اختر بطاقة محفوظة',
  },
};

/** The saved-card texts of `language`, with the merchant's own labels on top. */
export function savedCardTexts(language: Language, labels?: Record<string, string>): SavedCardTexts {
  const base = BY_LANGUAGE[language] ?? EN;
  const own = Object.fromEntries(Object.keys(base).flatMap((key) => (typeof labels?.[key] === 'string' ? [[key, labels[key]]] : [])));
  return { ...base, ...own };
}
