/**
 * Request and response types, following the seed's field tables and names.
 * Nested objects become the seed's dotted names (`billing.city`) and
 * `customParameters` its bracketed ones (`customParameters[DateOfFunds]`).
 * Programmes with different mandatory fields are separate types in a union
 * discriminated by `programme`, so a payout missing a mandatory field does not
 * compile; the shared contract checks the same rules again at run time.
 */
import type {
  AccountNumberType,
  ChallengeIndicator,
  ChallengeWindow,
  ChallengeWindowValue,
  FundingTransactionType,
  PaymentBrand,
  PayoutTransactionType,
  TestMode,
} from '../contract/formats.js';
import type { RedirectParameter, RedirectPrecondition, ThreeDsRedirect } from '../contract/redirect.js';
import type { GatewayResult } from '../contract/result-codes.js';
import type { WINNINGS_MERCHANT_CATEGORY } from '../contract/rules.js';

/** Up to 12 digits, optionally a dot and exactly 2 decimals, as a string (`"92.00"`); the platform's rule. Never a float. */
export type Amount = string;
/** A3, ISO 4217 (`"EUR"`). */
export type Currency = string;
export type { AccountNumberType, ChallengeIndicator, ChallengeWindow, ChallengeWindowValue, FundingTransactionType, PaymentBrand, PayoutTransactionType, TestMode };

/** Free custom parameters: sent as `customParameters[name]`, echoed in the payment response. */
export type CustomParameters = Readonly<Record<string, string>>;

export interface CardDetails {
  number: string;
  holder?: string;
  /** Two digits, `"01"` to `"12"`. */
  expiryMonth: string;
  /** Four digits. */
  expiryYear: string;
  cvv?: string;
}

export interface Browser {
  acceptHeader?: string;
  screenColorDepth?: number | string;
  javaEnabled?: boolean;
  language?: string;
  screenHeight?: number | string;
  screenWidth?: number | string;
  /** Minutes from UTC, as the browser's `getTimezoneOffset()` gives them. */
  timezone?: number | string;
  /** `1`–`5` or `01`–`05`: the same five sizes. */
  challengeWindow?: ChallengeWindowValue;
  userAgent?: string;
}

export interface Customer {
  givenName?: string;
  surname?: string;
  phone?: string;
  mobile?: string;
  email?: string;
  ip?: string;
  merchantCustomerId?: string;
  browser?: Browser;
}

export interface Billing {
  street1: string;
  city: string;
  /** Two-letter country code. */
  country: string;
  postcode: string;
}

/** Results of a 3-D Secure verification done by the merchant's own MPI, or the challenge indicator. */
export interface ThreeDSecureRequest {
  challengeIndicator?: ChallengeIndicator;
  eci?: string;
  authenticationStatus?: 'Y' | 'N' | 'U' | 'A' | 'C' | 'D' | 'R' | 'I';
  version?: string;
  dsTransactionId?: string;
  acsTransactionId?: string;
  verificationId?: string;
  flow?: 'challenge' | 'frictionless';
}

/** The standing instruction of a first, customer-initiated payment (the seed's table): a saved card, instalments or a subscription. */
export type StandingInstruction =
  | { type: 'UNSCHEDULED'; mode?: 'INITIAL'; source?: 'CIT' }
  | { type: 'INSTALMENT'; mode?: 'INITIAL'; source?: 'CIT'; numberOfInstallments: number | string; expiry: string; frequency: string }
  | { type: 'RECURRING'; mode?: 'INITIAL'; source?: 'CIT'; recurringType: 'SUBSCRIPTION' | 'STANDING_ORDER'; expiry: string; frequency: string };
export type StandingInstructionType = StandingInstruction['type'];

/**
 * A later, merchant-initiated payment on a registration (the platform's shape;
 * the seed does not show it): the same type as the initial payment, and that
 * payment's `resultDetails.CardholderInitiatedTransactionID`, without which it
 * does not compile.
 */
export type RepeatedStandingInstruction = { type: StandingInstructionType; mode: 'REPEATED'; source: 'MIT'; initialTransactionId: string };

/** Recipient of funding or a payout. For the US and Canada (`USA`, `CAN`) `state` and `country` are mandatory (checked at run time). */
export interface Recipient {
  givenName: string;
  surname: string;
  accountNumberType: AccountNumberType;
  accountNumber: string;
  state?: string;
  /** A3 country code (`USA`, `CAN`, `DEU`). */
  country?: string;
  street?: string;
  city?: string;
  postcode?: string;
  /** Year-month-day. */
  birthDate?: string;
  phone?: string;
}

