/**
 * The API reference's field-format codes, read once and shared by the sandbox and the
 * server helper so the two can never disagree about what is a valid value.
 *
 * The API reference names the letters (A, N, AN, ANS) and lengths (`..n` up to n, bare
 * `n` exactly n) but not a formal definition. Decisions taken here, each one
 * covered by `test/contract/formats.test.ts`:
 *
 * | kind        | rule                                                                                   |
 * |-------------|----------------------------------------------------------------------------------------|
 * | `amount`    | The platform's own rule, `^[0-9]{1,12}(\.[0-9]{2})?$`, with its own message (`must match ^[0-9]{1,12}(\.[0-9]{2})?$`). The API reference writes N10.N2, but the platform accepts `10` and 12 digits and answers amounts with two decimals; refusing what it accepts would break merchants on the switch. |
 * | `alpha`     | A: ASCII letters, upper case (currency and country codes). Bare length is exact.       |
 * | `id`        | AN for identifiers (entityId AN32, checkout ids): ASCII letters and digits, bare length exact. |
 * | `name`      | AN for human text (names, cities, sender data): letters of any script, combining marks, digits, spaces, `- ' . ,`. A bare length is a maximum: an exact length cannot be meant for a name. |
 * | `text`      | ANS: any printable character except control characters; bare length is a maximum for human text (merchant.city ANS13). |
 * | `digits`    | N: ASCII digits; bare length exact (AdditionalTrace N19), `..n` a maximum.             |
 *
 * Value sets follow the platform where it accepts more than the API reference shows:
 *
 * | field | accepted | why |
 * |-------|----------|-----|
 * | `customer.browser.challengeWindow` | `1`–`5` and `01`–`05`, the same five sizes | the platform's samples and integrators send one digit and the platform echoes it; EMV writes two |
 * | `threeDSecure.challengeIndicator` | `01`–`09` and `1`–`9` | the EMV 3DS requestor challenge indicator: integrators send the SCA exemptions 05 and 08, and one digit (`4`) |
 * | `threeDSecure.authenticationStatus` | `Y N U A C D R I` | the EMV 3DS 2.2 transStatus values (D: decoupled) |
 * | `paymentBrand` | the brands of `PAYMENT_BRANDS` (brands.ts) | card brands (MADA included) and the wallets APPLEPAY, APPLEPAYTKN, GOOGLEPAY, STC_PAY; the platform knows more (bank transfers) which the kit does not send |
 *
 * Where the kit follows the platform over the API reference (the API reference's format codes are stricter than what the platform is
 * recorded accepting; the sandbox answers, and the server helper checks before sending, by this one table):
 *
 * | request | the platform accepts (recorded) | the API reference says | the kit |
 * |---------|---------------------------------|---------------|---------|
 * | the entity | `authentication.entityId` with a Bearer token, as integrators' clients still send it (the credential style before tokens) | `entityId` | the sandbox reads either (`entityId` wins when both come); the server helper always sends `entityId` |
 * | `merchantTransactionId` | any printable text, spaces included (`order 1234`; an integrator's remote tests against the test host) | AN..255 | ANS..255: printable text, no control characters |
 * | `customer.phone`, `customer.mobile`, `recipient.phone` | free text (`+49 (0)89 / 987 65-4`, `call 0800 1234`) | AN..25 | ANS..25 |
 * | `integrity` on a checkout | a checkout created without it (production, 2024): no `integrity` in the answer, the widget loads without the attribute | mandatory | optional |
 * | a card number failing the Luhn check | a refused transaction, `100.100.101` with its own id, HTTP 400 (recorded 2015) | a parameter error | the sandbox answers the refused transaction; the server helper still refuses it before sending (nothing is charged either way) |
 * | reading back a refused transaction (its id, the report by `merchantTransactionId`, the checkout's status) | the transaction: every refused one has its own id and is a transaction of the platform; no recorded read-back (refused answers recorded 2015 and 2017) | nothing (the sandbox answered `700.400.580`) | kept like a payment and answered with the fields its refusal showed (id, type, brand, result, card summary, echoed fields, `risk` on a refused capture, refund or reversal), HTTP 200; a stored card's refusal is an `RG` transaction; no notification |
 * | the brands a widget's form offers | the form's `data-brands` the entity is configured for; any other brand is refused `600.200.201` "Channel/Merchant not configured for this payment method" (integrators' KSA set-ups: one entity per brand group) | the form's `data-brands` | the intersection (brands.ts `offeredBrands`); the merchant gets a `WidgetError` naming the rest, a form with nothing left tells the shopper the method is not available, never declined |
 * | a capture, refund or reversal of an unknown payment | a refused CP/RF/RV transaction with its own id: `700.400.510`, `600.200.500`, `700.400.530` (recorded 2017; an integrator's failure tests) | `700.100.100` | as the platform |
 * | a reversal of a debit (RV on a DB) | allowed (an integrator's remote tests) | reversals of preauthorisations | allowed until the debit is refunded or reversed |
 * | a refused token | "invalid authentication information" on `/v1/…`, "user authorization failed" on `/v3/query` (both `800.900.300`) | the second everywhere | by endpoint |
 * | `customer.email`, `customer.ip` on a server-to-server DB or PA | approved without them (2017, before 3-D Secure 2 and its browser data) | mandatory | mandatory, as documented: no recording since 3-D Secure 2 shows a payment without them, and a sandbox laxer than today's platform would let a merchant ship a request it refuses |
 * | a missing `paymentType` | `"may not be null"`, and the entity named `authentication` (a 2018 answer to a request without either) | (no wording) | `may not be empty`, the wording recorded 2017–2023 for every other missing field, and the entity as `entityId` |
 *
 * Answers follow the platform's recordings (test/fixtures/real/, sources named in each) where they
 * and the API reference's tables differ; where recordings disagree, the newest wins:
 *
 * | answer | as recorded | instead of |
 * |--------|-------------|------------|
 * | a missing parameter in `parameterErrors` | `"value": null` (2017–2023 recordings agree) | `""`; the client reads null, absent and unknown fields alike |
 * | capture, refund and reversal answers | no `card`, no `paymentBrand` (three sources, 2016–2022) | the payment's card and brand echoed |
 * | the answer to a payment on a registered card | no `card`; `paymentBrand` only when the request sent one (2017; a 2024 answer without the brand) | the API reference leaves them out of the basic credit only; read-backs keep the stored card and brand (none recorded) |
 * | `timestamp` of the answer to a payment request | to the second, `YYYY-MM-DD hh:mm:ss+0000`; read-backs keep milliseconds (the 2017 and 2023 recordings; older ones carried milliseconds everywhere) | one format for both (timestamp.ts) |
 * | the report list's own result | `000.000.100` "successful request" (2022) | a transaction's approval code |
 * | a refused report request | `800.900.300` "user authorization failed", as the API reference writes it | the longer text of other endpoints |
 * | notification payloads | `ndc` the checkout id (widget) or `<entityId>_<32 hex>` (server to server), `presentationAmount`/`presentationCurrency` and `authentication.entityId` present, the time to the second, upper-case hex body, IV and tag (2015, 2018 and 2023 deliveries) | the payment id as `ndc`, lower-case hex |
 */

