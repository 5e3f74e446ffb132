/**
 * The events `<gw-checkout>` fires and their detail types, declared once: the
 * element's event map types its `emit()`, and the same map is merged into
 * `HTMLElementEventMap`, so `addEventListener('gw-ready', …)` is typed everywhere.
 */
import type { GwEvent } from '../shared/gw-element.js';

/** Where the element is in its life cycle; reflected as the read-only `state` attribute. */
export type GwCheckoutState = 'idle' | 'loading' | 'ready' | 'submitting' | 'error' | 'expired';

/**
 * Why `gw-error` fired:
 * - `script-load-failed`: the widget script did not load (network error, integrity mismatch, or CSP refusal);
 * - `invalid-checkout`: the gateway refused the checkout id when loading it (unknown, consumed or already expired);
 * - `widget-error`: the widget reported an error, or cannot run here (another checkout already on the page, a payment of this checkout under way in another element, or the element inside a shadow root);
 * - `missing-attribute`: a needed attribute is missing or unusable (`base-url` and `shopper-result-url` must be http(s) URLs, `integrity` well-formed SRI metadata); `detail.attribute` names it.
 */
export type GwCheckoutErrorCode = 'script-load-failed' | 'invalid-checkout' | 'widget-error' | 'missing-attribute';

export interface GwReadyDetail {
  readonly checkoutId: string;
  /** When the checkout expires (`expires-at`, else 30 minutes after the element got the id); `gw-expired` fires then. */
  readonly expiresAt: Date;
}

export interface GwBeforeSubmitDetail {
  readonly checkoutId: string;
  /** The brand the shopper's card was last reported as (`gw-brand-change`), if any. */
  readonly brand: string | undefined;
}

export interface GwBrandChangeDetail {
  readonly checkoutId: string;
  /** The gateway's brand code, e.g. `VISA`, `MASTER`. */
  readonly brand: string;
}

export interface GwErrorDetail {
  readonly code: GwCheckoutErrorCode;
  /**
   * For developers: what went wrong in a few words and, for the element's own checks, a link to what to do
   * (docs/messages.md). Never holds card data. Branch on `code`, never on these words.
   */
  readonly message: string;
  /** The underlying event or error: the script's `error` event, or the widget's error as `{ name, message }` with any run of card digits masked. */
  readonly cause?: unknown;
  /** With `missing-attribute`: the attribute at fault, e.g. `base-url`. */
  readonly attribute?: string;
  readonly checkoutId?: string;
}

export interface GwExpiredDetail {
  readonly checkoutId: string;
  /** When the checkout's 30-minute lifetime ended (by the `expires-at` value or the element's own count). */
  readonly expiredAt: Date;
}

export type GwReadyEvent = GwEvent<GwReadyDetail>;
export type GwBeforeSubmitEvent = GwEvent<GwBeforeSubmitDetail>;
export type GwBrandChangeEvent = GwEvent<GwBrandChangeDetail>;
export type GwErrorEvent = GwEvent<GwErrorDetail>;
export type GwExpiredEvent = GwEvent<GwExpiredDetail>;

/** Every event `<gw-checkout>` fires, by name. */
export interface GwCheckoutEventMap {
  'gw-ready': GwReadyEvent;
  'gw-before-submit': GwBeforeSubmitEvent;
  'gw-brand-change': GwBrandChangeEvent;
  'gw-error': GwErrorEvent;
  'gw-expired': GwExpiredEvent;
}

declare global {
  // `gw-error` is shared with <gw-3ds-handler>: its global entry is in ../shared/gw-element.ts.
  // Merges the map's entries into the global one: the members come from the `extends`.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends Omit<GwCheckoutEventMap, 'gw-error'> {}
  interface GwErrorDetailMap {
    'gw-checkout': GwErrorDetail;
  }
}
