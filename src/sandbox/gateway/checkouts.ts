/**
 * The gateway's checkouts and every state change they go through: creation,
 * the status reads (counted against their limit, consuming a paid checkout),
 * the shopper's attempts (card, wallet or saved card: one path), the card a
 * registration-only checkout saves, and an expiry a test forces. Each answers
 * a record or a typed refusal; what a refusal looks like on the wire is the
 * protocol's business (src/sandbox/protocol/).
 */
import { ATTEMPT_LIFETIME_MS, CHECKOUT_LIFETIME_MS, STATUS_CALL_WINDOW_MS, STATUS_CALLS_PER_MINUTE } from '../../contract/limits.js';
import { isRegistrationCheckout } from '../../contract/rules.js';
import type { FlatParams } from './store.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import {
  createCardPayment,
  createPayment,
  noteCheckoutPayment,
  recordRefusal,
  succeeded,
  type PaymentOutcome,
  withoutThreeDs,
} from './payments.js';
import { oneClickInstruction, storeCard } from './registrations.js';
import { type CheckoutRecord, type PaymentRecord, type RegistrationRecord, type SandboxStore } from './store.js';
import type { CardBehaviour } from './triggers.js';

/** Why the gateway refuses to act on a checkout. */
export type CheckoutRefusal =
  /** No such checkout (never made, or swept after its life). */
  | 'unknown'
  /** Another entity's checkout. */
  | 'otherEntity'
  /** Read more often than the platform allows in a minute. */
  | 'throttled'
  /** Its 30 minutes are over, or its outcome was read after it was paid. */
  | 'expired'
  /** Paid already (or, for a registration-only one, its card saved). */
  | 'alreadyProcessed'
  /** A payment attempt on a checkout that saves a card, or the reverse. */
  | 'wrongKind';

export const isCheckoutRefusal = (value: unknown): value is CheckoutRefusal => typeof value === 'string';

/** A new checkout: the validated, scrubbed creation parameters (never card data) become the base of every attempt on it. */
export function createCheckout(store: SandboxStore, entityId: string, params: Readonly<FlatParams>): CheckoutRecord {
  const createdAt = store.clock.nowMs();
  const checkout: CheckoutRecord = {
    id: store.nextCheckoutId(),
    entityId,
    createdAt,
    expiresAt: createdAt + CHECKOUT_LIFETIME_MS,
    // Card data has no place in a checkout: it is never kept, even when a merchant sends it.
    params: Object.fromEntries(Object.entries(params).filter(([name]) => !name.startsWith('card.'))),
    paymentIds: [],
    attemptsOpenUntil: 0,
    consumed: false,
    reads: [],
  };
  store.addCheckout(checkout);
  return checkout;
}

/** A checkout's successful payment, else its latest attempt. */
export function paymentOfCheckout(store: SandboxStore, checkout: CheckoutRecord): PaymentRecord | undefined {
  if (checkout.paidBy !== undefined) return store.payment(checkout.paidBy);
  const payments = checkout.paymentIds.map((id) => store.payment(id)).filter((payment): payment is PaymentRecord => payment !== undefined);
  return payments.find(succeeded) ?? payments.at(-1);
}

/**
 * A checkout a status read may see, the read counted against its limit of
 * reads a minute; a refusal when it is unknown, another entity's, read too
 * often, expired or consumed. Shared by the payment's and the registration's read.
 */
export function checkoutToRead(store: SandboxStore, id: string, entityId: string | undefined): CheckoutRecord | CheckoutRefusal {
  const checkout = store.checkouts.get(id);
  if (!checkout) return 'unknown';
  if (checkout.entityId !== entityId) return 'otherEntity';
  const nowMs = store.clock.nowMs();
  checkout.reads = checkout.reads.filter((at) => at > nowMs - STATUS_CALL_WINDOW_MS);
  if (checkout.reads.length >= STATUS_CALLS_PER_MINUTE) return 'throttled';
  checkout.reads.push(nowMs);
  if (!store.liveCheckout(id)) return 'expired';
  return checkout;
}

/** The payment a status read answers; a paid checkout is consumed by the read, as the platform's is. */
export function readCheckoutPayment(store: SandboxStore, checkout: CheckoutRecord): PaymentRecord | undefined {
  const payment = paymentOfCheckout(store, checkout);
  if (payment && succeeded(payment)) checkout.consumed = true;
  return payment;
}

/** The card a registration-only checkout saved, if any; reading it consumes the checkout. */
export function readCheckoutRegistration(store: SandboxStore, checkout: CheckoutRecord): RegistrationRecord | undefined {
  const registration = checkout.registrationId === undefined ? undefined : store.registrations.get(checkout.registrationId);
  if (registration) checkout.consumed = true;
  return registration;
}

/** The checkout the widget acts on: live, and of the kind asked for (one that takes a payment, or one that saves a card). */
export function checkoutForWidget(store: SandboxStore, id: string, kind: 'payment' | 'registration'): CheckoutRecord | CheckoutRefusal {
  const checkout = store.liveCheckout(id);
  if (!checkout) return 'expired';
  if (isRegistrationCheckout(checkout.params) !== (kind === 'registration')) return 'wrongKind';
  return checkout;
}

