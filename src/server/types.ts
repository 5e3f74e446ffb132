/**
 * Request and response types (the responses from the contract's answers), following the API reference's field tables and names.
 * Nested objects become the API reference's dotted names (`billing.city`) and
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
import type { Billing, Customer, Recipient } from '../contract/parties.js';
import type { WINNINGS_MERCHANT_CATEGORY } from '../contract/rules.js';

/** Up to 12 digits, optionally a dot and exactly 2 decimals, as a string (`"92.00"`); the platform's rule. Never a float. */
export type Amount = string;
/** A3, ISO 4217 (`"EUR"`). */
export type Currency = string;
export type {
  AccountNumberType,
  ChallengeIndicator,
  ChallengeWindow,
  ChallengeWindowValue,
  FundingTransactionType,
  PaymentBrand,
  PayoutTransactionType,
  TestMode,
};
export type { Billing, Browser, Customer, Recipient } from '../contract/parties.js';
// The answers live in the contract, where the sandbox builds them too; the helper's public types are the same.
export type {
  CheckoutCreated,
  Deregistration,
  GatewayResult,
  NameValue,
  Payment,
  PaymentList,
  Precondition,
  Redirect,
  Registration,
} from '../contract/api-answers.js';
import type { Registration } from '../contract/api-answers.js';

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

/** The standing instruction of a first, customer-initiated payment (the API reference's table): a saved card, instalments or a subscription. */
export type StandingInstruction =
  | { type: 'UNSCHEDULED'; mode?: 'INITIAL'; source?: 'CIT' }
  | { type: 'INSTALMENT'; mode?: 'INITIAL'; source?: 'CIT'; numberOfInstallments: number | string; expiry: string; frequency: string }
  | {
      type: 'RECURRING';
      mode?: 'INITIAL';
      source?: 'CIT';
      recurringType: 'SUBSCRIPTION' | 'STANDING_ORDER';
      expiry: string;
      frequency: string;
    };
export type StandingInstructionType = StandingInstruction['type'];

/**
 * A later, merchant-initiated payment on a registration (the platform's shape;
 * the API reference does not show it): the same type as the initial payment, and that
 * payment's `resultDetails.CardholderInitiatedTransactionID`, without which it
 * does not compile.
 */
export type RepeatedStandingInstruction = { type: StandingInstructionType; mode: 'REPEATED'; source: 'MIT'; initialTransactionId: string };

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

// Create checkout
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
  /**
   * One-click checkout (the platform's, beyond the API reference): the shopper's saved
   * cards, sent as `registrations[0].id`, `registrations[1].id`, …; the widget
   * offers them beside a new card.
   */
  registrations?: readonly { id: string }[];
}
export interface FundingCheckoutRequest extends Omit<CheckoutBase, keyof FundingFields>, FundingFields {}
/** A checkout whose widget takes a payment: read back with `checkouts.getPayment`. */
export type PaymentCheckoutRequest = PlainCheckoutRequest | FundingCheckoutRequest;

/**
 * A registration-only checkout (the platform's "registration tokens", beyond
 * the API reference): `createRegistration=true` and no `paymentType`, so its widget
 * saves a card and moves no money. Load its widget with
 * `checkoutId={id}/registration`; the shopper returns with
 * `resourcePath=/v1/checkouts/{id}/registration`, read with
 * `checkouts.getRegistration` or `handleShopperReturn(query, { expect: 'registration' })`.
 */
export interface RegistrationCheckoutRequest {
  createRegistration: true;
  paymentType?: never;
  amount?: never;
  /** Ask for the script's integrity hash. Default true. */
  integrity?: boolean;
  /** To save the card for one-click checkout: `{ type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' }`. */
  standingInstruction?: StandingInstruction;
  merchantTransactionId?: string;
  testMode?: TestMode;
  customer?: Customer;
  billing?: Billing;
  shopperResultUrl?: string;
  customParameters?: CustomParameters;
  programme?: undefined;
}
export type CheckoutRequest = PaymentCheckoutRequest | RegistrationCheckoutRequest;

/**
 * The card a registration-only checkout saved, as `GET
 * /v1/checkouts/{id}/registration` answers it: its `id` is the token (some
 * answers name it `registrationId` too), with the card's masked data.
 */
export type CheckoutRegistration = Registration & { readonly registrationId?: string; readonly paymentType?: string };

// Server-to-server payment (DB, PA)
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

// Credits and payouts (CD)
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

/** A debit against a registered card. */
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

// Capture, refund, reversal
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
