/**
 * The card data the platform adds from its BIN tables (`card.type`,
 * `card.country`, `card.issuer.bank`, `card.maxPanLength`, `card.regulatedFlag`),
 * derived here from the card number's first digits and brand alone: the
 * sandbox never looks anything up on the network, and the same card always
 * answers the same data.
 */

/** BINs seen in the platform's recorded answers (test/fixtures/real), answered with the same data. */
const KNOWN_BINS: Readonly<Record<string, BinData>> = {
  '411111': { type: 'CREDIT', country: 'US', issuer: { bank: 'JPMORGAN CHASE BANK, N.A.' }, maxPanLength: '16', regulatedFlag: 'Y' },
};

export interface BinData {
  readonly type: 'CREDIT' | 'DEBIT';
  readonly country: string;
  readonly issuer: { readonly bank: string };
  readonly maxPanLength: string;
  readonly regulatedFlag: 'Y' | 'N';
}

/** The longest number each brand issues. */
const MAX_PAN_LENGTH: Readonly<Record<string, string>> = { AMEX: '15', DINERS: '14', MAESTRO: '19', UNIONPAY: '19' };
const DEBIT_BRANDS = new Set(['VISADEBIT', 'VISAELECTRON', 'MAESTRO', 'MADA']);

/** The BIN data the sandbox answers for a card: a known BIN's, else a test issuer in Germany (Saudi Arabia for MADA). */
export function binDataOf(bin: string, brand: string | undefined): BinData {
  return (
    (Object.hasOwn(KNOWN_BINS, bin) ? KNOWN_BINS[bin] : undefined) ?? {
      type: brand !== undefined && DEBIT_BRANDS.has(brand) ? 'DEBIT' : 'CREDIT',
      // MADA is the Saudi debit scheme: its cards are issued in Saudi Arabia.
      country: brand === 'MADA' ? 'SA' : 'DE',
      issuer: { bank: 'GW-SANDBOX TEST ISSUER' },
      maxPanLength: (brand !== undefined && Object.hasOwn(MAX_PAN_LENGTH, brand) && MAX_PAN_LENGTH[brand]) || '16',
      // Only US debit cards fall under the interchange regulation the flag reports.
      regulatedFlag: 'N',
    }
  );
}
