/**
 * The elements' own texts (their loading, error and 3-D Secure messages, not
 * the gateway widget's) in the languages gw-elements ships, and how an element
 * picks its language: the `lang` of the element or its nearest ancestor that
 * has one (crossing shadow roots), else the document's. A `lang` the tables do
 * not have gets English.
 */
import { supportedLanguage } from '../../browser/language.js';

/** `<gw-checkout>`'s own texts; its `texts` property overrides any of them. */
export interface GwCheckoutTexts {
  /** Next to the spinner while the widget loads (state `loading`). */
  loading: string;
  /** The widget could not be loaded (state `error`). */
  error: string;
  /** The checkout's 30 minutes ran out (state `expired`). */
  expired: string;
}

/** `<gw-3ds-handler>`'s own texts; its `texts` property overrides any of them. */
export interface Gw3dsHandlerTexts {
  /** Next to the spinner while the 3-D Secure method runs (state `method`). */
  method: string;
  /** The shopper is back from the challenge (state `complete`). */
  complete: string;
  /** The flow failed (state `error`). */
  error: string;
  /** The shopper did not finish the challenge in time (state `timeout`). */
  timeout: string;
  /** The challenge frame's accessible name (the `label` property, when set, wins). */
  challengeFrame: string;
  /** The hidden 3-D Secure method frame's accessible name. */
  methodFrame: string;
}

interface ElementTexts {
  'gw-checkout': GwCheckoutTexts;
  'gw-3ds-handler': Gw3dsHandlerTexts;
}

const TABLES = {
  en: {
    'gw-checkout': {
      loading: 'Loading the payment form…',
      error: 'The payment form could not be loaded.',
      expired: 'This payment session has expired.',
    },
    'gw-3ds-handler': {
      method: 'Checking your card with your bank…',
      complete: 'Card verification finished.',
      error: 'Your card could not be verified.',
      timeout: 'The card verification timed out.',
      challengeFrame: 'Card verification (3-D Secure)',
      methodFrame: 'Card verification (3-D Secure method)',
    },
  },
  de: {
    'gw-checkout': {
      loading: 'Das Zahlungsformular wird geladen…',
      error: 'Das Zahlungsformular konnte nicht geladen werden.',
      expired: 'Diese Zahlungssitzung ist abgelaufen.',
    },
    'gw-3ds-handler': {
      method: 'Ihre Karte wird bei Ihrer Bank geprüft…',
      complete: 'Die Kartenprüfung ist abgeschlossen.',
      error: 'Ihre Karte konnte nicht geprüft werden.',
      timeout: 'Die Zeit für die Kartenprüfung ist abgelaufen.',
      challengeFrame: 'Kartenprüfung (3-D Secure)',
      methodFrame: 'Kartenprüfung (3-D-Secure-Methode)',
    },
  },
  ar: {
    'gw-checkout': {
      loading: 'جارٍ تحميل نموذج الدفع…',
      error: 'تعذّر تحميل نموذج الدفع.',
      expired: 'انتهت صلاحية جلسة الدفع هذه.',
    },
    'gw-3ds-handler': {
      method: 'جارٍ التحقق من بطاقتك مع البنك…',
      complete: 'اكتمل التحقق من البطاقة.',
      error: 'تعذّر التحقق من بطاقتك.',
      timeout: 'انتهت مهلة التحقق من البطاقة.',
      challengeFrame: 'التحقق من البطاقة (3-D Secure)',
      methodFrame: 'التحقق من البطاقة (طريقة 3-D Secure)',
    },
  },
} as const satisfies Record<string, ElementTexts>;

/** The languages whose texts the elements ship. */
export type GwLanguage = keyof typeof TABLES;

export const LANGUAGES = Object.keys(TABLES) as GwLanguage[];

/** The `lang` that applies to `element`: its own or its nearest ancestor's, across shadow roots, else the document's; '' for none. */
export function langOf(element: Element): string {
  for (let node: Element | null = element; node;) {
    const owner = node.closest('[lang]');
    if (owner) return owner.getAttribute('lang') ?? '';
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return element.ownerDocument.documentElement.lang;
}

/** The shipped language `element`'s texts are in: its `lang` when shipped ('ar-SA' → 'ar'), else English. */
export const languageOf = (element: Element): GwLanguage => supportedLanguage(langOf(element), LANGUAGES, 'en');

/** `tag`'s texts in `language`, with the page's `overrides` (the element's `texts` property) on top; non-string overrides are ignored. */
export function textsOf<Tag extends keyof ElementTexts>(
  tag: Tag,
  language: GwLanguage,
  overrides: Partial<ElementTexts[Tag]> | undefined,
): ElementTexts[Tag] {
  const texts: ElementTexts[Tag] = { ...TABLES[language][tag] };
  for (const [key, value] of Object.entries(overrides ?? {}))
    if (typeof value === 'string' && key in texts) (texts as unknown as Record<string, string>)[key] = value;
  return texts;
}
