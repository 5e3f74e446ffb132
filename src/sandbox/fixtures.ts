/**
 * Request forms to start tests from: the flat form fields of a valid
 * server-to-server debit with the sandbox's approved card, and of one the
 * sandbox answers with a 3-D Secure redirect. Used by the kit's own tests,
 * benchmarks and stories; no Node or browser dependencies, so browser code may
 * import this module directly.
 */
import { brandsOfCardNumber } from '../contract/rules.js';
import { CARDS } from './gateway/triggers.js';

/** Card and customer fields of a valid server-to-server debit; override as needed. */
export function cardPayment(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    amount: '92.00',
    currency: 'EUR',
    paymentType: 'DB',
    paymentBrand: 'VISA',
    'card.number': CARDS.approved,
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': '2034',
    'card.cvv': '123',
    'customer.email': 'jane@example.com',
    'customer.ip': '192.168.0.1',
    ...overrides,
  };
}

/** The fields a 3DS payment adds: where the shopper returns to, and billing data for the issuer. */
export function threeDsFields(shopperResultUrl = 'https://shop.example/result?order=42'): Record<string, string> {
  return {
    shopperResultUrl,
    'billing.street1': 'Main Street 1',
    'billing.city': 'Vienna',
    'billing.country': 'AT',
    'billing.postcode': '1010',
  };
}

/** A debit with a 3DS test card (its brand read from the number), pending a redirect back to `shopperResultUrl`. */
export function threeDsPayment(
  cardNumber: string,
  shopperResultUrl: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return cardPayment({
    paymentBrand: brandsOfCardNumber(cardNumber)[0] ?? 'VISA',
    'card.number': cardNumber,
    ...threeDsFields(shopperResultUrl),
    ...overrides,
  });
}