import { PAYMENT_BRANDS } from './brands.js';
import { CARD_HOLDER_MAX_LENGTH, NAME_PATTERN, passesLuhn } from './card.js';
import {
  CHALLENGE_WINDOW_VALUES,
  CHALLENGE_WINDOWS,
  challengeWindowOf,
  type ChallengeWindow,
  type ChallengeWindowValue,
} from './challenge-window.js';

/** What kind of value a field holds; see the table above. */
export type FormatKind =
  | 'amount'
  | 'alpha'
  | 'id'
  | 'name'
  | 'text'
  | 'digits'
  | 'enum'
  | 'boolean'
  | 'email'
  | 'ip'
  | 'url'
  | 'date'
  | 'yymmdd'
  | 'month'
  | 'year'
  | 'cardNumber'
  | 'cvv'
  | 'senderAddress';

export interface FieldFormat {
  /** The API reference's format code, or a short description where the API reference gives none. */
  readonly code: string;
  readonly kind: FormatKind;
  /** Smallest and largest length, in characters (code points). */
  readonly min?: number;
  readonly max?: number;
  /** Allowed values of an `enum` field. */
  readonly values?: readonly string[];
}

const exactly = (kind: FormatKind, code: string, length: number): FieldFormat => ({ code, kind, min: length, max: length });
const upTo = (kind: FormatKind, code: string, max: number): FieldFormat => ({ code, kind, min: 1, max });
const oneOf = (code: string, values: readonly string[]): FieldFormat => ({ code, kind: 'enum', values });

