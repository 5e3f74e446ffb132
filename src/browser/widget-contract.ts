/**
 * The one contract between a page and the gateway's payment widget: the global
 * `window.wpwlOptions` a page sets before the script loads, and the errors the
 * widget hands to `onError`. `<gw-checkout>` writes it and the sandbox's served
 * widget reads it, so the two can never disagree.
 */

/** The `error.name` values the widget passes to `onError`. */
export type WpwlErrorName = 'InvalidCheckoutIdError' | 'WidgetError' | 'PciIframeSubmitError' | 'PciIframeCommunicationError';

/** What the widget passes to `wpwlOptions.onError`. */
export interface WpwlError {
  readonly name: WpwlErrorName | (string & {});
  readonly message?: string;
}

/**
 * The widget's configuration, the global `window.wpwlOptions`: the documented
 * keys typed, anything else passed through to the widget as given.
 */
export interface WpwlOptions {
  /** e.g. `de`, `de-AT`; the widget defaults to `en-US`. */
  locale?: string;
  style?: 'card' | 'logos' | 'plain' | 'none';
  labels?: Record<string, string>;
  iframeStyles?: Record<string, unknown>;
  /** `true`, or the field to focus first: `card.number` or `card.holder`. */
  autofocus?: boolean | 'card.number' | 'card.holder' | (string & {});
  requireCvv?: boolean;
  brandDetection?: boolean;
  /** The texts of the inline field errors, by the widget's own keys. */
  errorMessages?: Record<string, string>;
  /**
   * A one-click checkout's saved cards (the platform's `registrations[n].id`):
   * `requireCvv` asks the shopper for the card's CVV before paying with it;
   * `hideInitialPaymentForms` shows only the saved cards until the shopper asks for a new one.
   */
  registrations?: { requireCvv?: boolean; hideInitialPaymentForms?: boolean };
  onReady?: (...args: unknown[]) => void;
  /** Returning `false` stops the payment. */
  onBeforeSubmitCard?: (event: Event, ...args: unknown[]) => boolean | void;
  onAfterSubmit?: (...args: unknown[]) => void;
  onError?: (error: WpwlError, ...args: unknown[]) => void;
  onChangeBrand?: (brand: string, ...args: unknown[]) => void;
  onDetectBrand?: (brands: string[], ...args: unknown[]) => void;
  [key: string]: unknown;
}

/** The callbacks of `wpwlOptions`, by name. */
export type WpwlCallback = 'onReady' | 'onBeforeSubmitCard' | 'onAfterSubmit' | 'onError' | 'onChangeBrand' | 'onDetectBrand';
