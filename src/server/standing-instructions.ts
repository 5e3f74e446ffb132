/**
 * Typed flows for cards on file: the standing instruction of the first,
 * customer-initiated payment of each flow (save for later, instalments,
 * subscription) and of every later merchant-initiated one, built from what the
 * first payment answered, so a repeat cannot be written without its id.
 */
import { isPaymentBrand, type PaymentBrand } from '../contract/brands.js';
import { isApproved } from '../contract/result-codes.js';
import { GatewayValidationError, invalidArgument, isObject } from './errors.js';
import type { Payment, RepeatedStandingInstruction, StandingInstruction, StandingInstructionType } from './types.js';

type Initial<T extends StandingInstructionType> = Extract<StandingInstruction, { type: T }> & { mode: 'INITIAL'; source: 'CIT' };

/** Save the card for later charges at no fixed time (one-click, top-ups). */
export function saveForLater(): Initial<'UNSCHEDULED'> {
  return { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' };
}

/** A purchase paid in `numberOfInstallments` parts, `frequency` (N4) apart, until `expiry` (YYYY-MM-DD). */
export function instalments(plan: { numberOfInstallments: number | string; expiry: string; frequency: string }): Initial<'INSTALMENT'> {
  return { type: 'INSTALMENT', mode: 'INITIAL', source: 'CIT', ...plan };
}

/** A subscription charged every `frequency` (N4) until `expiry` (YYYY-MM-DD). */
export function subscription(plan: {
  expiry: string;
  frequency: string;
  recurringType?: 'SUBSCRIPTION' | 'STANDING_ORDER';
}): Initial<'RECURRING'> {
  return { type: 'RECURRING', mode: 'INITIAL', source: 'CIT', recurringType: 'SUBSCRIPTION', ...plan };
}

/** What to keep with the customer after the first payment, to charge the card later without them. */
export interface SavedCard {
  readonly registrationId: string;
  readonly type: StandingInstructionType;
  /** The first payment's `resultDetails.CardholderInitiatedTransactionID`. */
  readonly initialTransactionId: string;
  /**
   * The first payment's brand. The card is stored on the entity that took that
   * payment: given the saved card in place of its id, `registrations.createPayment`
   * and `registrations.delete` go to that brand's entity (the client's `entities`).
   */
  readonly paymentBrand?: PaymentBrand;
}

/**
 * The saved card and standing instruction an approved first payment started.
 * `registrationId` defaults to the payment's own (a payment made with
 * `createRegistration: true`); pass it for a first payment on a card stored with
 * `registrations.create`. Throws `GatewayValidationError` when the payment
 * started none (or is not approved: read it again after its 3DS step).
 */
export function savedCardOf(payment: Payment, registrationId = isObject(payment) ? payment.registrationId : undefined): SavedCard {
  if (!isObject(payment) || !isObject(payment.result))
    throw invalidArgument('savedCardOf(payment)', 'must be a payment answer of the client');
  const initialTransactionId = payment.resultDetails?.CardholderInitiatedTransactionID;
  const answered = payment.standingInstruction?.type;
  // The response spells the instalment type INSTALLMENT; requests spell it INSTALMENT.
  const type = answered === 'INSTALLMENT' ? 'INSTALMENT' : answered;
  if (
    !isApproved(payment.result.code) ||
    !registrationId ||
    !initialTransactionId ||
    (type !== 'UNSCHEDULED' && type !== 'INSTALMENT' && type !== 'RECURRING') ||
    payment.standingInstruction?.mode !== 'INITIAL'
  ) {
    throw new GatewayValidationError(
      `Payment ${payment.id} did not save a card with an initial standing instruction (an approval, registrationId, standingInstruction mode INITIAL and resultDetails.CardholderInitiatedTransactionID are needed)`,
      { resultCode: payment.result.code, description: payment.result.description },
    );
  }
  const { paymentBrand } = payment;
  return { registrationId, type, initialTransactionId, ...(isPaymentBrand(paymentBrand) ? { paymentBrand } : {}) };
}

/** The standing instruction of a merchant-initiated charge on a saved card: the first payment's type and id. */
export function repeatOf(saved: Pick<SavedCard, 'type' | 'initialTransactionId'>): RepeatedStandingInstruction {
  if (!isObject(saved) || typeof saved.type !== 'string' || typeof saved.initialTransactionId !== 'string')
    throw invalidArgument('repeatOf(saved)', 'must be a saved card from savedCardOf');
  return { type: saved.type, mode: 'REPEATED', source: 'MIT', initialTransactionId: saved.initialTransactionId };
}