/** What the shopper pays with in the widget; each is checked by the protocol before it gets here. */
export type Attempt =
  /** Card data as entered (`fields`: the form's fields, validated, secrets scrubbed but the card number's behaviour). */
  | { readonly kind: 'card'; readonly fields: Readonly<FlatParams>; readonly behaviour: CardBehaviour }
  /** A wallet's stand-in sheet: its proof decided the outcome; no card data, and the wallet authenticated the shopper. */
  | { readonly kind: 'wallet'; readonly brand: string; readonly behaviour: CardBehaviour; readonly mobile?: string | undefined }
  /** One of the checkout's saved cards, paid in one click: a customer-initiated repeat of its agreement. */
  | { readonly kind: 'savedCard'; readonly registration: RegistrationRecord }
  /** Card data whose one fault is a number failing the Luhn check: a refused transaction (`100.100.101`), as a server-to-server payment's. */
  | { readonly kind: 'invalidCard'; readonly fields: Readonly<FlatParams> };

/** The parameters of a saved card's payment that are the checkout's own: it neither saves the card again nor starts a new agreement. */
const NOT_FOR_SAVED_CARD = (name: string) =>
  name === 'createRegistration' || name.startsWith('standingInstruction.') || /^registrations\[/.test(name) || name.startsWith('card.');

/**
 * One payment attempt on a checkout, whatever the shopper pays with: refused
 * when the checkout is paid already; else a payment on the checkout's amount,
 * with the shopper's IP (the platform adds it to a widget payment), noted on
 * the checkout, whose attempt window stays open while a 3-D Secure step is pending.
 */
export function attemptPayment(
  store: SandboxStore,
  checkout: CheckoutRecord,
  attempt: Attempt,
  shopperIp: string | undefined,
): PaymentOutcome | CheckoutRefusal {
  if (checkout.paidBy !== undefined) return 'alreadyProcessed';
  const ip = checkout.params['customer.ip'] ?? shopperIp;
  const withIp = (params: FlatParams): FlatParams => ({ ...params, ...(ip ? { 'customer.ip': ip } : {}) });
  const base = { entityId: checkout.entityId, checkoutId: checkout.id };
  let outcome: PaymentOutcome;
  switch (attempt.kind) {
    case 'card':
      outcome = createCardPayment(
        store,
        checkout.entityId,
        withIp({ ...checkout.params, ...attempt.fields }),
        attempt.behaviour,
        checkout.id,
      );
      break;
    case 'wallet':
      outcome = createPayment(store, {
        ...base,
        params: withIp({
          ...checkout.params,
          paymentBrand: attempt.brand,
          ...(attempt.mobile ? { 'customer.mobile': attempt.mobile } : {}),
        }),
        behaviour: attempt.behaviour,
        paymentBrand: attempt.brand,
      });
      break;
    case 'invalidCard':
      outcome = {
        payment: recordRefusal(store, {
          entityId: checkout.entityId,
          params: withIp({ ...checkout.params, ...attempt.fields }),
          code: RESULT_CODES.invalidCard,
          checkoutId: checkout.id,
        }),
        answeredCode: RESULT_CODES.invalidCard,
      };
      break;
    case 'savedCard': {
      const { registration } = attempt;
      outcome = createPayment(store, {
        ...base,
        params: withIp(Object.fromEntries(Object.entries(checkout.params).filter(([name]) => !NOT_FOR_SAVED_CARD(name)))),
        // A saved card's 3-D Secure was done when it was saved: its payment is never stepped up.
        behaviour: withoutThreeDs(registration.behaviour),
        ...(registration.card ? { card: registration.card } : {}),
        ...(registration.paymentBrand ? { paymentBrand: registration.paymentBrand } : {}),
        standingInstruction: oneClickInstruction(registration),
        // A white label's recorded status of a one-click payment names the card it charged.
        registrationId: registration.id,
      });
      break;
    }
  }
  // Only the attempts the store still holds: a loop of declined attempts on one checkout (the widget's endpoint takes
  // no token) must not grow its list past the payments kept, each dropped for room on its own.
  checkout.paymentIds = checkout.paymentIds.filter((id) => store.payments.get(id) !== undefined);
  checkout.paymentIds.push(outcome.payment.id);
  if (outcome.payment.threeDs) checkout.attemptsOpenUntil = outcome.payment.createdAt + ATTEMPT_LIFETIME_MS;
  noteCheckoutPayment(store, outcome.payment);
  return outcome;
}

/**
 * The card a registration-only checkout's form saves (an RG transaction),
 * once; a declining test card saves nothing and answers its decline code, so
 * the shopper may try again.
 */
export function saveCardOnCheckout(
  store: SandboxStore,
  checkout: CheckoutRecord,
  fields: Readonly<FlatParams>,
  behaviour: CardBehaviour,
): RegistrationRecord | CheckoutRefusal | { readonly declined: string } {
  if (checkout.registrationId !== undefined) return 'alreadyProcessed';
  if (behaviour.kind === 'decline') return { declined: behaviour.code };
  const registration = storeCard(store, checkout.entityId, { ...checkout.params, ...fields });
  checkout.registrationId = registration.id;
  return registration;
}

/** Ends a checkout's life now, as its 30 minutes passing would; attempts still in 3-D Secure keep their own time. */
export function expireCheckout(store: SandboxStore, checkout: CheckoutRecord): void {
  checkout.expiresAt = Math.min(checkout.expiresAt, store.clock.nowMs());
}