// The brands the kit sends as `paymentBrand` ("VISA, MASTER, and others the gateway supports") live in brands.ts.
export { PAYMENT_BRANDS, type PaymentBrand } from './brands.js';

export const PAYMENT_TYPES = ['DB', 'PA', 'CP', 'CD', 'RF', 'RV'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const TEST_MODES = ['EXTERNAL', 'INTERNAL'] as const;
export type TestMode = (typeof TEST_MODES)[number];

export const ACCOUNT_NUMBER_TYPES = [
  'OTHER',
  'RTN_AND_BANK_ACCOUNT',
  'IBAN',
  'EMAIL',
  'PHONE_NUMBER',
  'BAN_AND_BIC',
  'WALLET_ID',
  'SOCIAL_NETWORK_ID',
] as const;
export type AccountNumberType = (typeof ACCOUNT_NUMBER_TYPES)[number];

/** Transaction type identifiers for account funding (F codes). */
export const FUNDING_TRANSACTION_TYPES = ['F07', 'F08', 'F52', 'F54', 'F61', 'F64'] as const;
export type FundingTransactionType = (typeof FUNDING_TRANSACTION_TYPES)[number];

/** Transaction type identifiers for send and winnings payouts (C codes). */
export const PAYOUT_TRANSACTION_TYPES = ['C04', 'C07', 'C52', 'C53', 'C54', 'C55', 'C56', 'C57', 'C65'] as const;
export type PayoutTransactionType = (typeof PAYOUT_TRANSACTION_TYPES)[number];

export const STANDING_INSTRUCTION_TYPES = ['UNSCHEDULED', 'INSTALMENT', 'RECURRING'] as const;
export const STANDING_INSTRUCTION_MODES = ['INITIAL', 'REPEATED'] as const;
export const STANDING_INSTRUCTION_SOURCES = ['CIT', 'MIT'] as const;
export const RECURRING_TYPES = ['SUBSCRIPTION', 'STANDING_ORDER'] as const;

export { CHALLENGE_WINDOW_VALUES, CHALLENGE_WINDOWS, challengeWindowOf, type ChallengeWindow, type ChallengeWindowValue };
// Existing callers import the Luhn check from here; it lives with the other card rules.
export { passesLuhn };

/**
 * EMV 3DS requestor challenge indicator: 01 no preference, 02 no challenge, 03 challenge
 * (requestor preference), 04 challenge (mandate), 05 no challenge (risk analysis done),
 * 06 no challenge (data share only), 07 no challenge (SCA already done), 08 no challenge
 * (trusted beneficiary exemption), 09 challenge (whitelist prompt); one digit names the same value.
 */
export const CHALLENGE_INDICATORS = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
] as const;
export type ChallengeIndicator = (typeof CHALLENGE_INDICATORS)[number];

/** Why a card number of the right digits and length is refused: the platform answers it as a refused transaction, `100.100.101`. */
export const INVALID_CARD_NUMBER = 'is not a valid card number (Luhn check failed)';

/** The platform's amount rule, and its parameter error message word for word. */
export const AMOUNT_PATTERN = /^[0-9]{1,12}(\.[0-9]{2})?$/;
export const AMOUNT_MESSAGE = `must match ${AMOUNT_PATTERN.source}`;
/**
 * An amount as the kit reads one back to compare it, in an answer or a merchant's expectation: the platform's
 * rule, with one decimal too (`50.0`), which names its cents as surely. Anything else (`1.005`, `+1.00`,
 * ` 1.00`) names no amount and matches none.
 */
export const READ_AMOUNT_PATTERN = /^[0-9]{1,12}(\.[0-9]{1,2})?$/;

