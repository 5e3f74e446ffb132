/**
 * Result codes in one place for the sandbox, the server helper and the
 * components: the shape of `result`, the codes the kit names with the
 * platform's descriptions, and their classification. Outcomes are decided by
 * `result.code`, never by HTTP status. The patterns are the platform's
 * published ones (newest version, which counts `000.400.110`, a frictionless
 * 3DS success, as approved), kept exactly as published, quirks included.
 */

/** One bad field of a `200.300.404` answer. The platform writes `"value": null` for a parameter that was not sent, and may leave `value` out. */
export interface AnsweredParameterError {
  readonly name: string;
  readonly value?: string | null;
  readonly message: string;
}

/** The `result` object of every answer, as the sandbox writes it and the server helper reads it. */
export interface GatewayResult {
  readonly code: string;
  readonly description: string;
  readonly avsResponse?: string;
  readonly cvvResponse?: string;
  readonly parameterErrors?: readonly AnsweredParameterError[];
}

/** A stable name for what a result code means to the merchant. */
export type ResultKind =
  | 'approved'
  | 'approved_review'
  | 'checkout_created'
  | 'pending'
  | 'pending_extended'
  | 'rejected_3ds'
  | 'declined'
  | 'uncertain'
  | 'system_error'
  | 'rejected_async'
  | 'soft_decline'
  | 'rejected_risk'
  | 'rejected_validation'
  | 'unauthorized'
  | 'forbidden'
  | 'throttled'
  | 'not_found'
  | 'chargeback'
  | 'unknown';

interface ResultGroup {
  readonly group: string;
  readonly pattern: RegExp;
  readonly kind: ResultKind;
}

/** The published groups, tried in this order. */
export const RESULT_GROUPS: readonly ResultGroup[] = [
  { group: 'approved', pattern: /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/, kind: 'approved' },
  { group: 'approved, needs manual review', pattern: /^(000\.400\.0[^3]|000\.400\.100)/, kind: 'approved_review' },
  { group: 'pending', pattern: /^(000\.200)/, kind: 'pending' },
  { group: 'pending, can change after days', pattern: /^(800\.400\.5|100\.400\.500)/, kind: 'pending_extended' },
  { group: 'rejected by 3DS or risk', pattern: /^(000\.400\.[1][0-9][1-9]|000\.400\.2)/, kind: 'rejected_3ds' },
  { group: 'rejected by the bank', pattern: /^(800\.[17]00|800\.800\.[123])/, kind: 'declined' },
  { group: 'communication error', pattern: /^(900\.[1234]00|000\.400\.030)/, kind: 'uncertain' },
  { group: 'system error', pattern: /^(800\.[56]|999\.|600\.1|800\.800\.[84])/, kind: 'system_error' },
  { group: 'asynchronous workflow', pattern: /^(100\.39[765])/, kind: 'rejected_async' },
  { group: 'soft decline', pattern: /^(300\.100\.100)/, kind: 'soft_decline' },
  { group: 'external risk', pattern: /^(100\.400\.[0-3]|100\.380\.100|100\.380\.11|100\.380\.4|100\.380\.5)/, kind: 'rejected_risk' },
  { group: 'address validation', pattern: /^(800\.400\.1)/, kind: 'rejected_validation' },
  { group: '3D Secure', pattern: /^(800\.400\.2|100\.390)/, kind: 'rejected_3ds' },
  { group: 'blacklist', pattern: /^(800\.[32])/, kind: 'rejected_risk' },
  { group: 'risk validation', pattern: /^(800\.1[123456]0)/, kind: 'rejected_risk' },
  { group: 'configuration validation', pattern: /^(600\.[23]|500\.[12]|800\.121)/, kind: 'rejected_validation' },
  { group: 'registration validation', pattern: /^(100\.[13]50)/, kind: 'rejected_validation' },
  { group: 'job validation', pattern: /^(100\.250|100\.360)/, kind: 'rejected_validation' },
  { group: 'reference validation', pattern: /^(700\.[1345][05]0)/, kind: 'rejected_validation' },
  { group: 'format validation', pattern: /^(200\.[123]|100\.[53][07]|800\.900|100\.[69]00\.500)/, kind: 'rejected_validation' },
  { group: 'address validation (2)', pattern: /^(100\.800)/, kind: 'rejected_validation' },
  { group: 'contact validation', pattern: /^(100\.700|100\.900\.[123467890][00-99])/, kind: 'rejected_validation' },
  { group: 'account validation', pattern: /^(100\.100|100.2[01])/, kind: 'rejected_validation' },
  { group: 'amount validation', pattern: /^(100\.55)/, kind: 'rejected_validation' },
  { group: 'risk management', pattern: /^(100\.380\.[23]|100\.380\.101)/, kind: 'rejected_risk' },
  { group: 'chargeback', pattern: /^(000\.100\.2)/, kind: 'chargeback' },
];

