/**
 * The card form's fields and their checks, without the DOM. Every rule comes
 * from the contract (src/contract/card.ts); this module only reads what the
 * shopper typed ("4200 0000 0000 0000", "12 / 28").
 */
import { CARD_BRANDS, CARD_HOLDER_MAX_LENGTH, isCardExpired, isCardHolder, passesLuhn } from '../contract/card.js';
import { cardRuleOf, isFormCardBrand, isNumberOfBrand, type FormCardBrand } from '../contract/brands.js';
import type { TextKey } from './texts.js';

export type FieldName = 'cardNumber' | 'expiry' | 'cvv' | 'cardHolder';

export interface Field {
  readonly name: FieldName;
  readonly label: TextKey;
  /**
   * The platform's name for the field's hint (`wpwl-hint-{error}`) and its `errorMessages` key. The expiry's is
   * `expiryMonthError`, as the platform's widget names it; its text is the year's when the year is what is wrong.
   */
  readonly error: TextKey;
  readonly autocomplete: AutoFill;
  readonly inputMode: string;
  readonly maxLength: number;
  /** The request parameters a gateway `parameterErrors` entry names for this field. */
  readonly parameters: readonly string[];
}

const LONGEST_NUMBER = Math.max(...Object.values(CARD_BRANDS).flatMap((brand) => brand.lengths));
const CVV_LENGTHS: ReadonlySet<number> = new Set(Object.values(CARD_BRANDS).map((brand) => brand.cvvLength));
export const LONGEST_CVV = Math.max(...CVV_LENGTHS);

export const FIELDS: readonly Field[] = [
  // Room for a space between every group of four digits.
  {
    name: 'cardNumber',
    label: 'cardNumber',
    error: 'cardNumberError',
    autocomplete: 'cc-number',
    inputMode: 'numeric',
    maxLength: LONGEST_NUMBER + 4,
    parameters: ['card.number', 'paymentBrand'],
  },
  {
    name: 'expiry',
    label: 'expiryDate',
    error: 'expiryMonthError',
    autocomplete: 'cc-exp',
    inputMode: 'numeric',
    maxLength: 9,
    parameters: ['card.expiryMonth', 'card.expiryYear'],
  },
  {
    name: 'cvv',
    label: 'cvv',
    error: 'cvvError',
    autocomplete: 'cc-csc',
    inputMode: 'numeric',
    maxLength: LONGEST_CVV,
    parameters: ['card.cvv'],
  },
  {
    name: 'cardHolder',
    label: 'cardHolder',
    error: 'cardHolderError',
    autocomplete: 'cc-name',
    inputMode: 'text',
    maxLength: CARD_HOLDER_MAX_LENGTH,
    parameters: ['card.holder'],
  },
];

/** The number without the spaces and dashes a shopper types. */
export const digitsOf = (value: string): string => value.replace(/[\s-]/g, '');

/** "MM / YY", "MM/YYYY", "MMYY" → two-digit month and four-digit year, or undefined. */
export function parseExpiry(value: string): { month: string; year: string } | undefined {
  const match = /^\s*(0?[1-9]|1[0-2])\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return undefined;
  const year = match[2]!;
  return { month: match[1]!.padStart(2, '0'), year: year.length === 2 ? `20${year}` : year };
}

/**
 * The text a refused field's hint shows: its own, but for the expiry the platform's two, `expiryYearError` when the
 * year is unreadable or wholly past, else `expiryMonthError` (a month out of range, or past in the current year).
 */
export function errorTextOf(field: Field, value: string, now: Date): TextKey {
  if (field.name !== 'expiry') return field.error;
  const expiry = parseExpiry(value);
  if (expiry) return isCardExpired(12, Number(expiry.year), now) ? 'expiryYearError' : 'expiryMonthError';
  // A readable month followed by a year of the wrong length ("12 / 2"): the year is what is wrong.
  const parts = /^\s*(\d{1,2})\s*\/?\s*(\d*)\s*$/.exec(value);
  return parts && /^(0?[1-9]|1[0-2])$/.test(parts[1]!) ? 'expiryYearError' : 'expiryMonthError';
}

export interface FieldContext {
  /** The brand the form pays with. */
  readonly brand: FormCardBrand;
  /** `wpwlOptions.requireCvv`: false lets the CVV be left empty. */
  readonly requireCvv: boolean;
  readonly now: Date;
}

/** True when `value` passes the checks of field `name`. */
export function isValidField(name: FieldName, value: string, { brand, requireCvv, now }: FieldContext): boolean {
  const rule = cardRuleOf(brand);
  switch (name) {
    case 'cardNumber': {
      const digits = digitsOf(value);
      return (
        /^\d+$/.test(digits) &&
        isNumberOfBrand(digits, brand) &&
        (rule.lengths as readonly number[]).includes(digits.length) &&
        passesLuhn(digits)
      );
    }
    case 'expiry': {
      const expiry = parseExpiry(value);
      return expiry !== undefined && !isCardExpired(Number(expiry.month), Number(expiry.year), now);
    }
    case 'cvv':
      return (value === '' && !requireCvv) || isCodeOfLength(value, (length) => length === rule.cvvLength);
    case 'cardHolder':
      return isCardHolder(value.trim());
  }
}

/**
 * A saved card's security code, for the brand its listing names: as long as
 * that brand's (4 digits for AMEX, 3 for VISA). A brand the contract has no
 * rule for takes any length a brand has.
 */
export function isSavedCardCvv(value: string, paymentBrand: string): boolean {
  return isCodeOfLength(value, (length) =>
    isFormCardBrand(paymentBrand) ? length === cardRuleOf(paymentBrand).cvvLength : CVV_LENGTHS.has(length),
  );
}

/** A security code: digits only, of a length `fits` takes. */
const isCodeOfLength = (value: string, fits: (length: number) => boolean) => /^\d+$/.test(value) && fits(value.length);
