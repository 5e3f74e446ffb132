/**
 * What the sandbox's widget endpoints answer, and what the widget does after a
 * card submission. The result-code classification is the contract's.
 */
import { classifyResult, DECLINE_KINDS, RESULT_CODES, type ResultKind } from '../../contract/result-codes.js';

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

/**
 * After a decline (`DECLINE_KINDS`: nothing was charged) or refused card data
 * the shopper stays on the form and may try again. Every other kind (approved,
 * pending, uncertain, system error, unknown) goes to the shop's result page,
 * whose server reads the outcome, so a payment that may have gone through is
 * never offered twice.
 */
export const staysOnForm = (kind: ResultKind): boolean => DECLINE_KINDS.has(kind) || kind === 'rejected_validation';

export type NextStep =
  /** Run the 3-D Secure steps; the challenge ends on the result page. */
  | { readonly step: 'authenticate'; readonly redirect: unknown }
  /** The checkout expired or was already paid: the result page tells which. */
  | { readonly step: 'expired' }
  /**
   * Stay on the form; `rejected` names the request parameters the gateway refused, if any. `text` is what
   * the shopper is told: `declined` only when the payment was refused, `brandUnavailable` when the entity
   * has no contract for the brand (`600.200.201`): nothing was wrong with the card.
   */
  | { readonly step: 'retry'; readonly rejected: readonly string[]; readonly text: 'declined' | 'brandUnavailable' }
  /** Everything else: the result page reads the outcome. */
  | { readonly step: 'result' };

/** What to do after the gateway's answer to a card submission. */
export function nextStep(answer: PaymentAnswer | undefined): NextStep {
  if (answer?.redirect) return { step: 'authenticate', redirect: answer.redirect };
  const code = String(answer?.result?.code ?? '');
  const errors = answer?.result?.parameterErrors;
  const rejected = Array.isArray(errors) ? errors.map((error) => String(error?.name)) : [];
  // Expired, or already paid (the browser itself re-sends a POST whose connection dropped).
  if (code === RESULT_CODES.invalidParameter && !rejected.length) return { step: 'expired' };
  if (!staysOnForm(classifyResult(code))) return { step: 'result' };
  return { step: 'retry', rejected, text: code === RESULT_CODES.brandNotConfigured ? 'brandUnavailable' : 'declined' };
}