/** The credit-sender custom parameters every funding and payout programme carries. */
export type CreditSender = {
  CreditSenderName: string;
  /** `Street|City|StateCode (US only)|Country|PostalCode`, at most 35 characters. */
  CreditSenderAddress: string;
  CreditSenderCity: string;
  CreditSenderState: string;
  CreditSenderCountry: string;
};

/** Fields common to payments and checkout creation. */
interface Common {
  amount: Amount;
  currency: Currency;
  /** Recommended unique per transaction. Generated (a UUID) for payments when absent, because it is how an uncertain outcome is looked up. */
  merchantTransactionId?: string;
  /** Overrides the client's `testMode` for this request. */
  testMode?: TestMode;
  customParameters?: CustomParameters;
}

/** The gateway's 3DS step needs a return address and billing data for the issuer; without `shopperResultUrl`, billing is optional. */
type ThreeDsReturn = { shopperResultUrl: string; billing: Billing } | { shopperResultUrl?: undefined; billing?: Billing };

interface FundingFields {
  programme: 'accountFunding';
  merchant: { city: string };
  recipient: Recipient;
  customParameters: CreditSender & { TransactionTypeIdentifier: FundingTransactionType } & CustomParameters;
  /** `challengeIndicator` is required in the UK and EEA for funding (recommended `04`). */
  threeDSecure?: ThreeDSecureRequest;
}

// 1. Create checkout
interface CheckoutBase extends Common {
  paymentType: 'DB' | 'PA';
  paymentBrand?: PaymentBrand;
  /** Ask for the script's integrity hash. Default true. */
  integrity?: boolean;
  createRegistration?: boolean;
  standingInstruction?: StandingInstruction;
  customer?: Customer;
  billing?: Billing;
  threeDSecure?: ThreeDSecureRequest;
  shopperResultUrl?: string;
}
export interface PlainCheckoutRequest extends CheckoutBase {
  programme?: undefined;
}
export interface FundingCheckoutRequest extends Omit<CheckoutBase, keyof FundingFields>, FundingFields {}
export type CheckoutRequest = PlainCheckoutRequest | FundingCheckoutRequest;

// 4. Server-to-server payment (DB, PA)
type CardPaymentBase = Common & {
  paymentType: 'DB' | 'PA';
  paymentBrand: PaymentBrand;
  card: CardDetails & { holder: string; cvv: string };
  /** `email` and `ip` are mandatory in server-to-server payments. */
  customer: Customer & { email: string; ip: string };
  threeDSecure?: ThreeDSecureRequest;
  standingInstruction?: StandingInstruction;
  createRegistration?: boolean;
} & ThreeDsReturn;
export type CardPaymentRequest = CardPaymentBase & { programme?: undefined };
export type FundingPaymentRequest = Omit<CardPaymentBase, keyof FundingFields> & FundingFields & ThreeDsReturn;
export type PaymentRequest = CardPaymentRequest | FundingPaymentRequest;

// 4. and 7. Credits and payouts (CD)
interface CreditBase extends Common {
  paymentType: 'CD';
}
interface PayoutFields extends CreditBase {
  merchant: { city: string; mcc?: string };
  recipient: Recipient;
}
type ProgrammeParameters = CreditSender & {
  TransactionTypeIdentifier: PayoutTransactionType;
  /** YYMMDD. */
  DateOfFunds: string;
  /** N19, unique per transaction. */
  AdditionalTrace: string;
} & CustomParameters;

/** A plain credit to a card: the common fields (and the card, when not against a registration) only. */
export interface BasicCredit extends CreditBase {
  programme: 'basicCredit';
  paymentBrand?: PaymentBrand;
}
/** An original credit transfer (VISA). */
export interface OriginalCreditTransfer extends PayoutFields {
  programme: 'originalCreditTransfer';
  paymentBrand: 'VISA';
  customParameters: CreditSender & { TransactionTypeIdentifier?: PayoutTransactionType } & CustomParameters;
}
/** A winnings payout by a merchant of category 7995: programme parameters and the customer's names and phone. */
export interface WinningsPayout extends PayoutFields {
  programme: 'winningsPayout';
  paymentBrand: PaymentBrand;
  merchant: { city: string; mcc: typeof WINNINGS_MERCHANT_CATEGORY };
  customer: Customer & { givenName: string; surname: string } & ({ phone: string } | { mobile: string });
  customParameters: ProgrammeParameters;
}
/** A send payout (MASTER). */
export interface SendPayout extends PayoutFields {
  programme: 'sendPayout';
  paymentBrand: 'MASTER';
  customParameters: ProgrammeParameters;
}
/** Every credit programme, without the card (as sent against a registration). */
export type Payout = BasicCredit | OriginalCreditTransfer | WinningsPayout | SendPayout;
/** A credit or payout to a card given by its details (endpoint 4). */
export type CardPayout = WithCard<Payout>;
type WithCard<P> = P extends unknown ? P & { card: CardDetails; paymentBrand: PaymentBrand } : never;

