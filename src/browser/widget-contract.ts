/**
 * The one contract between a page and the gateway's payment widget: the global
 * `window.wpwlOptions` a page sets before the script loads, and the errors the
 * widget hands to `onError`. `<gw-checkout>` writes it and the sandbox's served
 * widget reads it, so the two can never disagree.
 */

import type { PaymentBrand } from '../contract/brands.js';

/** The `error.name` values the widget passes to `onError`. */
export type WpwlErrorName = 'InvalidCheckoutIdError' | 'WidgetError' | 'PciIframeSubmitError' | 'PciIframeCommunicationError';

/** What the widget passes to `wpwlOptions.onError`. */
export interface WpwlError {
  readonly name: WpwlErrorName | (string & {});
  readonly message?: string;
}

/** An Apple Pay line item, as Apple's `ApplePayLineItem`: `amount` is a decimal string. */
export interface ApplePayLineItem {
  label: string;
  amount?: string;
  type?: 'final' | 'pending';
}

/**
 * `wpwlOptions.applePay`: the platform's documented keys, which the widget
 * hands to Apple's `ApplePayPaymentRequest`. The real widget shows the Apple
 * Pay button only on capable devices; the sandbox's widget always shows its
 * stand-in.
 */
export interface ApplePayOptions {
  /** The Apple Pay JS version the sheet is opened with. */
  version?: number;
  /** The merchant's name on the sheet. */
  displayName?: string;
  total?: ApplePayLineItem;
  lineItems?: ApplePayLineItem[];
  /** Two-letter country of the merchant, e.g. `SA`. */
  countryCode?: string;
  currencyCode?: string;
  merchantCapabilities?: ('supports3DS' | 'supportsEMV' | 'supportsCredit' | 'supportsDebit')[];
  /** Apple's network names: `visa`, `masterCard`, `amex`, `mada`, … */
  supportedNetworks?: ('visa' | 'masterCard' | 'amex' | 'mada' | 'discover' | 'jcb' | 'maestro' | 'chinaUnionPay' | (string & {}))[];
  requiredBillingContactFields?: string[];
  requiredShippingContactFields?: string[];
  /** Button look, as Apple's `-apple-pay-button-style`. */
  buttonStyle?: 'black' | 'white' | 'white-outline';
  buttonSource?: 'css' | 'js';
  /** Called when the shopper closes the sheet without paying. */
  onCancel?: (...args: unknown[]) => void;
  [key: string]: unknown;
}

/** `wpwlOptions.googlePay`: the platform's documented keys, handed to Google's `PaymentDataRequest`. */
export interface GooglePayOptions {
  /** Required: the entity id the payment is made on. */
  gatewayMerchantId: string;
  /** Google's merchant id, required when going live. */
  merchantId?: string;
  merchantName?: string;
  allowedAuthMethods?: ('PAN_ONLY' | 'CRYPTOGRAM_3DS')[];
  /** Google's network names: `VISA`, `MASTERCARD`, `AMEX`, … */
  allowedCardNetworks?: ('VISA' | 'MASTERCARD' | 'AMEX' | 'DISCOVER' | 'JCB' | 'INTERAC' | (string & {}))[];
  /** Two-letter country of the merchant. */
  countryCode?: string;
  /** `TEST` or `PRODUCTION`. */
  environment?: 'TEST' | 'PRODUCTION';
  buttonColor?: 'default' | 'black' | 'white';
  buttonType?: 'buy' | 'plain' | 'checkout' | 'pay' | 'book' | 'donate' | 'order' | 'subscribe';
  /** Called when the shopper closes the sheet without paying. */
  onCancel?: (...args: unknown[]) => void;
  [key: string]: unknown;
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
  /**
   * How brands are detected: `binlist` looks the number's BIN up, which is how a
   * MADA card (which carries a VISA or MASTER number) is told apart.
   */
  brandDetectionType?: 'regex' | 'binlist';
  /** Which brand wins when a number belongs to several, e.g. `['MADA', 'VISA', 'MASTER']`. */
  brandDetectionPriority?: readonly PaymentBrand[];
  /** Apple Pay's settings, for a form with `APPLEPAY` (or `APPLEPAYTKN`) in `data-brands`. */
  applePay?: ApplePayOptions;
  /** Google Pay's settings, for a form with `GOOGLEPAY` in `data-brands`. */
  googlePay?: GooglePayOptions;
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
