/** The widget's texts, in English, German and Arabic; `wpwlOptions.labels` and `errorMessages` override them by key. */
import { supportedLanguage } from '../browser/language.js';

const EN = {
  brand: 'Brand',
  cardNumber: 'Card number',
  expiryDate: 'Expiry date',
  mmyy: 'MM / YY',
  cvv: 'CVV',
  cardHolder: 'Card holder',
  submit: 'Pay now',
  cardNumberError: 'Invalid card number or brand',
  // The platform's errorMessages keys: its expiry hint says the month's text, or the year's for a year past or unreadable.
  expiryMonthError: 'Invalid or past expiry date',
  expiryYearError: 'Invalid or past expiry year',
  cvvError: 'Invalid CVV',
  cardHolderError: 'Invalid card holder',
  declined: 'The payment was declined. Check the details or use another card.',
  brandUnavailable: 'This payment method is not available here. Please choose another one.',
  invalidCheckout: 'This payment session is invalid or has expired. Please reload the page.',
  unavailable: 'The payment form could not be loaded. Please try again later.',
};

export type TextKey = keyof typeof EN;
export type Texts = Record<TextKey, string>;

const DE: Texts = {
  brand: 'Marke',
  cardNumber: 'Kartennummer',
  expiryDate: 'Ablaufdatum',
  mmyy: 'MM / JJ',
  cvv: 'Prüfnummer',
  cardHolder: 'Karteninhaber',
  submit: 'Jetzt bezahlen',
  cardNumberError: 'Ungültige Kartennummer oder Marke',
  expiryMonthError: 'Ungültiges oder abgelaufenes Ablaufdatum',
  expiryYearError: 'Ungültiges oder abgelaufenes Ablaufjahr',
  cvvError: 'Ungültige Prüfnummer',
  cardHolderError: 'Ungültiger Karteninhaber',
  declined: 'Die Zahlung wurde abgelehnt. Prüfen Sie die Angaben oder nutzen Sie eine andere Karte.',
  brandUnavailable: 'Diese Zahlungsart ist hier nicht verfügbar. Bitte wählen Sie eine andere.',
  invalidCheckout: 'Diese Zahlungssitzung ist ungültig oder abgelaufen. Bitte laden Sie die Seite neu.',
  unavailable: 'Das Zahlungsformular konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
};

const AR: Texts = {
  brand: 'نوع البطاقة',
  cardNumber: 'رقم البطاقة',
  expiryDate: 'تاريخ الانتهاء',
  // The expiry field stays left to right with Western digits, as printed on the card.
  mmyy: 'MM / YY',
  cvv: 'رمز التحقق (CVV)',
  cardHolder: 'اسم حامل البطاقة',
  submit: 'ادفع الآن',
  cardNumberError: 'رقم البطاقة أو نوعها غير صالح',
  expiryMonthError: 'تاريخ الانتهاء غير صالح أو منتهٍ',
  expiryYearError: 'سنة الانتهاء غير صالحة أو منتهية',
  cvvError: 'رمز التحقق غير صالح',
  cardHolderError: 'اسم حامل البطاقة غير صالح',
  declined: 'تم رفض الدفع. تحقق من البيانات أو استخدم بطاقة أخرى.',
  brandUnavailable: 'طريقة الدفع هذه غير متاحة هنا. يرجى اختيار طريقة أخرى.',
  invalidCheckout: 'جلسة الدفع هذه غير صالحة أو منتهية الصلاحية. يرجى إعادة تحميل الصفحة.',
  unavailable: 'تعذّر تحميل نموذج الدفع. يرجى المحاولة مرة أخرى لاحقًا.',
};

const TABLES = { en: EN, de: DE, ar: AR } as const satisfies Record<string, Texts>;

export type Language = keyof typeof TABLES;

const LANGUAGES = Object.keys(TABLES) as Language[];

/** 'de', 'de-AT' … get the German texts, 'ar', 'ar-SA' … the Arabic ones; every other locale falls back to English. */
export const languageOf = (locale: unknown): Language => supportedLanguage(locale, LANGUAGES, 'en');

/** The texts of `language`, with the merchant's own on top. */
export function textsFor(language: Language, ...overrides: (Record<string, string> | undefined)[]): Texts {
  return Object.assign({}, TABLES[language], ...overrides);
}
