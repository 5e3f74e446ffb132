/** Registers `<gw-checkout>` (once, even if this module is loaded twice). */
import { defineOnce } from '../shared/emit.js';
import { GwCheckout } from './gw-checkout.js';

defineOnce('gw-checkout', GwCheckout);
