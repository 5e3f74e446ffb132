/** `gw-elements/checkout`: defines `<gw-checkout>` on import, so a checkout-only page loads one element. */
import './components/gw-checkout/define.js';
export { GwCheckout } from './components/gw-checkout/gw-checkout.js';
export { CHECKOUT_LIFETIME_MS } from './contract/limits.js';
export type * from './components/gw-checkout/events.js';
export { registerTranslation } from './components/shared/texts.js';
export type { GwCheckoutTexts, GwLanguage, GwTranslation } from './components/shared/texts.js';
export type { WpwlOptions, WpwlError, WpwlErrorName } from './components/gw-checkout/widget-session.js';
export type { ApplePayLineItem, ApplePayOptions, GooglePayOptions } from './browser/widget-contract.js';
export type { PaymentBrand, WalletBrand } from './contract/brands.js';
