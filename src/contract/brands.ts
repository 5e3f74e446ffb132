/**
 * The platform's payment brand names in one place, and the brand a card
 * number belongs to when the Saudi debit scheme MADA is in play: a MADA card
 * carries a VISA or MASTER number, so its BIN decides, before its prefix.
 */
import { brandOfCardNumber, CARD_BRANDS, isDetectableBrand, type DetectableBrand } from './card.js';

/** Card brands: their numbers travel as `card.*` fields. VISADEBIT and VISAELECTRON share VISA's prefix; MADA is told by BIN. */
export const CARD_PAYMENT_BRANDS = [
  'VISA',
  'MASTER',
  'AMEX',
  'DISCOVER',
  'JCB',
  'DINERS',
  'MAESTRO',
  'VISADEBIT',
  'VISAELECTRON',
  'UNIONPAY',
  'MADA',
] as const;

/**
 * Wallets, which go in a widget's `data-brands` like card brands: Apple Pay
 * (`APPLEPAY`, also seen as `APPLEPAYTKN` when the merchant decrypts the token),
 * Google Pay, and STC Pay (a Saudi wallet: phone number, then a one-time password).
 */
export const WALLET_BRANDS = ['APPLEPAY', 'APPLEPAYTKN', 'GOOGLEPAY', 'STC_PAY'] as const;

/** Every brand the kit names, as the platform spells it in `paymentBrand` and `data-brands`. */
export const PAYMENT_BRANDS = [...CARD_PAYMENT_BRANDS, ...WALLET_BRANDS] as const;
export type PaymentBrand = (typeof PAYMENT_BRANDS)[number];
export type CardPaymentBrand = (typeof CARD_PAYMENT_BRANDS)[number];
export type WalletBrand = (typeof WALLET_BRANDS)[number];

export const isPaymentBrand = (brand: unknown): brand is PaymentBrand =>
  typeof brand === 'string' && (PAYMENT_BRANDS as readonly string[]).includes(brand);

export const isWalletBrand = (brand: unknown): brand is WalletBrand =>
  typeof brand === 'string' && (WALLET_BRANDS as readonly string[]).includes(brand);

/** The brands an entity has a contract for: the sandbox's configuration (a set) or the widget's checkout answer (a list). */
export type ContractedBrands = ReadonlySet<string> | readonly string[];

/**
 * Whether an entity with a contract for `contracted` brands (undefined: every
 * brand) takes `brand`. The gateway refuses any other with `600.200.201`
 * ("Channel/Merchant not configured for this payment method"), and the widget
 * does not offer it; a request that names no brand is never refused for it.
 */
export const isContracted = (contracted: ContractedBrands | undefined, brand: string | undefined): boolean =>
  brand === undefined || contracted === undefined || ('has' in contracted ? contracted.has(brand) : contracted.includes(brand));

/** The brands a widget's form offers: those its `data-brands` lists that the entity has a contract for, in the form's order. */
export const offeredBrands = <Brand extends string>(listed: readonly Brand[], contracted: ContractedBrands | undefined): Brand[] =>
  listed.filter((brand) => isContracted(contracted, brand));

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/**
 * MADA BINs (number prefixes, six digits and one of eight). Sources: the
 * `MADA_BINS` list of Amazon Payment Services' (PayFort) OpenCart plugin, which
 * integrators copy into their own checks, and the ranges 588845–588851 and
 * 968201–968211 from the platform's integrator documentation. Issuers add BINs:
 * a merchant whose acquirer sends a newer list should prefer it.
 */
export const MADA_BINS: readonly string[] = [
  ...new Set([
    ...'440647 440795 446404 457865 968208 457997 474491 636120 417633 468540 468541 468542 468543 968201 446393 409201 458456 484783 462220 455708 410621 455036 486094 486095 486096 504300 440533 489318 489319 445564 968211 410685 406996 432328 428671 428672 428673 968206 446672 543357 434107 407197 407395 412565 431361 604906 521076 529415 535825 543085 524130 554180 549760 968209 524514 529741 537767 535989 536023 513213 520058 558563 588982 589005 531095 530906 532013 968204 422817 422818 422819 428331 483010 483011 483012 589206 968207 419593 439954 530060 531196 420132 421141 588845 403024 968205 406136 42689700'.split(
      ' ',
    ),
    ...range(588845, 588851),
    ...range(968201, 968211),
  ]),
];

/** True when a card number starts with a MADA BIN (anything but a string names no card). */
export const isMadaNumber = (number: string): boolean => typeof number === 'string' && MADA_BINS.some((bin) => number.startsWith(bin));

/**
 * The brand of a card number with MADA first, as integrators configure the
 * widget (`brandDetectionType: 'binlist'`, `brandDetectionPriority: ['MADA',
 * 'VISA', 'MASTER']`): a MADA BIN is MADA although its number is also a VISA or
 * MASTER one; otherwise the brand its prefix names, or undefined.
 */
export function brandOfCard(number: string): DetectableBrand | 'MADA' | undefined {
  if (typeof number !== 'string') return undefined;
  return isMadaNumber(number) ? 'MADA' : brandOfCardNumber(number);
}

/** The card brands a payment form can take a number for: those told apart by prefix, and MADA, told apart by BIN. */
export type FormCardBrand = DetectableBrand | 'MADA';

export const isFormCardBrand = (brand: string): brand is FormCardBrand => brand === 'MADA' || isDetectableBrand(brand);

/** A MADA card's number is a 16-digit VISA or MASTER number; its security code has three digits. */
const MADA_CARD = { lengths: [16], cvvLength: 3 } as const;

/** The number lengths and security-code length of a form's card brand. */
export const cardRuleOf = (brand: FormCardBrand): { readonly lengths: readonly number[]; readonly cvvLength: number } =>
  brand === 'MADA' ? MADA_CARD : CARD_BRANDS[brand];

/** Whether a card number belongs to `brand`: MADA by its BIN, the others by their prefix. */
export const isNumberOfBrand = (number: string, brand: FormCardBrand): boolean =>
  brand === 'MADA' ? isMadaNumber(number) : brandOfCardNumber(number) === brand;
