/**
 * What the demo shop sells. Prices live on the server: the amount of a checkout
 * is computed here from SKUs and quantities, never taken from the browser.
 */

export interface Product {
  readonly sku: string;
  readonly name: string;
  readonly description: string;
  /** Unit price in cents, so sums are exact. */
  readonly priceCents: number;
}

export const CURRENCY = 'EUR';

export const PRODUCTS: readonly Product[] = [
  { sku: 'espresso-beans', name: 'Espresso beans, 1 kg', description: 'Dark roast, chocolate and hazelnut.', priceCents: 2490 },
  { sku: 'filter-beans', name: 'Filter beans, 500 g', description: 'Light roast, citrus and jasmine.', priceCents: 1450 },
  { sku: 'pour-over-kit', name: 'Pour-over kit', description: 'Dripper, 100 filters and a scale.', priceCents: 4900 },
];

export interface CartLine {
  readonly sku: string;
  readonly quantity: number;
}

/** The cart's lines, checked against the catalogue, and their total in cents. */
export function priceCart(lines: readonly CartLine[]): { lines: { product: Product; quantity: number }[]; totalCents: number } {
  const priced = lines.map((line) => {
    const product = PRODUCTS.find((candidate) => candidate.sku === line.sku);
    if (!product) throw new RangeError(`unknown product ${line.sku}`);
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > 20) throw new RangeError(`quantity of ${line.sku} must be 1 to 20`);
    return { product, quantity: line.quantity };
  });
  if (!priced.length) throw new RangeError('the cart is empty');
  return { lines: priced, totalCents: priced.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0) };
}

