/**
 * What the merchant server tells its pages about a payment: the few fields a
 * shop shows, never the raw gateway answer. Shared by the server and the pages.
 */
import { classifyResult, type OutcomeKind, type Payment, type ResultKind } from 'gw-elements/server';
import type { PLAN } from './catalogue.js';

export interface PaymentView {
  readonly id: string;
  readonly paymentType: string;
  readonly amount: string;
  readonly currency: string;
  readonly brand: string;
  /** e.g. "VISA •••• 0000"; empty when the gateway gave no card. */
  readonly card: string;
  readonly merchantTransactionId: string;
  readonly referencedId: string;
  readonly resultCode: string;
  readonly resultDescription: string;
  readonly kind: ResultKind;
  readonly timestamp: string;
}

export function paymentView(payment: Payment): PaymentView {
  const last4 = payment.card?.last4Digits;
  return {
    id: payment.id,
    paymentType: payment.paymentType,
    amount: payment.amount ?? '',
    currency: payment.currency ?? '',
    brand: payment.paymentBrand ?? '',
    card: last4 ? `${payment.paymentBrand ?? 'card'} •••• ${last4}` : '',
    merchantTransactionId: payment.merchantTransactionId ?? '',
    referencedId: payment.referencedId ?? '',
    resultCode: payment.result.code,
    resultDescription: payment.result.description,
    kind: classifyResult(payment.result.code),
    timestamp: payment.timestamp ?? '',
  };
}

/** A line of the shop's cart, priced by the server. */
export interface OrderLineView {
  readonly sku: string;
  readonly name: string;
  readonly quantity: number;
  readonly amount: string;
}

export type OrderStatus = 'awaiting_payment' | 'paid' | 'expired';

export interface OrderView {
  readonly id: string;
  readonly lines: readonly OrderLineView[];
  readonly amount: string;
  readonly currency: string;
  readonly status: OrderStatus;
  readonly checkoutId: string;
  readonly integrity: string;
  /** When the checkout expires (epoch ms), for `<gw-checkout expires-at>`. */
  readonly checkoutExpiresAt: number;
  /** Each payment attempt read back from the gateway, oldest first (a decline, then an approval, ...). */
  readonly attempts: readonly PaymentView[];
  /** Second approved charges for the order, refunded (or reversed) because another payment paid it. */
  readonly refunds: readonly PaymentView[];
}

/**
 * What a page is told about a payment call: the server helper's own outcome
 * kinds (`outcomeOf`), plus `expired` for an order whose checkout outlived its
 * 30 minutes (the shop knows it was its checkout the gateway no longer found),
 * and `refunded` for an order paid once whose second charge (a late 3-D Secure
 * challenge on an old checkout, say) the shop refunded.
 */
export type ReturnOutcome = OutcomeKind | 'expired' | 'refunded';

/** A preauthorisation and what happened to it since. */
export interface ReservationView {
  readonly preauthorization: PaymentView;
  readonly captures: readonly PaymentView[];
  readonly refunds: readonly PaymentView[];
  readonly reversals: readonly PaymentView[];
  /** An approved reversal released the hold: nothing more can be captured. */
  readonly reversed: boolean;
  readonly capturedAmount: string;
  readonly remainingAmount: string;
  readonly refundedAmount: string;
  /** What may still be refunded of each approved capture, by its id: its amount less its approved refunds. */
  readonly refundable: Readonly<Record<string, string>>;
}

/** A card registered for payouts (a registration without a payment). */
export interface PayoutCardView {
  readonly registrationId: string;
  readonly card: string;
  readonly holder: string;
}

/** A shopper's card saved for one-click checkout: what the shop keeps to recognise it, never the card itself. */
export interface SavedCardView {
  readonly registrationId: string;
  readonly paymentBrand: string;
  readonly last4Digits: string;
  /** `MM/YYYY`, as the card shows it. */
  readonly expiry: string;
}

/** What a page needs to load a checkout into `<gw-checkout>`. */
export interface CheckoutView {
  /** As `<gw-checkout checkout-id>` takes it: a registration-only checkout's ends in `/registration`. */
  readonly checkoutId: string;
  readonly integrity: string;
  /** Epoch ms, for `<gw-checkout expires-at>`. */
  readonly expiresAt: number;
}

/** The answer to a payment call: the payment when the gateway gave one, and what it means for the shop. */
export interface PaymentAnswer {
  readonly outcome: ReturnOutcome;
  readonly message: string;
  readonly payment?: PaymentView;
  readonly retryAfterSeconds?: number;
  /** The gateway's code when it refused the request without a payment (e.g. `700.400.100` cannot capture). */
  readonly resultCode?: string;
}

export interface SubscriptionView {
  readonly id: string;
  readonly status: 'signing_up' | 'active' | 'cancelled' | 'failed';
  readonly plan: typeof PLAN;
  readonly card: string;
  readonly registrationId: string;
  /** The date (ISO, on the gateway's clock) the next monthly charge is due. */
  readonly nextChargeAt: string;
  /** Months of coffee fulfilled: one per approved payment, never more. */
  readonly monthsFulfilled: number;
  readonly payments: readonly PaymentView[];
}

/** A merchantTransactionId the shop used, for the transactions page. */
export interface ReferenceView {
  readonly merchantTransactionId: string;
  readonly label: string;
}
