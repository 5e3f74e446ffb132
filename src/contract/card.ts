/**
 * The card rules a browser checks before it sends anything and the gateway
 * checks again: the Luhn digit, the brands told apart by their number prefix
 * (with their number and security-code lengths), the expiry, and what a card
 * holder's name may hold. A module of its own, without the field-format table,
 * so the sandbox's served payment widget carries only these rules.
 */

/** The Luhn (mod 10) check every card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export interface CardBrandRule {
  /** The number prefixes (IIN ranges) of the brand. */
  readonly prefix: RegExp;
  /** The number lengths the brand issues. */
  readonly lengths: readonly number[];
  /** The length of its security code (CVV, CVC, CID). */
  readonly cvvLength: number;
}

/**
 * The card brands whose numbers can be told apart by their prefix. No two
 * prefixes overlap, so a number names at most one of them. (VISADEBIT and
 * VISAELECTRON share VISA's prefix.)
 */
export const CARD_BRANDS = {
  VISA: { prefix: /^4/, lengths: [13, 16, 19], cvvLength: 3 },
  // 51–55 and the 2-series 2221–2720.
  MASTER: { prefix: /^(5[1-5]|2(22[1-9]|2[3-9]|[3-6]|7[01]|720))/, lengths: [16], cvvLength: 3 },
  AMEX: { prefix: /^3[47]/, lengths: [15], cvvLength: 4 },
  DINERS: { prefix: /^3(0[0-5]|[689])/, lengths: [14, 15, 16, 17, 18, 19], cvvLength: 3 },
  DISCOVER: { prefix: /^6(011|4[4-9]|5)/, lengths: [16, 17, 18, 19], cvvLength: 3 },
  JCB: { prefix: /^35(2[89]|[3-8])/, lengths: [16, 17, 18, 19], cvvLength: 3 },
  UNIONPAY: { prefix: /^62/, lengths: [16, 17, 18, 19], cvvLength: 3 },
  MAESTRO: { prefix: /^(5[06-9]|6[37])/, lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvvLength: 3 },
} as const satisfies Record<string, CardBrandRule>;

export type DetectableBrand = keyof typeof CARD_BRANDS;

export const isDetectableBrand = (brand: string): brand is DetectableBrand => Object.hasOwn(CARD_BRANDS, brand);

/** The brand a card number's prefix names, or undefined when it names none of `CARD_BRANDS`. */
export function brandOfCardNumber(number: string): DetectableBrand | undefined {
  return (Object.keys(CARD_BRANDS) as DetectableBrand[]).find((brand) => CARD_BRANDS[brand].prefix.test(number));
}

/**
 * True when a card whose expiry is `month` (1–12) of `year` (four digits) has
 * expired at `now`: it is valid to the end of its month, on the gateway's
 * clock (UTC).
 */
export function isCardExpired(month: number, year: number, now: Date): boolean {
  return year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

/** A name (`card.holder`, the customer's and sender's names): letters of any script, combining marks, digits, spaces and `- ' . ,`. */
export const NAME_PATTERN = /^[\p{L}\p{M}\p{N} '.,-]+$/u;

/** `card.holder` is AN..128. */
export const CARD_HOLDER_MAX_LENGTH = 128;

/** True when `holder` is a card holder's name the gateway accepts. */
export function isCardHolder(holder: string): boolean {
  return NAME_PATTERN.test(holder) && [...holder].length <= CARD_HOLDER_MAX_LENGTH;
}
