/**
 * The texts of the wallet buttons, the stand-in sheets, STC Pay's steps and
 * the MADA steering, in the widget's languages; `wpwlOptions.labels` and
 * `errorMessages` override them by key, as they do the card form's.
 */
import type { Language } from './texts.js';

const EN = {
  applePay: 'Pay with Apple Pay',
  googlePay: 'Pay with Google Pay',
  sheetTitle: '{wallet} (sandbox stand-in)',
  sheetNote: "This is the sandbox's stand-in for the {wallet} sheet. No real wallet is used: choose the outcome.",
  sheetApprove: 'Approve',
  sheetDecline: 'Decline',
  sheetCancel: 'Cancel',
  stcPay: 'STC Pay',
  stcPayNote:
    "The sandbox's stand-in for STC Pay: no message is sent. Enter a Saudi mobile number, then one of the sandbox's one-time passwords.",
  stcPayMobile: 'Mobile number',
  stcPaySendCode: 'Send code',
  stcPayOtp: 'One-time password',
  stcPayConfirm: 'Confirm payment',
  stcPayMobileError: 'Enter a Saudi mobile number (05xxxxxxxx)',
  stcPayOtpError: 'Wrong one-time password',
  madaSteer: 'This is a mada card: please pay with the mada payment option.',
};

export type WalletTextKey = keyof typeof EN;
export type WalletTexts = Record<WalletTextKey, string>;

const DE: WalletTexts = {
  applePay: 'Mit Apple Pay bezahlen',
  googlePay: 'Mit Google Pay bezahlen',
  sheetTitle: '{wallet} (Sandbox-Platzhalter)',
  sheetNote:
    'Dies ist der Platzhalter der Sandbox für das {wallet}-Fenster. Es wird keine echte Wallet verwendet: wählen Sie das Ergebnis.',
  sheetApprove: 'Genehmigen',
  sheetDecline: 'Ablehnen',
  sheetCancel: 'Abbrechen',
  stcPay: 'STC Pay',
  stcPayNote:
    'Der Platzhalter der Sandbox für STC Pay: es wird keine Nachricht gesendet. Geben Sie eine saudische Mobilnummer und dann ein Einmalpasswort der Sandbox ein.',
  stcPayMobile: 'Mobilnummer',
  stcPaySendCode: 'Code senden',
  stcPayOtp: 'Einmalpasswort',
  stcPayConfirm: 'Zahlung bestätigen',
  stcPayMobileError: 'Geben Sie eine saudische Mobilnummer ein (05xxxxxxxx)',
  stcPayOtpError: 'Falsches Einmalpasswort',
  madaSteer: 'Dies ist eine mada-Karte: bitte zahlen Sie mit der mada-Zahlungsart.',
};

const AR: WalletTexts = {
  applePay: 'ادفع باستخدام Apple Pay',
  googlePay: 'ادفع باستخدام Google Pay',
  sheetTitle: '{wallet} (بديل بيئة الاختبار)',
  sheetNote: 'هذا بديل بيئة الاختبار لنافذة {wallet}. لا تُستخدم محفظة حقيقية: اختر النتيجة.',
  sheetApprove: 'موافقة',
  sheetDecline: 'رفض',
  sheetCancel: 'إلغاء',
  stcPay: 'STC Pay',
  stcPayNote:
    'بديل بيئة الاختبار لـ STC Pay: لا تُرسل أي رسالة. أدخل رقم جوال سعوديًا، ثم إحدى كلمات المرور لمرة واحدة الخاصة ببيئة الاختبار.',
  stcPayMobile: 'رقم الجوال',
  stcPaySendCode: 'إرسال الرمز',
  stcPayOtp: 'كلمة المرور لمرة واحدة',
  stcPayConfirm: 'تأكيد الدفع',
  // The number's pattern stays in Western digits, as the field takes them.
  stcPayMobileError: 'أدخل رقم جوال سعوديًا (05xxxxxxxx)',
  stcPayOtpError: 'كلمة المرور لمرة واحدة غير صحيحة',
  madaSteer: 'هذه بطاقة مدى: يرجى الدفع باستخدام خيار الدفع مدى.',
};

const TABLES = { en: EN, de: DE, ar: AR } as const satisfies Record<Language, WalletTexts>;

/** The wallet texts of `language`, with the merchant's own on top. */
export function walletTextsFor(language: Language, ...overrides: (Record<string, string> | undefined)[]): WalletTexts {
  const texts: WalletTexts = { ...TABLES[language] };
  for (const override of overrides)
    for (const key of Object.keys(texts) as WalletTextKey[]) if (typeof override?.[key] === 'string') texts[key] = override[key];
  return texts;
}
