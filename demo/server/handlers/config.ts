/** The shop's settings for its pages: currency, products, where the widget comes from, the sandbox's test cards. */
import { TEST_CARDS } from 'gw-elements/sandbox/test-cards';
import { CURRENCY, PRODUCTS } from '../catalogue.js';
import type { MerchantContext } from '../merchant-context.js';

// Sent as it is: the only card numbers in any answer, the sandbox's public test cards for the pages' tables.
export function config(_input: unknown, { gatewayUrl, advanceGatewayClock }: MerchantContext) {
  return { currency: CURRENCY, gatewayUrl, products: PRODUCTS, testCards: TEST_CARDS, canExpireCheckouts: Boolean(advanceGatewayClock) };
}