/**
 * Every request field the API reference names, by its form name, with its format.
 * Custom parameters not listed here are free: any name of letters, digits,
 * `_ . -` and any printable value up to 2048 characters.
 */
export const FIELD_FORMATS: Readonly<Record<string, FieldFormat>> = {
  entityId: exactly('id', 'AN32', 32),
  amount: { code: 'N12(.N2)', kind: 'amount' },
  currency: exactly('alpha', 'A3', 3),
  paymentBrand: { code: 'brand (A..32)', kind: 'enum', values: PAYMENT_BRANDS },
  paymentType: oneOf('DB, PA, CP, CD, RF, RV', PAYMENT_TYPES),
  // Wider than the API reference's AN..255: the platform takes spaces and punctuation (see the table above).
  merchantTransactionId: upTo('text', 'ANS..255', 255),
  integrity: { code: 'boolean', kind: 'boolean' },
  testMode: oneOf('EXTERNAL, INTERNAL', TEST_MODES),
  createRegistration: { code: 'boolean', kind: 'boolean' },
  shopperResultUrl: upTo('url', 'URL', 2048),
  'merchant.city': upTo('text', 'ANS13', 13),
  // Beyond the API reference: the platform's merchant category code, which marks a winnings payout (7995).
  'merchant.mcc': exactly('digits', 'N4', 4),

  'card.number': { code: 'N12..19 (Luhn)', kind: 'cardNumber', min: 12, max: 19 },
  'card.holder': upTo('name', `AN..${CARD_HOLDER_MAX_LENGTH}`, CARD_HOLDER_MAX_LENGTH),
  'card.expiryMonth': { code: 'N2 (01-12)', kind: 'month' },
  'card.expiryYear': { code: 'N4', kind: 'year' },
  'card.cvv': { code: 'N3..4', kind: 'cvv', min: 3, max: 4 },

  'customer.givenName': upTo('name', 'AN..50', 50),
  'customer.surname': upTo('name', 'AN..50', 50),
  'customer.phone': upTo('text', 'ANS..25 (free text, as the platform takes it)', 25),
  'customer.mobile': upTo('text', 'ANS..25 (free text, as the platform takes it)', 25),
  'customer.email': upTo('email', 'e-mail (..128)', 128),
  'customer.ip': { code: 'IPv4 or IPv6', kind: 'ip' },
  'customer.merchantCustomerId': upTo('text', 'ANS..255', 255),
  'billing.street1': upTo('text', 'ANS..100', 100),
  'billing.city': upTo('text', 'ANS..80', 80),
  'billing.country': exactly('alpha', 'A2', 2),
  'billing.postcode': upTo('text', 'ANS..30', 30),

  'customer.browser.acceptHeader': upTo('text', 'ANS..2048', 2048),
  'customer.browser.screenColorDepth': upTo('digits', 'N..2', 2),
  'customer.browser.javaEnabled': { code: 'boolean', kind: 'boolean' },
  'customer.browser.language': upTo('text', 'ANS..8', 8),
  'customer.browser.screenHeight': upTo('digits', 'N..6', 6),
  'customer.browser.screenWidth': upTo('digits', 'N..6', 6),
  'customer.browser.timezone': upTo('text', 'ANS..5 (minutes from UTC)', 5),
  'customer.browser.challengeWindow': oneOf('1-5 or 01-05', CHALLENGE_WINDOW_VALUES),
  'customer.browser.userAgent': upTo('text', 'ANS..2048', 2048),

  'recipient.givenName': upTo('name', 'AN48', 48),
  'recipient.surname': upTo('name', 'AN48', 48),
  'recipient.state': upTo('text', 'ANS..3', 3),
  'recipient.country': exactly('alpha', 'A3', 3),
  'recipient.street': upTo('text', 'ANS..25', 25),
  'recipient.city': upTo('text', 'ANS..15', 15),
  'recipient.postcode': upTo('text', 'ANS..10', 10),
  'recipient.accountNumberType': oneOf('account number type', ACCOUNT_NUMBER_TYPES),
  'recipient.accountNumber': upTo('text', 'ANS..50', 50),
  'recipient.birthDate': { code: 'YYYY-MM-DD', kind: 'date' },
  'recipient.phone': upTo('text', 'ANS..25 (free text, as the platform takes it)', 25),

  'customParameters[TransactionTypeIdentifier]': oneOf('F or C code', [...FUNDING_TRANSACTION_TYPES, ...PAYOUT_TRANSACTION_TYPES]),
  'customParameters[DateOfFunds]': { code: 'YYMMDD', kind: 'yymmdd' },
  'customParameters[AdditionalTrace]': exactly('digits', 'N19', 19),
  'customParameters[CreditSenderName]': upTo('name', 'AN..30', 30),
  'customParameters[CreditSenderAddress]': upTo('senderAddress', 'AN..35 (Street|City|State|Country|Postcode)', 35),
  'customParameters[CreditSenderCity]': upTo('name', 'AN..25', 25),
  // AN3 for a state code: US and Canadian state codes have two letters, so the length is read as a maximum.
  'customParameters[CreditSenderState]': upTo('id', 'AN3', 3),
  'customParameters[CreditSenderCountry]': exactly('id', 'AN3', 3),

  'threeDSecure.challengeIndicator': oneOf('01-09 or 1-9', CHALLENGE_INDICATORS),
  'threeDSecure.eci': exactly('digits', 'N2', 2),
  'threeDSecure.authenticationStatus': oneOf('Y, N, U, A, C, D, R, I', ['Y', 'N', 'U', 'A', 'C', 'D', 'R', 'I']),
  'threeDSecure.version': {
    code: 'version (1.0.2, 2.1.0, 2.2.0, 2.3.1)',
    kind: 'enum',
    values: ['1.0.2', '2.1.0', '2.2.0', '2.3.0', '2.3.1'],
  },
  'threeDSecure.dsTransactionId': upTo('text', 'ANS..36', 36),
  'threeDSecure.acsTransactionId': upTo('text', 'ANS..36', 36),
  'threeDSecure.verificationId': upTo('text', 'ANS..255', 255),
  'threeDSecure.flow': oneOf('challenge, frictionless', ['challenge', 'frictionless']),

  'standingInstruction.type': oneOf('UNSCHEDULED, INSTALMENT, RECURRING', STANDING_INSTRUCTION_TYPES),
  'standingInstruction.mode': oneOf('INITIAL, REPEATED', STANDING_INSTRUCTION_MODES),
  'standingInstruction.source': oneOf('CIT, MIT', STANDING_INSTRUCTION_SOURCES),
  'standingInstruction.numberOfInstallments': upTo('digits', 'N..3', 3),
  'standingInstruction.expiry': { code: 'YYYY-MM-DD', kind: 'date' },
  'standingInstruction.frequency': exactly('digits', 'N4', 4),
  'standingInstruction.recurringType': oneOf('SUBSCRIPTION, STANDING_ORDER', RECURRING_TYPES),
  // Beyond the API reference (the platform's): a merchant-initiated repeat names the initial payment's CardholderInitiatedTransactionID.
  'standingInstruction.initialTransactionId': upTo('id', 'AN..64', 64),
};

