/**
 * What the sandbox's widget endpoints answer the widget it serves: the wire
 * between two products (src/sandbox writes it, src/widget reads it), so a
 * renamed field fails to compile on both sides.
 */

/** `GET /v1/checkouts/{id}/widget` */
export interface CheckoutAnswer {
  readonly result?: { readonly code?: string };
  /** The gateway's clock: `YYYY-MM-DD hh:mm:ss.SSS+0000`. */
  readonly timestamp?: string;
  readonly checkout?:
    | {
        readonly id: string;
        readonly amount: string;
        readonly currency: string;
        readonly paymentType: string;
        readonly paymentBrand?: string;
        /** ISO time. */
        readonly expiresAt: string;
        readonly registration?: undefined;
        /** A one-click checkout's saved cards (`registrations[n].id`), still registered. */
        readonly registrations?: readonly SavedCardAnswer[];
        /** The brands the checkout's entity has a contract for, when it names them: the widget offers no other. */
        readonly brands?: readonly string[];
      }
    | {
        /** A registration-only checkout: its form saves a card and takes no payment. */
        readonly registration: true;
        readonly id: string;
        readonly expiresAt: string;
        readonly registrations?: undefined;
      };
}

/** A saved card as the widget shows it: brand, last 4 digits and expiry. */
export interface SavedCardAnswer {
  readonly id: string;
  readonly paymentBrand: string;
  readonly last4Digits: string;
  readonly expiryMonth: string;
  readonly expiryYear: string;
}

/** `POST /v1/checkouts/{id}/widget/payments`, and `widget/registration` (its `id` is then the saved card's) */
export interface PaymentAnswer {
  readonly result?: { readonly code?: string; readonly parameterErrors?: readonly { readonly name: string }[] };
  readonly id?: string;
  /** The 3-D Secure steps of a pending payment, checked before anything is posted. */
  readonly redirect?: unknown;
}
