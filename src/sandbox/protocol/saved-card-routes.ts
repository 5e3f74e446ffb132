/**
 * The widget's saved cards (the platform's, beyond the seed): a
 * registration-only checkout's form saves a card (`widget/registration`) and
 * its status read answers the card (`GET /v1/checkouts/{id}/registration`); a
 * one-click checkout (`registrations[n].id`) offers the shopper's saved cards
 * and pays with one (`widget/payments` with `registrationId`).
 */
import { checkField } from '../../contract/formats.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { isRegistrationCheckout, validateParameters } from '../../contract/rules.js';
import { approvalCode, noteCheckoutPayment, succeeded } from '../gateway/payments.js';
import { payWithSavedCard, registrationBody, savedCardsOf, storeCard } from '../gateway/registrations.js';
import { envelope, failure, invalidParameters, result } from './envelope.js';
import type { CheckoutRecord } from '../gateway/store.js';
import { behaviourOf } from '../gateway/triggers.js';
import { brandNotConfigured, type SandboxState } from '../core/state.js';
import type { CheckoutAnswer, PaymentAnswer, SavedCardAnswer } from '../../contract/widget-answers.js';
import type { FlatParams } from './wire.js';
import { storable } from './auth.js';
import { json, reply, type Handler, type RequestContext, type Route, type Routed } from './context.js';
import { invalidCheckout, paymentOfCheckout, pendingRedirect, readableCheckout, withCors } from './routes.js';

/** The card fields a registration-only checkout's form sends. */
const CARD_FIELDS = new Set(['paymentBrand', 'card.number', 'card.holder', 'card.expiryMonth', 'card.expiryYear', 'card.cvv']);