const FREE_CUSTOM_PARAMETER = /^customParameters\[[A-Za-z0-9_.-]{1,100}\]$/;
const FREE_CUSTOM_VALUE: FieldFormat = upTo('text', 'ANS..2048', 2048);
/**
 * Beyond the API reference (the platform's one-click checkout): `registrations[0].id`,
 * `registrations[1].id`, … name the shopper's saved cards the widget offers.
 */
export const SAVED_CARD_PARAMETER = /^registrations\[([0-9]{1,2})\]\.id$/;
const SAVED_CARD_ID: FieldFormat = exactly('id', 'AN32', 32);

/** The format of a request field, or undefined when the API reference does not name it. */
export function formatOf(name: string): FieldFormat | undefined {
  return (
    // Own keys only: a parameter named `constructor` or `__proto__` is not a field the API reference names.
    (Object.hasOwn(FIELD_FORMATS, name) ? FIELD_FORMATS[name] : undefined) ??
    (FREE_CUSTOM_PARAMETER.test(name) ? FREE_CUSTOM_VALUE : SAVED_CARD_PARAMETER.test(name) ? SAVED_CARD_ID : undefined)
  );
}

/** The saved cards a one-click checkout's parameters name, in their order (`registrations[0].id` first). */
export function savedCardIdsOf(params: Readonly<Record<string, string>>): string[] {
  return Object.entries(params)
    .map(([name, value]) => [SAVED_CARD_PARAMETER.exec(name)?.[1], value] as const)
    .filter((entry): entry is readonly [string, string] => entry[0] !== undefined)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, value]) => value);
}

