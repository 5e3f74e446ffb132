/**
 * The sandbox's default channels, a KSA merchant's set-up, without Node: the
 * HTTP sandbox and the static Storybook's service worker start from the same.
 */
import type { SandboxEntity } from './core/state.js';

/** The card channel (AN32) the sandbox knows unless told otherwise: every card brand but MADA, and Google Pay. */
export const DEFAULT_ENTITY_ID = '8ac7a4c79394bdc801939736f17e063d';
/** The second channel of the default set-up, as a KSA merchant gets one: MADA, Apple Pay and STC Pay. */
export const DEFAULT_MADA_ENTITY_ID = '8ac7a4c79394bdc801939736f17e4d4a';

/** The default set-up: one entity per brand group, so MADA and wallets work without flags. */
export const DEFAULT_ENTITIES: readonly SandboxEntity[] = [
  {
    id: DEFAULT_ENTITY_ID,
    brands: ['VISA', 'MASTER', 'AMEX', 'DISCOVER', 'JCB', 'DINERS', 'MAESTRO', 'VISADEBIT', 'VISAELECTRON', 'UNIONPAY', 'GOOGLEPAY'],
  },
  { id: DEFAULT_MADA_ENTITY_ID, brands: ['MADA', 'APPLEPAY', 'APPLEPAYTKN', 'STC_PAY'] },
];