/**
 * Single codes whose meaning is more specific than their group's: the caller
 * acts differently on them (re-authenticate, slow down, stop looking).
 */
export const SPECIFIC_CODES: Readonly<Record<string, ResultKind>> = {
  '000.200.100': 'checkout_created',
  '800.900.300': 'unauthorized',
  '800.900.302': 'unauthorized',
  '800.900.301': 'forbidden',
  '800.120.100': 'throttled',
  '700.400.580': 'not_found',
  '700.100.100': 'not_found',
  '100.150.200': 'not_found',
  // A registration deleted before: gone, like one that never existed.
  '100.150.202': 'not_found',
};

/** Codes this kit uses by name. */
export const RESULT_CODES = {
  approved: '000.000.000',
  /** A report list's own result (the transactions carry theirs). */
  successfulRequest: '000.000.100',
  approvedIntegratorTest: '000.100.110',
  approvedConnectorTest: '000.100.112',
  frictionlessAuthenticated: '000.400.110',
  threeDsNotParticipating: '000.400.101',
  threeDsUserNotEnrolled: '000.400.102',
  threeDsNotEnrolled: '000.400.109',
  pending: '000.200.000',
  checkoutCreated: '000.200.100',
  invalidParameter: '200.300.404',
  invalidCard: '100.100.101',
  unauthorized: '800.900.300',
  forbidden: '800.900.301',
  throttled: '800.120.100',
  cannotCapture: '700.400.100',
  cannotRefund: '700.400.200',
  cannotReverse: '700.400.300',
  /** A capture that names no successful preauthorisation (an unknown id, say): a refused CP transaction. */
  captureWithoutPreauthorization: '700.400.510',
  /** A reversal that names no successful payment it could reverse: a refused RV transaction. */
  reversalWithoutPayment: '700.400.530',
  /** What the platform answers a refund of an unknown payment: a refused RF transaction, "invalid payment data". */
  invalidPaymentData: '600.200.500',
  referenceNotFound: '700.100.100',
  transactionNotFound: '700.400.580',
  registrationNotFound: '100.150.200',
  invalidRegistrationId: '100.150.101',
  registrationDeregistered: '100.150.202',
  timeoutUncertain: '900.100.300',
  declinedByAuthorization: '800.100.152',
  invalidCvv: '800.100.153',
  insufficientFunds: '800.100.155',
  expiredCard: '800.100.157',
  threeDsFailed: '100.380.401',
  threeDsTechnicalError: '100.390.112',
  cancelledByUser: '100.396.101',
  amountTooLow: '100.550.300',
  duplicateTransaction: '800.110.100',
  pendingTimedOut: '100.396.103',
  systemUnavailable: '800.800.800',
  /** The entity (channel) has no contract for the brand sent: a KSA merchant's MADA goes on its MADA entity. */
  brandNotConfigured: '600.200.201',
} as const;

/**
 * The platform's description of each code the kit names, word for word from its
 * published list (the JSON its `GET /v1/resultcodes` serves and its result-code
 * reference pages show). The copy used: an integrator's TypeScript transcription
 * of that JSON, grouped as the reference page groups it (public GitHub, 2024 or
 * later: it holds `000.400.110`, `000.200.201` and `800.100.192`), checked against
 * the platform's white-label reference pages; test/fixtures/published-result-descriptions.json
 * holds those entries and test/contract/result-codes.published.test.ts compares.
 * Recorded answers carry the same texts (test/fixtures/real).
 */