/** 7. A debit against a registered card. */
export interface RegistrationDebit extends Common {
  paymentType: 'DB' | 'PA';
  programme?: undefined;
  standingInstruction?: StandingInstruction | RepeatedStandingInstruction;
  paymentBrand?: PaymentBrand;
  customer?: Customer;
}
export type RegistrationPaymentRequest = RegistrationDebit | Payout;

/** `POST /v1/registrations` (the platform's): a card stored without a payment, optionally with the standing instruction it is for. */
export interface RegistrationRequest {
  paymentBrand: PaymentBrand;
  card: CardDetails;
  standingInstruction?: StandingInstruction;
  testMode?: TestMode;
  customParameters?: CustomParameters;
}

// 6. Capture, refund, reversal
export interface CaptureRequest {
  /** Full or partial: not above the PA's amount. */
  amount: Amount;
  currency: Currency;
  merchantTransactionId?: string;
  testMode?: TestMode;
}
export type RefundRequest = CaptureRequest;
export interface ReversalRequest {
  merchantTransactionId?: string;
  testMode?: TestMode;
}

// Responses
/** A `{name, value}` pair of a redirect, as the gateway writes it. */
export type NameValue = RedirectParameter;

export type { GatewayResult };

export interface CheckoutCreated {
  readonly result: GatewayResult;
  readonly id: string;
  /** The `sha384-…` hash for the widget script's `integrity` attribute. */
  readonly integrity?: string;
  readonly buildNumber?: string;
  readonly timestamp?: string;
  readonly ndc?: string;
}

export type Precondition = RedirectPrecondition;

/** What `<gw-3ds-handler>` needs to run the gateway's 3DS step. */
export type Redirect = ThreeDsRedirect;

/** The payment response (all values are strings). */
export interface Payment {
  readonly id: string;
  readonly referencedId?: string;
  readonly processingEntityId?: string;
  readonly paymentType: string;
  readonly paymentBrand?: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly descriptor?: string;
  readonly merchantTransactionId?: string;
  readonly result: GatewayResult;
  readonly resultDetails?: Readonly<Record<string, string>>;
  readonly card?: Readonly<{
    bin?: string;
    binCountry?: string;
    last4Digits?: string;
    holder?: string;
    expiryMonth?: string;
    expiryYear?: string;
    type?: string;
    country?: string;
    issuer?: Readonly<{ bank?: string; website?: string; phone?: string }>;
  }>;
  readonly customer?: Readonly<Omit<Customer, 'browser'> & { browser?: Readonly<Record<string, string>> }>;
  readonly billing?: Readonly<Partial<Billing>>;
  readonly threeDSecure?: Readonly<Record<string, string>>;
  readonly customParameters?: Readonly<Record<string, string>>;
  readonly recipient?: Readonly<Partial<Recipient>>;
  readonly standingInstruction?: Readonly<Record<string, string>>;
  readonly risk?: Readonly<{ score?: string }>;
  /** Present when the payment saved the card (`createRegistration=true`). */
  readonly registrationId?: string;
  /** Present while 3DS is pending (`000.200.000`). */
  readonly redirect?: Redirect;
  readonly buildNumber?: string;
  readonly timestamp?: string;
  /** On a checkout's payment: the checkout id. */
  readonly ndc?: string;
}

/** A stored card, as `registrations.create` answers it and a REGISTRATION notification carries it: masked card data only. */
export interface Registration {
  /** The registrationId: 32 lower-case hex. */
  readonly id: string;
  readonly result: GatewayResult;
  readonly paymentBrand?: string;
  readonly card?: Payment['card'];
  readonly standingInstruction?: Readonly<Record<string, string>>;
  readonly buildNumber?: string;
  readonly timestamp?: string;
  readonly ndc?: string;
}

/** The answer to `registrations.delete`. */
export interface Deregistration {
  readonly id: string;
  readonly result: GatewayResult;
  readonly buildNumber?: string;
  readonly timestamp?: string;
  readonly ndc?: string;
}

/** 9. The list of payments carrying one merchantTransactionId. */
export interface PaymentList {
  readonly result: GatewayResult;
  readonly payments: readonly Payment[];
}
