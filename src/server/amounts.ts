/**
 * Amounts for a merchant's own sums (a cart's total, what is left to capture or
 * refund): the gateway's amount text to whole cents and back, so no
 * floating-point error ever reaches a total. Both refuse what is not an amount
 * with a typed error instead of returning NaN.
 */
import { toAmount as amountOfCents, toCents as centsOfAmount } from '../contract/amount.js';
import { checkField } from '../contract/formats.js';
import { invalidArgument } from './errors.js';

/** `'12.34'` → 1234, `'12'` → 1200: an amount as the gateway writes it, in whole cents. */
export function toCents(amount: string): number {
  if (typeof amount !== 'string' || checkField('amount', amount) !== undefined)
    throw invalidArgument('amount', 'must be an amount as the gateway writes it, e.g. "12.34"');
  return centsOfAmount(amount);
}

/** 1234 → `'12.34'`: whole cents as the gateway's amount text, ready to send. */
export function toAmount(cents: number): string {
  const amount = Number.isSafeInteger(cents) && cents >= 0 ? amountOfCents(cents) : undefined;
  if (amount === undefined || checkField('amount', amount) !== undefined)
    throw invalidArgument('cents', "must be a whole number of cents from 0 to the gateway's largest amount");
  return amount;
}
