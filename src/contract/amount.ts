/**
 * Amounts travel as the seed's N10.N2 text ("24.90"); sums are done in whole
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