// Control characters are exactly what ANS text must not carry.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/u;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(value: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(value) || !value.includes(':')) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Checks a value's characters and shape for its kind; lengths are checked by the caller. */
function checkKind(format: FieldFormat, value: string): string | undefined {
  switch (format.kind) {
    case 'amount':
      return AMOUNT_PATTERN.test(value) ? undefined : AMOUNT_MESSAGE;
    case 'alpha':
      return /^[A-Z]+$/.test(value) ? undefined : 'must be upper-case letters A-Z';
    case 'id':
      return /^[A-Za-z0-9]+$/.test(value) ? undefined : 'must be letters and digits only';
    case 'name':
      return NAME_PATTERN.test(value) ? undefined : "must be letters, digits, spaces and - ' . , only";
    case 'text':
      return CONTROL_CHARACTERS.test(value) ? 'must not contain control characters' : undefined;
    case 'digits':
      return /^[0-9]+$/.test(value) ? undefined : 'must be digits only';
    case 'enum':
      return format.values?.includes(value) ? undefined : `must be one of ${format.values?.join(', ')}`;
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : 'must be true or false';
    case 'email':
      return EMAIL.test(value) ? undefined : 'must be an e-mail address';
    case 'ip':
      return IPV4.test(value) || isIpv6(value) ? undefined : 'must be an IPv4 or IPv6 address';
    case 'url': {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'must be an http or https URL';
      } catch {
        return 'must be an absolute URL';
      }
    }
    case 'date': {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      return match && isCalendarDate(+match[1]!, +match[2]!, +match[3]!) ? undefined : 'must be a date written YYYY-MM-DD';
    }
    case 'yymmdd': {
      const match = /^(\d{2})(\d{2})(\d{2})$/.exec(value);
      return match && isCalendarDate(2000 + +match[1]!, +match[2]!, +match[3]!) ? undefined : 'must be a date written YYMMDD';
    }
    case 'month':
      return /^(0[1-9]|1[0-2])$/.test(value) ? undefined : 'must be two digits 01 to 12';
    case 'year':
      return /^[0-9]{4}$/.test(value) ? undefined : 'must be four digits';
    case 'cardNumber':
      if (!/^[0-9]+$/.test(value)) return 'must be digits only';
      return passesLuhn(value) ? undefined : INVALID_CARD_NUMBER;
    case 'cvv':
      return /^[0-9]+$/.test(value) ? undefined : 'must be digits only';
    case 'senderAddress': {
      if (!/^[\p{L}\p{M}\p{N} '.,|/#-]+$/u.test(value)) return "must be letters, digits, spaces and - ' . , / # | only";
      const parts = value.split('|').length;
      return parts === 4 || parts === 5 ? undefined : 'must be Street|City|StateCode (US only)|Country|PostalCode';
    }
  }
}

/**
 * Why `value` does not fit the format of field `name`, or undefined when it fits
 * (or when the field is not one the API reference names).
 */
export function checkField(name: string, value: string): string | undefined {
  const format = formatOf(name);
  if (!format) return undefined;
  if (value.length === 0) return 'must not be empty';
  const length = [...value].length;
  if (format.min !== undefined && format.min === format.max && length !== format.min) {
    return `must be exactly ${format.min} characters (${format.code})`;
  }
  if (format.min !== undefined && length < format.min) return `must be at least ${format.min} characters (${format.code})`;
  if (format.max !== undefined && length > format.max) return `must be at most ${format.max} characters (${format.code})`;
  return checkKind(format, value);
}
