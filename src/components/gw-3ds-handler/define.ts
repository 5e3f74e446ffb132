/** Registers `<gw-3ds-handler>` (once, even if this module is loaded twice). */
import { Gw3dsHandler } from './gw-3ds-handler.js';

Gw3dsHandler.define();
