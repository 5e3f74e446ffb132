/**
 * `gw-elements/sandbox/test-cards`: the sandbox's test cards and ready request
 * forms, without Node: for a storybook, a demo page or a browser test that pays
 * in the sandbox's widget or starts a server-to-server 3-D Secure payment.
 * The default entities are here too: a page creating a MADA checkout names the MADA entity.
 */
export { CARDS, TEST_CARDS, behaviourOf, type CardBehaviour, type TestCard } from './gateway/triggers.js';
export { cardPayment, threeDsFields, threeDsPayment } from './fixtures.js';
export { DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID } from './defaults.js';
