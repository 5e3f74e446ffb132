/**
 * Which fields each request variant of the API reference must carry, checked on the
 * flat form parameters exactly as they go over the wire. The sandbox answers
 * with these errors; the server helper raises them before sending anything.
 */
import { CARD_BRANDS, isCardExpired } from './card.js';
import { checkField, formatOf, FUNDING_TRANSACTION_TYPES, PAYOUT_TRANSACTION_TYPES } from './formats.js';
import { maskParameter } from './redaction.js';

// Masking moved to redaction.ts (shared by the client and the sandbox); kept importable from here for existing callers.
export { maskParameter };

/** One bad field, in the gateway's own `parameterErrors` shape. */
export interface ParameterError {
  readonly name: string;
  /** The value as sent, masked for card numbers and security codes; `null` when it was not sent, as the platform writes a missing parameter. */
  readonly value: string | null;
  readonly message: string;
}

/**
 * The request bodies of the gateway's API, by endpoint: POST /v1/checkouts;
 * POST /v1/payments; POST /v1/payments/{id} (capture, refund, reversal);
 * POST /v1/registrations/{id}/payments; POST /v1/registrations (a card
 * stored without a payment, the platform's); the status reads and reports: GET with entityId.
 */
export const OPERATIONS = ['checkout', 'payment', 'reference', 'registrationPayment', 'registration', 'read'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The payout and funding programmes whose mandatory fields differ. */
export type Variant = 'plain' | 'basicCredit' | 'accountFunding' | 'originalCreditTransfer' | 'winningsPayout' | 'sendPayout';

export const WINNINGS_MERCHANT_CATEGORY = '7995';

const RECIPIENT = ['recipient.givenName', 'recipient.surname', 'recipient.accountNumberType', 'recipient.accountNumber'];
const CREDIT_SENDER = [
  'customParameters[CreditSenderName]',
  'customParameters[CreditSenderAddress]',
  'customParameters[CreditSenderCity]',
  'customParameters[CreditSenderState]',
  'customParameters[CreditSenderCountry]',
];
const PROGRAMME = ['customParameters[TransactionTypeIdentifier]', 'customParameters[DateOfFunds]', 'customParameters[AdditionalTrace]'];
const CARD = ['paymentBrand', 'card.number', 'card.expiryMonth', 'card.expiryYear'];
const BILLING = ['billing.street1', 'billing.city', 'billing.country', 'billing.postcode'];
const NORTH_AMERICA = new Set(['USA', 'CAN']);

const hasAny = (params: Params, prefix: string) => Object.keys(params).some((name) => name.startsWith(prefix));

type Params = Readonly<Record<string, string>>;

/** Which programme a request belongs to, read from what it carries. */
export function variantOf(operation: Operation, params: Params): Variant {
  const type = params.paymentType;
  const fundingData = hasAny(params, 'recipient.') || params['customParameters[CreditSenderName]'] !== undefined;
  if (type === 'CD' && (operation === 'payment' || operation === 'registrationPayment')) {
    if (params['merchant.mcc'] === WINNINGS_MERCHANT_CATEGORY) return 'winningsPayout';
    if (!fundingData) return 'basicCredit';
    return params.paymentBrand === 'MASTER' ? 'sendPayout' : 'originalCreditTransfer';
  }
  if ((type === 'DB' || type === 'PA') && operation !== 'reference' && operation !== 'read') {
    const code = params['customParameters[TransactionTypeIdentifier]'];
    if (fundingData || (code !== undefined && code.startsWith('F'))) return 'accountFunding';
  }
  return 'plain';
}

/** What the caller knows beyond the parameters themselves. */
export interface ValidationContext {
  /**
   * The gateway's own 3DS step will run for this payment (an enrolled card),
   * so the shopper needs a result URL and the issuer billing data.
   */
  readonly threeDSecure?: boolean;
}

/**
 * A registration-only checkout (the platform's "registration tokens"): created
 * with `createRegistration=true` and no `paymentType`, its widget saves a card
 * and moves no money, so it has no amount either.
 */
export const isRegistrationCheckout = (params: Params): boolean => params.createRegistration === 'true' && params.paymentType === undefined;

/** The fields a request must carry, given its operation, variant and what it already holds. */
export function requiredFields(operation: Operation, params: Params, context: ValidationContext = {}): string[] {
  const required = ['entityId'];
  if (operation === 'read') return required;
  if (operation === 'registration') return [...required, ...CARD, ...standingInstructionFields(params)];
  // `integrity` is optional on a checkout, though the API reference marks it mandatory: production accepts a checkout without it (formats.ts).
  if (operation === 'checkout' && isRegistrationCheckout(params)) return [...required, ...standingInstructionFields(params)];
  required.push('paymentType', ...standingInstructionFields(params));
  const type = params.paymentType;
  // A reversal of a payment carries no amount; anywhere else a reversal is no type the endpoint takes, and the
  // platform still asks for the amount (recorded: RV sent to /v1/payments lacks `amount` and `currency`).
  if (type !== 'RV' || operation !== 'reference') required.push('amount', 'currency');
  if (operation === 'payment') {
    required.push(...CARD);
    if (type === 'DB' || type === 'PA') required.push('card.holder', 'card.cvv', 'customer.email', 'customer.ip');
  }
  // The gateway's 3DS step needs somewhere to send the shopper back to, and billing data for the issuer.
  const enrolled =
    context.threeDSecure === true ||
    params['customParameters[3DS2_enrolled]'] === 'true' ||
    params['customParameters[3DS_enrolled]'] === 'true';
  if (operation === 'payment' && enrolled) required.push('shopperResultUrl', ...BILLING);
  if (operation === 'payment' && params.shopperResultUrl !== undefined) required.push(...BILLING);

  const variant = variantOf(operation, params);
  if (variant === 'plain' || variant === 'basicCredit') return required;
  required.push('merchant.city', ...RECIPIENT, ...CREDIT_SENDER);
  const northAmerica = NORTH_AMERICA.has(params['recipient.country'] ?? '');
  if (northAmerica) required.push('recipient.state', 'recipient.country');
  if (variant === 'accountFunding') {
    required.push('customParameters[TransactionTypeIdentifier]');
    if (northAmerica) required.push('recipient.street', 'recipient.city', 'recipient.postcode');
  }
  if (variant === 'sendPayout') required.push(...PROGRAMME);
  if (variant === 'winningsPayout') {
    required.push(...PROGRAMME, 'customer.givenName', 'customer.surname');
    if (params['customer.phone'] === undefined) required.push('customer.mobile');
  }
  if (operation === 'registrationPayment' && variant !== 'accountFunding') required.push('paymentBrand');
  return required;
}

/**
 * The API reference's standing-instruction rules: an initial instalment or subscription
 * carries its plan. And the platform's: a merchant-initiated repeat names its
 * type and the initial payment's CardholderInitiatedTransactionID.
 */
function standingInstructionFields(params: Params): string[] {
  const mode = params['standingInstruction.mode'];
  if (mode === 'REPEATED' || params['standingInstruction.source'] === 'MIT')
    return ['standingInstruction.type', 'standingInstruction.initialTransactionId'];
  if (mode !== 'INITIAL') return [];
  const type = params['standingInstruction.type'];
  if (type === 'INSTALMENT')
    return ['standingInstruction.numberOfInstallments', 'standingInstruction.expiry', 'standingInstruction.frequency'];
  if (type === 'RECURRING') return ['standingInstruction.recurringType', 'standingInstruction.expiry', 'standingInstruction.frequency'];
  return [];
}

/** Why a standing instruction's mode and source contradict each other (or the endpoint), or undefined. */
function checkStandingInstruction(operation: Operation, params: Params): ParameterError | undefined {
  const mode = params['standingInstruction.mode'];
  const source = params['standingInstruction.source'];
  const value = `${mode ?? ''}/${source ?? ''}`;
  if ((mode === 'REPEATED' && source === 'CIT') || (mode === 'INITIAL' && source === 'MIT')) {
    return { name: 'standingInstruction.source', value: source, message: 'must be CIT with mode INITIAL, MIT with mode REPEATED' };
  }
  const repeated = mode === 'REPEATED' || source === 'MIT';
  if (repeated && (operation === 'checkout' || operation === 'registration')) {
    return {
      name: 'standingInstruction.mode',
      value,
      message: 'a merchant-initiated repeat is a payment on a registration, never a checkout or a new registration',
    };
  }
  return undefined;
}

const ALLOWED_PAYMENT_TYPES: Record<Exclude<Operation, 'read' | 'registration'>, readonly string[]> = {
  checkout: ['DB', 'PA'],
  payment: ['PA', 'DB', 'CD'],
  reference: ['CP', 'RF', 'RV'],
  registrationPayment: ['DB', 'PA', 'CD'],
};

/** Card number prefixes (IIN ranges) of the brands whose numbers can be told apart. */
const BRAND_PREFIXES: Readonly<Record<string, RegExp>> = {
  VISA: CARD_BRANDS.VISA.prefix,
  VISADEBIT: CARD_BRANDS.VISA.prefix,
  VISAELECTRON: CARD_BRANDS.VISA.prefix,
  MASTER: CARD_BRANDS.MASTER.prefix,
  AMEX: CARD_BRANDS.AMEX.prefix,
};

/**
 * The brands a card number's prefix says it belongs to, most general first
 * (`['VISA', 'VISADEBIT', 'VISAELECTRON']` for a 4…), or `[]` when its prefix
 * names none of the brands told apart here.
 */
export function brandsOfCardNumber(number: string): string[] {
  return Object.entries(BRAND_PREFIXES)
    .filter(([, prefix]) => prefix.test(number))
    .map(([brand]) => brand);
}

/** Why a card number cannot belong to the brand sent with it, or undefined. */
function checkBrand(brand: string | undefined, number: string | undefined): string | undefined {
  // Own keys only: a brand sent as `constructor` or `__proto__` names no prefix.
  const prefix = brand !== undefined && Object.hasOwn(BRAND_PREFIXES, brand) ? BRAND_PREFIXES[brand] : undefined;
  if (!prefix || number === undefined || !/^[0-9]{6,}$/.test(number) || prefix.test(number)) return undefined;
  return `does not match the card number: it is not a ${brand} number`;
}

const isCardField = (name: string) => name.startsWith('card.');

/** Cross-field rules that no single format can express. */
function checkCombination(operation: Operation, params: Params, now: Date): ParameterError[] {
  const errors: ParameterError[] = [];
  const type = params.paymentType;
  if (operation === 'registration' && type !== undefined) {
    errors.push({ name: 'paymentType', value: type, message: 'has no place here: storing a card moves no money' });
  } else if (
    operation !== 'read' &&
    operation !== 'registration' &&
    type !== undefined &&
    !ALLOWED_PAYMENT_TYPES[operation].includes(type)
  ) {
    errors.push({
      name: 'paymentType',
      value: type,
      // The platform's form of the message (recorded: `must be one of [PA, DB, CD, PA.CP]`), with the types this endpoint takes here.
      message: `must be one of [${ALLOWED_PAYMENT_TYPES[operation].join(', ')}]`,
    });
  }
  const instructionProblem = checkStandingInstruction(operation, params);
  if (instructionProblem) errors.push(instructionProblem);
  const code = params['customParameters[TransactionTypeIdentifier]'];
  if (code !== undefined) {
    const variant = variantOf(operation, params);
    const expected: readonly string[] | undefined =
      variant === 'accountFunding'
        ? FUNDING_TRANSACTION_TYPES
        : variant === 'sendPayout' || variant === 'winningsPayout'
          ? PAYOUT_TRANSACTION_TYPES
          : undefined;
    if (expected && !expected.includes(code)) {
      errors.push({
        name: 'customParameters[TransactionTypeIdentifier]',
        value: code,
        message: `must be one of ${expected.join(', ')} for this programme`,
      });
    }
  }
  const brandProblem = checkBrand(params.paymentBrand, params['card.number']);
  if (brandProblem) errors.push({ name: 'paymentBrand', value: params.paymentBrand ?? '', message: brandProblem });
  const month = params['card.expiryMonth'];
  const year = params['card.expiryYear'];
  if (month && year && /^\d{2}$/.test(month) && /^\d{4}$/.test(year)) {
    if (isCardExpired(+month, +year, now)) errors.push({ name: 'card.expiryYear', value: year, message: 'card has expired' });
  }
  return errors;
}

/**
 * Every problem with a request's flat form parameters: each missing mandatory
 * field, each value that does not fit its format, and each broken cross-field
 * rule. An empty array means the request may be sent.
 */
export function validateParameters(
  operation: Operation,
  params: Params,
  now: Date = new Date(),
  context: ValidationContext = {},
): ParameterError[] {
  // Total on any input: what is not a form is refused as a parameter error, like any other.
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return [{ name: 'parameters', value: null, message: 'must be an object of form fields' }];
  if (!(OPERATIONS as readonly unknown[]).includes(operation))
    return [{ name: 'operation', value: null, message: `must be one of ${OPERATIONS.join(', ')}` }];
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) now = new Date();
  if (typeof context !== 'object' || context === null) context = {};
  const errors: ParameterError[] = [];
  const missing = [...new Set(requiredFields(operation, params, context))].filter(
    (name) => params[name] === undefined || params[name] === '',
  );
  // A payment with none of its card's fields and no brand: the platform names it once, on the brand (as recorded),
  // instead of each field. A card sent in part is told field by field.
  const cardless = missing.includes('paymentBrand') && missing.some(isCardField) && !Object.keys(params).some(isCardField);
  for (const name of missing) {
    if (cardless && (name === 'paymentBrand' || isCardField(name))) continue;
    // The platform's words for a missing value (recorded for amount and currency).
    errors.push({ name, value: null, message: 'may not be empty' });
  }
  if (cardless) errors.push({ name: 'paymentBrand', value: null, message: 'card properties must be set' });
  for (const [name, value] of Object.entries(params)) {
    if (value === '' || !formatOf(name)) continue;
    // A type the endpoint does not take is told once, in the platform's words, by checkCombination (recorded: one entry).
    if (name === 'paymentType' && operation !== 'read' && typeof value === 'string') continue;
    // A form carries text only: a nested or typeless value (an unflattened request, untyped code) is a field error, never a TypeError.
    if (typeof value !== 'string') {
      errors.push({ name, value: null, message: 'must be text (a form field)' });
      continue;
    }
    const problem = checkField(name, value);
    if (problem) errors.push({ name, value: maskParameter(name, value), message: problem });
  }
  errors.push(...checkCombination(operation, params, now));
  return errors;
}
