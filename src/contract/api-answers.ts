/**
 * The gateway's answers, as the platform writes them: a checkout created, a
 * payment, a registration, a deregistration, the list of payments of one
 * merchantTransactionId. The server helper returns them and the sandbox builds
 * them, both against these types, so a renamed field fails to compile on both
 * sides. The client reads tolerantly: what the platform may leave out is
 * optional here. Types only: nothing here reaches a bundle.
 */
import type { Billing, Customer, Recipient } from './parties.js';
import type { RedirectParameter, RedirectPrecondition, ThreeDsRedirect } from './redirect.js';
import type { GatewayResult } from './result-codes.js';

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

/** The list of payments carrying one merchantTransactionId. */
export interface PaymentList {
  readonly result: GatewayResult;
  readonly payments: readonly Payment[];
}
