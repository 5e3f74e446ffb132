/** Registers `<gw-3ds-handler>`; loading this module twice is harmless. */
import { defineOnce } from '../shared/emit.js';
import { Gw3dsHandler } from './gw-3ds-handler.js';

defineOnce('gw-3ds-handler', Gw3dsHandler);
