/** gw-elements: the browser entry point. Importing it defines the elements. */
import './components/checkout/define.js';
export { GwCheckout } from './components/checkout/gw-checkout.js';
export { CHECKOUT_LIFETIME_MS } from './contract/limits.js';
export type * from './components/checkout/events.js';
export type { WpwlOptions, WpwlError, WpwlErrorName } from './components/checkout/widget-session.js';
import './components/three-ds/define.js';
export { Gw3dsHandler } from './components/three-ds/gw-3ds-handler.js';
export { postThreeDsResult, THREE_DS_RESULT_MESSAGE } from './components/three-ds/post-result.js';
export type * from './components/three-ds/types.js';
