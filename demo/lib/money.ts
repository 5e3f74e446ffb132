/** "24.90" EUR as the shopper reads it, the same on the shop's server and in its pages. */
export function money(amount: string | number, currency = 'EUR', locale = 'en-IE'): string {
  const value = typeof amount === 'number' ? amount / 100 : Number(amount);
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
}