/** The parameters of a saved card's payment that are the checkout's own: it neither saves the card again nor starts a new agreement. */
const NOT_FOR_SAVED_CARD = (name: string) =>
  name === 'createRegistration' || name.startsWith('standingInstruction.') || /^registrations\[/.test(name) || name.startsWith('card.');

/** The saved cards the widget shows: brand, last 4 digits and expiry, never more. */
export function savedCardsAnswer(
  state: SandboxState,
  checkout: CheckoutRecord,
): Pick<NonNullable<CheckoutAnswer['checkout']>, 'registrations'> {
  const cards = savedCardsOf(state.store, checkout).map(({ id, paymentBrand, card }): SavedCardAnswer => ({
    id,
    paymentBrand: paymentBrand ?? '',
    last4Digits: card?.last4Digits ?? '',
    expiryMonth: card?.expiryMonth ?? '',
    expiryYear: card?.expiryYear ?? '',
  }));
  return cards.length ? { registrations: cards } : {};
}

// POST /v1/checkouts/{id}/widget/registration: the card a registration-only checkout's form saves (an RG transaction).
const widgetRegistration: Handler = (context, match) => {
  const { state, request, now, redact } = context;
  const id = match[1]!;
  const checkout = state.store.liveCheckout(id);
  if (!checkout) return reply(invalidCheckout(now, id));
  if (!isRegistrationCheckout(checkout.params)) return reply(invalidCheckout(now, id, 'this checkout takes a payment, not a registration'));
  if (checkout.registrationId !== undefined) return reply(invalidCheckout(now, id, 'checkout already processed'));
  const entered = (fields: Readonly<FlatParams>): FlatParams =>
    Object.fromEntries(Object.entries(fields).filter(([name]) => CARD_FIELDS.has(name)));
  const params: FlatParams = { entityId: checkout.entityId, ...entered(request.params) };
  const errors = validateParameters('registration', params, now).filter((error) => CARD_FIELDS.has(error.name));
  if (errors.length) return reply(withCors(invalidParameters(errors, now, id)));
  if (brandNotConfigured(state, checkout.entityId, params.paymentBrand))
    return reply(withCors(failure(400, RESULT_CODES.brandNotConfigured, now, id)));
  // The test-card triggers decline a registration as they decline a payment: nothing is saved, the shopper may try again.
  const behaviour = behaviourOf(params['card.number'] ?? '');
  if (behaviour.kind === 'decline')
    return reply(json(200, envelope({ result: result(behaviour.code) } satisfies PaymentAnswer, now, id), true));
  const registration = storeCard(state.store, checkout.entityId, { ...checkout.params, ...entered(storable(request, redact)) });
  checkout.registrationId = registration.id;
  const body = { result: result(approvalCode(registration.testMode)), id: registration.id } satisfies PaymentAnswer;
  return reply(json(200, envelope(body, now, id), true));
};

// GET /v1/checkouts/{id}/registration: the card a registration-only checkout saved; the same limit and consumption as the payment's read.
const checkoutRegistration: Handler = (context, match) => {
  const { state, now } = context;
  const id = match[1]!;
  const checkout = readableCheckout(context, id);
  if ('kind' in checkout) return reply(checkout);
  if (!isRegistrationCheckout(checkout.params))
    return reply(invalidCheckout(now, id, 'this checkout takes a payment: read /v1/checkouts/{id}/payment'));
  const registration = checkout.registrationId === undefined ? undefined : state.store.registrations.get(checkout.registrationId);
  // No card yet: the result alone, as the payment's read answers.
  if (!registration) return reply(json(200, envelope({ result: result(RESULT_CODES.pending) }, now, id)));
  checkout.consumed = true;
  const body = { ...registrationBody(registration, result(approvalCode(registration.testMode))), paymentType: 'RG' };
  return reply(json(200, envelope(body, now, id)));
};

/** The widget's one-click payment: `registrationId` must be one of the checkout's saved cards, still registered. */
export function savedCardPayment(context: RequestContext, checkout: CheckoutRecord): Routed {
  const { state, request, now } = context;
  const { id } = checkout;
  const registrationId = request.params.registrationId!;
  const registration = savedCardsOf(state.store, checkout).find((card) => card.id === registrationId);
  if (!registration)
    return reply(
      withCors(
        invalidParameters(
          [{ name: 'registrationId', value: registrationId.slice(0, 64), message: "is not one of this checkout's saved cards" }],
          now,
          id,
        ),
      ),
    );
  const cvv = request.params['card.cvv'];
  const cvvProblem = cvv === undefined ? undefined : checkField('card.cvv', cvv);
  if (cvvProblem) return reply(withCors(invalidParameters([{ name: 'card.cvv', value: '***', message: cvvProblem }], now, id)));
  const previous = paymentOfCheckout(state, checkout);
  if (previous && succeeded(previous)) return reply(invalidCheckout(now, id, 'checkout already processed'));
  const shopperIp = checkout.params['customer.ip'] ?? request.remoteAddress;
  const params: FlatParams = Object.fromEntries(Object.entries(checkout.params).filter(([name]) => !NOT_FOR_SAVED_CARD(name)));
  const outcome = payWithSavedCard(state.store, registration, checkout, { ...params, ...(shopperIp ? { 'customer.ip': shopperIp } : {}) });
  checkout.paymentIds.push(outcome.payment.id);
  noteCheckoutPayment(state.store, outcome.payment);
  const body = {
    result: result(outcome.answeredCode),
    id: outcome.payment.id,
    ...pendingRedirect(state, outcome.payment),
  } satisfies PaymentAnswer;
  return reply(json(200, envelope(body, now, id), true), outcome.payment.id);
}

const ID = '([^/]+)';
export const SAVED_CARD_ROUTES: readonly Route[] = [
  { method: 'POST', pattern: new RegExp(`^/v1/checkouts/${ID}/widget/registration$`), handler: widgetRegistration, cors: true },
  { method: 'GET', pattern: new RegExp(`^/v1/checkouts/${ID}/registration$`), handler: checkoutRegistration },
];