// Stryker disable StringLiteral: human-readable wording, checked against the published list by the contract tests, not a money rule.
export const RESULT_DESCRIPTIONS: Readonly<Record<(typeof RESULT_CODES)[keyof typeof RESULT_CODES], string>> = {
  '000.000.000': 'Transaction succeeded',
  '000.000.100': 'successful request',
  '000.100.110': "Request successfully processed in 'Merchant in Integrator Test Mode'",
  '000.100.112': "Request successfully processed in 'Merchant in Connector Test Mode'",
  '000.400.110': 'Authentication successful (frictionless flow)',
  '000.400.101': 'card not participating/authentication unavailable',
  '000.400.102': 'user not enrolled',
  '000.400.109': 'Card is not enrolled for 3DS version 2',
  '000.200.000': 'transaction pending',
  '000.200.100': 'successfully created checkout',
  '200.300.404': 'invalid or missing parameter',
  '100.100.101': 'invalid creditcard, bank account number or bank name',
  '800.900.300': 'invalid authentication information',
  '800.900.301': 'user authorization failed, user has no sufficient rights to process transaction',
  '800.120.100': 'Rejected by Throttling.',
  '700.400.100': 'cannot capture (PA value exceeded, PA reverted or invalid workflow?)',
  '700.400.200': 'cannot refund (refund volume exceeded or tx reversed or invalid workflow?)',
  '700.400.300': 'cannot reverse (already refunded|reversed, invalid workflow or amount exceeded)',
  '700.400.510': 'capture needs at least one successful transaction of type (PA)',
  '700.400.530': 'reversal needs at least one successful transaction of type (CP or DB or RB or PA)',
  '600.200.500': 'Invalid payment data. You are not configured for this currency or sub type (country or brand)',
  '700.100.100': 'reference id not existing',
  '700.400.580': 'cannot find transaction',
  '100.150.200': 'registration does not exist',
  '100.150.101': 'invalid format for specified registration id (must be uuid format)',
  '100.150.202': 'registration is already deregistered',
  '900.100.300': 'timeout, uncertain result',
  '800.100.152': 'transaction declined by authorization system',
  '800.100.153': 'transaction declined (invalid CVV)',
  '800.100.155': 'transaction declined (amount exceeds credit)',
  '800.100.157': 'transaction declined (wrong expiry date)',
  '100.380.401': 'User Authentication Failed',
  '100.390.112': 'Technical Error in 3D system',
  '100.396.101': 'Cancelled by user',
  '100.396.103': 'Previously pending transaction timed out',
  '800.800.800': 'The payment system is currenty unavailable, please contact support in case this happens again.',
  '100.550.300': 'request contains no amount or too low amount',
  '800.110.100': 'duplicate transaction',
  '600.200.201': 'Channel/Merchant not configured for this payment method',
};

/**
 * A refused token on `/v3/query` (the report endpoint) reads otherwise than on
 * `/v1/…`: the API reference quotes it, and the platform's report service answers it, for
 * the same code `800.900.300`.
 */
export const QUERY_UNAUTHORIZED_DESCRIPTION = 'user authorization failed';

/**
 * What a status read of an expired, consumed or unknown checkout answers
 * (`200.300.404`), word for word: the platform names the missing payment session.
 */
export const NO_PAYMENT_SESSION_DESCRIPTION =
  'invalid or missing parameter - (opp) No payment session found for the requested id - are you mixing test/live servers or have you paid more than 30min ago?';
// Stryker restore StringLiteral

/** The platform's description of a code the kit names, or undefined. */
export function describeResult(code: string): string | undefined {
  // Own keys only: a code spelled `constructor` or `__proto__` must not find the object's prototype.
  if (typeof code !== 'string' || !Object.hasOwn(RESULT_DESCRIPTIONS, code)) return undefined;
  return (RESULT_DESCRIPTIONS as Readonly<Record<string, string>>)[code];
}

/** What a result code means: a stable kind; `unknown` means reconcile, never assume failure. */
export function classifyResult(code: string): ResultKind {
  // A caller's non-string (an answer read without its types) is no code: reconcile, and never let its toString throw.
  if (typeof code !== 'string') return 'unknown';
  if (Object.hasOwn(SPECIFIC_CODES, code)) return SPECIFIC_CODES[code]!;
  for (const { pattern, kind } of RESULT_GROUPS) if (pattern.test(code)) return kind;
  return 'unknown';
}

/** The published group name a code falls in, or undefined. */
export function resultGroup(code: string): string | undefined {
  if (typeof code !== 'string') return undefined;
  return RESULT_GROUPS.find(({ pattern }) => pattern.test(code))?.group;
}

/** True only for codes that mean the money moved (or will, after review). */
export function isApproved(code: string): boolean {
  const kind = classifyResult(code);
  return kind === 'approved' || kind === 'approved_review';
}

/**
 * Kinds that refuse the payment itself (the bank, 3-D Secure, risk checks, a
 * soft decline, an asynchronous workflow): certainly nothing was charged, and
 * the shopper may try again, with another card or after authenticating.
 */
export const DECLINE_KINDS: ReadonlySet<ResultKind> = new Set([
  'declined',
  'rejected_3ds',
  'rejected_risk',
  'soft_decline',
  'rejected_async',
]);
