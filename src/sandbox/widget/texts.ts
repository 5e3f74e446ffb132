/** The widget's texts, in English and German; `wpwlOptions.labels` and `errorMessages` override them by key. */

const EN = {
  brand: 'Brand',
  cardNumber: 'Card number',
  expiryDate: 'Expiry date',
  mmyy: 'MM / YY',
  cvv: 'CVV',
  cardHolder: 'Card holder',
  submit: 'Pay now',
  cardNumberError: 'Invalid card number or brand',
  expiryDateError: 'Invalid or past expiry date',
  cvvError: 'Invalid CVV',
  cardHolderError: 'Invalid card holder',
  declined: 'The payment was declined. Check the details or use another card.',
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
  expiryDateError: 'Ungültiges oder abgelaufenes Ablaufdatum',
  cvvError: 'Ungültige Prüfnummer',
  cardHolderError: 'Ungültiger Karteninhaber',
  declined: 'Die Zahlung wurde abgelehnt. Prüfen Sie die Angaben oder nutzen Sie eine andere Karte.',
  invalidCheckout: 'Diese Zahlungssitzung ist ungültig oder abgelaufen. Bitte laden Sie die Seite neu.',
  unavailable: 'Das Zahlungsformular konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
};

export type Language = 'en' | 'de';

/** 'de', 'de-AT' … get the German texts; every other locale falls back to English. */
export const languageOf = (locale: unknown): Language => (/^de\b/i.test(String(locale ?? '')) ? 'de' : 'en');

/** The texts of `language`, with the merchant's own on top. */
export function textsFor(language: Language, ...overrides: (Record<string, string> | undefined)[]): Texts {
  return Object.assign({}, language === 'de' ? DE : EN, ...overrides);
}
