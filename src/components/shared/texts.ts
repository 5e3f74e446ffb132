/**
 * The elements' own texts (their loading, error and 3-D Secure messages, not
 * the gateway widget's) and how an element picks its language: the `lang` of
 * the element or its nearest ancestor that has one (crossing shadow roots),
 * else the document's. English is built into each element; every other
 * language is a module the page imports when it needs it, which registers its
 * texts here (as Shoelace ships its translations). A `lang` with no
 * registered texts gets English.
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

export interface ElementTexts {
  'gw-checkout': GwCheckoutTexts;
  'gw-3ds-handler': Gw3dsHandlerTexts;
}

/** The languages whose texts gw-elements ships: English in each element, the others as translation modules. */
export type GwLanguage = 'en' | 'de' | 'ar' | 'fr' | 'es' | 'it' | 'nl' | 'pl' | 'tr';

/** One language's texts for one element, as a translation module registers them (`gw-elements/checkout/translations/de`, …). */
export interface GwTranslation {
  /** The language's code, e.g. `de`: an element whose `lang` is `de` or `de-AT` uses these texts. */
  readonly $code: string;
  readonly 'gw-checkout'?: GwCheckoutTexts;
  readonly 'gw-3ds-handler'?: Gw3dsHandlerTexts;
}

/**
 * The registered texts by language, and the connected elements to render again when one arrives. On
 * `globalThis`, so one registry serves every copy of the package a page holds (a bundle, and a
 * translation module loaded beside the browser build).
 */
/** An element whose texts follow the registry: told through `requestUpdate('lang', …)`, as a change of `lang` is. */
interface Translated {
  requestUpdate(name: 'lang', oldValue: null): void;
}

interface Registry {
  readonly texts: Map<string, Partial<ElementTexts>>;
  readonly elements: Set<Translated>;
}
const REGISTRY = Symbol.for('gw-elements.translations');
// Made at first use, not on import: importing an element's module in Node (SSR, build tools) adds no global.
const registry = (): Registry => ((globalThis as { [REGISTRY]?: Registry })[REGISTRY] ??= { texts: new Map(), elements: new Set() });

/** Adds languages' texts (what each translation module does on import); elements on the page render again in them. */
export function registerTranslation(...translations: GwTranslation[]): void {
  for (const { $code, ...texts } of translations) {
    const code = $code.toLowerCase();
    registry().texts.set(code, { ...registry().texts.get(code), ...texts });
  }
  // `lang` (a string, never null) counts as changed: the elements re-render and retitle their frames.
  for (const element of registry().elements) element.requestUpdate('lang', null);
}

/** Renders `element` again whenever a translation arrives, while it is in the page. */
export function followTranslations(element: Translated, connected: boolean): void {
  if (connected) registry().elements.add(element);
  else registry().elements.delete(element);
}

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

/**
 * `element`'s texts for `tag`: those of its `lang` when registered ('ar-SA' → 'ar'), else the
 * built-in English; the page's `overrides` (the element's `texts` property) on top, non-strings ignored.
 */
export function textsOf<Tag extends keyof ElementTexts>(
  element: Element,
  tag: Tag,
  english: ElementTexts[Tag],
  overrides: Partial<ElementTexts[Tag]> | undefined,
): { language: string; texts: ElementTexts[Tag] } {
  const registered = [...registry().texts].filter(([, texts]) => texts[tag]).map(([code]) => code);
  const language = supportedLanguage(langOf(element), registered, 'en');
  const texts: ElementTexts[Tag] = { ...english, ...registry().texts.get(language)?.[tag] };
  for (const [key, value] of Object.entries(overrides ?? {}))
    if (typeof value === 'string' && key in texts) (texts as unknown as Record<string, string>)[key] = value;
  return { language, texts };
}
