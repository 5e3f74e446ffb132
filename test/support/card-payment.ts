/**
 * The flat form fields of a valid server-to-server debit with the sandbox's
 * approved card: the one fixture the node tests, the contract tests and the
 * benchmarks start from. No Node or browser dependencies.
 */
import { CARDS } from '../../src/sandbox/triggers.js';

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
