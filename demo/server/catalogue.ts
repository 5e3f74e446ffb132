/**
 * What the demo shop sells. Prices live on the server: the amount of a checkout
 * is computed here from SKUs and quantities, never taken from the browser.
 */
import { z } from 'zod';

export interface Product {
  readonly sku: string;
  readonly name: string;
  readonly description: string;
  /** Unit price in cents, so sums are exact. */
  readonly priceCents: number;
}

export const CURRENCY = 'EUR';

/** The subscription's one plan: a bag of coffee a month (frequency in the platform's days). */
export const PLAN = { name: 'Kestrel Coffee Club', amount: '9.90', frequency: '0030' } as const;

/** What one-click buys on the Saved cards page: one bag of coffee. */
export const ONE_CLICK_AMOUNT = '9.90';

export const PRODUCTS: readonly Product[] = [
  { sku: 'espresso-beans', name: 'Espresso beans, 1 kg', description: 'Dark roast, chocolate and hazelnut.', priceCents: 2490 },
  { sku: 'filter-beans', name: 'Filter beans, 500 g', description: 'Light roast, citrus and jasmine.', priceCents: 1450 },
  { sku: 'pour-over-kit', name: 'Pour-over kit', description: 'Dripper, 100 filters and a scale.', priceCents: 4900 },
];

/** The cart as the browser sends it: known SKUs, 1 to 20 of each, at least one line (the prices are the server's). */
export const cartSchema = z
  .array(
    z.object({
      sku: z.enum(PRODUCTS.map((product) => product.sku) as [string, ...string[]], { error: 'is not a product of this shop' }),
      quantity: z.number().int().min(1, { error: 'must be 1 to 20' }).max(20, { error: 'must be 1 to 20' }),
    }),
  )
  .min(1, { error: 'is empty: the cart needs a product' });

export type CartLine = z.infer<typeof cartSchema>[number];

/** The cart's lines with their products, and their total in cents. */
export function priceCart(lines: readonly CartLine[]): { lines: { product: Product; quantity: number }[]; totalCents: number } {
  const priced = lines.map((line) => ({ product: PRODUCTS.find((candidate) => candidate.sku === line.sku)!, quantity: line.quantity }));
  return { lines: priced, totalCents: priced.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0) };
}
