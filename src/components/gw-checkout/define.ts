/** Registers `<gw-checkout>` (once, even if this module is loaded twice). */
import { GwCheckout } from './gw-checkout.js';

GwCheckout.define();
