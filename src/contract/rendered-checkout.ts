/**
 * A checkout the merchant's server rendered into its page (`renderCheckout` in
 * gw-elements/server): the widget's form, its script and a small inline
 * script in the HTML, so the widget loads before `<gw-checkout>`'s code has
 * arrived. What the server writes and what the element adopts when it
 * upgrades, named once here.
 */

/** The global the inline script leaves for the element: the options it loaded the widget with, and what the widget reported before the element ran. */
export const RENDERED_CHECKOUT_GLOBAL = 'gwRenderedCheckout';

/**
 * Marks the rendered `<gw-checkout>` itself: its form, the inline script and the widget script follow it in the
 * HTML, so an element upgraded while the page is still being parsed (its code defined before the markup) waits
 * for them instead of loading a second widget.
 */
export const RENDERED_ELEMENT_ATTRIBUTE = 'data-gw-rendered';

/** Marks the rendered widget script, so the element finds exactly that one. */
export const RENDERED_SCRIPT_ATTRIBUTE = 'data-gw-widget';

/** The class of the element's light-DOM wrapper around `form.paymentWidgets` (rendered or mounted by the element). */
export const WIDGET_AREA_CLASS = 'gw-checkout-widget';

/**
 * The language the widget loads with, by one rule for the element and the server that renders it: the element's
 * `locale`, else the widget options' own `locale`, else the page's language (`lang`); none leaves the widget's default.
 */
export const widgetLocale = <Given>(
  locale: string | undefined,
  optionsLocale: Given,
  lang: string | undefined,
): string | Given | undefined => locale || optionsLocale || lang || undefined;

/** The widget callbacks the inline script records until the element takes over. */
export const RECORDED_CALLBACKS = ['onReady', 'onError', 'onChangeBrand'] as const;

export type RecordedCallback = (typeof RECORDED_CALLBACKS)[number];

/** `window[RENDERED_CHECKOUT_GLOBAL]`. */
export interface RenderedCheckout {
  /** The data options the server put into `wpwlOptions` (no callbacks). */
  readonly options: Record<string, unknown>;
  /** Each recorded callback, in order, with its arguments. */
  readonly events: [RecordedCallback, unknown[]][];
}
