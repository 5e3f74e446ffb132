/**
 * Amounts travel as the API reference's N10.N2 text ("24.90"); sums are done in whole
 * cents so no floating-point error ever reaches a total.
 */

/** `"12.34"` → 1234. The text is validated as N10.N2 before it gets here. */
export function toCents(amount: string): number {
  const [whole = '0', fraction = '0'] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** 1234 → `"12.34"`. */
export function toAmount(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The payment types that move money: their amount must be above 0.00. */
const MONEY_MOVING_TYPES: ReadonlySet<string> = new Set(['DB', 'PA', 'CP', 'RF', 'CD']);

/**
 * Whether a well-formed amount is too low for its payment type: money moves
 * only in amounts above 0.00 (the platform answers `100.550.300`, "request
 * contains no amount or too low amount"). A capture or refund of 0.00 would
 * book nothing yet change what may follow (a reversal after it).
 */
export function amountTooLow(paymentType: string | undefined, amount: string): boolean {
  return paymentType !== undefined && MONEY_MOVING_TYPES.has(paymentType) && toCents(amount) <= 0;
}
