/**
 * The widget's own endpoints, authorised by the checkout id as the platform's
 * widget is: the script, the checkout the form shows (with its saved cards),
 * one payment attempt (card, wallet or saved card: each checked here as the
 * widget sends it, then made by the gateway's one attempt path,
 * gateway/checkouts.ts) and the card a registration-only checkout saves.
 * Every answer, errors included, carries CORS, so the widget can read it.
 */
import { isWalletBrand } from '../../contract/brands.js';
import { checkField, formatOf } from '../../contract/formats.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { isRegistrationCheckout, validateParameters } from '../../contract/rules.js';
import type { CheckoutAnswer, PaymentAnswer, SavedCardAnswer } from '../../contract/widget-answers.js';
import { brandNotConfigured, type SandboxState } from '../core/state.js';
import { attemptPayment, checkoutForWidget, isCheckoutRefusal, saveCardOnCheckout, type Attempt } from '../gateway/checkouts.js';
import { approvalCode, threeDsStepOf } from '../gateway/payments.js';
import { savedCardsOf } from '../gateway/registrations.js';
import type { CheckoutRecord } from '../gateway/store.js';
import { behaviourOf } from '../gateway/triggers.js';
import { walletBehaviourOf } from '../gateway/wallets.js';
import { storable } from './auth.js';
import { invalidCheckout, onlyInvalidCardNumber, pendingRedirect, widgetRefusal, withCors } from './checks.js';
import { json, reply, type Handler, type RequestContext, type Route } from './dispatch.js';
import { envelope, failure, invalidParameters } from './envelope.js';
import { result } from '../gateway/store.js';
import type { Reply } from './wire.js';
import type { FlatParams } from '../gateway/store.js';

/** The fields the widget's card form sends of its own; the money terms come from the checkout. */
const CARD_FORM_FIELDS = new Set([
  'paymentBrand',
  'card.number',
  'card.holder',
  'card.expiryMonth',
  'card.expiryYear',
  'card.cvv',
  'shopperResultUrl',
]);

/**
 * The fields a merchant may add to the card form, which the platform's widget sends with the card: `createRegistration`
 * (the documented "store payment details?" box) and `customParameters[…]`; never one the checkout was created with (the
 * shop's server set it, e.g. its reference), nor anything else. So a page can change no money term: amount, currency,
 * paymentType and entityId come from the checkout alone.
 */
const isMerchantField = (name: string, checkout: CheckoutRecord): boolean =>
  (name === 'createRegistration' || (name.startsWith('customParameters[') && formatOf(name) !== undefined)) &&
  !Object.hasOwn(checkout.params, name);

/** The fields of a card form's request the sandbox takes: the widget's own and the merchant's it allows. */
const cardFormFields = (fields: Readonly<FlatParams>, checkout: CheckoutRecord): FlatParams =>
  Object.fromEntries(Object.entries(fields).filter(([name]) => CARD_FORM_FIELDS.has(name) || isMerchantField(name, checkout)));

/** The card fields a registration-only checkout's form sends. */
const SAVE_CARD_FIELDS = new Set(['paymentBrand', 'card.number', 'card.holder', 'card.expiryMonth', 'card.expiryYear', 'card.cvv']);

/** An attempt's checks answer a refusal (always JSON) or the attempt. */
const isRefusal = (checked: Attempt | Reply): checked is Reply => checked.kind === 'json';

const only = (names: ReadonlySet<string>, fields: Readonly<FlatParams>): FlatParams =>
  Object.fromEntries(Object.entries(fields).filter(([name]) => names.has(name)));

/** The saved cards the widget shows: brand, last 4 digits and expiry, never more. */
function savedCardsAnswer(state: SandboxState, checkout: CheckoutRecord): Pick<NonNullable<CheckoutAnswer['checkout']>, 'registrations'> {
  const cards = savedCardsOf(state.store, checkout).map(({ id, paymentBrand, card }): SavedCardAnswer => ({
    id,
    paymentBrand: paymentBrand ?? '',
    last4Digits: card?.last4Digits ?? '',
    expiryMonth: card?.expiryMonth ?? '',
    expiryYear: card?.expiryYear ?? '',
  }));
  return cards.length ? { registrations: cards } : {};
}

/** The brands an entity has a contract for, when it names them, so the widget offers no other (as the platform's does). */
function contractedBrands(state: SandboxState, entityId: string): { brands?: string[] } {
  const brands = state.entities.get(entityId);
  return brands ? { brands: [...brands] } : {};
}

// GET /v1/paymentWidgets.js?checkoutId=
const widgetScript: Handler = ({ state }) => reply({ kind: 'script', bytes: state.widget.bytes });

// GET /v1/checkouts/{id}/widget: what the form shows.
const widgetCheckout: Handler = (context, match) => {
  const { state, now } = context;
  const id = match[1]!;
  const checkout = state.store.liveCheckout(id);
  if (!checkout) return reply(invalidCheckout(now, id));
  const { params } = checkout;
  const expiresAt = new Date(checkout.expiresAt).toISOString();
  // What the served widget reads (src/contract/widget-answers.ts), so a renamed field fails to compile on both sides.
  const body = {
    result: result(RESULT_CODES.checkoutCreated),
    checkout: isRegistrationCheckout(params)
      ? { id, registration: true, expiresAt }
      : {
          id,
          // Mandatory at checkout creation, which refuses a checkout without them.
          amount: params.amount!,
          currency: params.currency!,
          paymentType: params.paymentType!,
          ...(params.paymentBrand ? { paymentBrand: params.paymentBrand } : {}),
          expiresAt,
          ...savedCardsAnswer(state, checkout),
          ...contractedBrands(state, checkout.entityId),
        },
  } satisfies CheckoutAnswer;
  return reply(json(200, envelope(body, now, id), true));
};

/** The attempt a card form sends, checked as sent (kept scrubbed), or the refusal. */
function cardAttempt(context: RequestContext, checkout: CheckoutRecord): Attempt | Reply {
  const { state, request, now, redact } = context;
  const sent = cardFormFields(request.params, checkout);
  const params: FlatParams = { ...checkout.params, ...sent };
  const behaviour = behaviourOf(params['card.number'] ?? '');
  const step = threeDsStepOf(params, behaviour);
  const errors = validateParameters('payment', params, now, { threeDSecure: step !== undefined }).filter(
    (error) => CARD_FORM_FIELDS.has(error.name) || Object.hasOwn(sent, error.name),
  );
  // Kept scrubbed: a custom parameter holding a card number or a security code (`customParameters[CVV]`) is masked.
  const fields = cardFormFields(storable(request, redact), checkout);
  // A number whose one fault is the Luhn check is a refused transaction on the checkout, as a server-to-server payment's.
  if (onlyInvalidCardNumber(errors)) return { kind: 'invalidCard', fields };
  if (errors.length) return withCors(invalidParameters(errors, now, checkout.id));
  if (brandNotConfigured(state, checkout.entityId, params.paymentBrand))
    return withCors(failure(400, RESULT_CODES.brandNotConfigured, now, checkout.id));
  return { kind: 'card', fields, behaviour };
}

/**
 * The attempt a wallet's stand-in sheet sends: no card data; its token or
 * one-time password picks the outcome (gateway/wallets.ts) and is never kept.
 * Reported as the platform reports wallet payments: the wallet as
 * `paymentBrand`, the checkout's `paymentType`, the result.
 */
function walletAttempt(context: RequestContext, checkout: CheckoutRecord, brand: string): Attempt | Reply {
  const { state, request, now } = context;
  const decided = walletBehaviourOf(brand as Parameters<typeof walletBehaviourOf>[0], request.params);
  if (Array.isArray(decided)) return withCors(invalidParameters(decided, now, checkout.id));
  if (brandNotConfigured(state, checkout.entityId, brand)) return withCors(failure(400, RESULT_CODES.brandNotConfigured, now, checkout.id));
  return { kind: 'wallet', brand, behaviour: decided, mobile: brand === 'STC_PAY' ? request.params['customer.mobile'] : undefined };
}

/** The one-click attempt: `registrationId` must be one of the checkout's saved cards, still registered. */
function savedCardAttempt(context: RequestContext, checkout: CheckoutRecord, registrationId: string): Attempt | Reply {
  const { state, request, now } = context;
  const registration = savedCardsOf(state.store, checkout).find((card) => card.id === registrationId);
  if (!registration)
    return withCors(
      invalidParameters(
        [{ name: 'registrationId', value: registrationId.slice(0, 64), message: "is not one of this checkout's saved cards" }],
        now,
        checkout.id,
      ),
    );
  const cvv = request.params['card.cvv'];
  const cvvProblem = cvv === undefined ? undefined : checkField('card.cvv', cvv);
  if (cvvProblem) return withCors(invalidParameters([{ name: 'card.cvv', value: '***', message: cvvProblem }], now, checkout.id));
  return { kind: 'savedCard', registration };
}

// POST /v1/checkouts/{id}/widget/payments: one attempt, whatever the shopper pays with.
const widgetPayment: Handler = (context, match) => {
  const { state, request, now } = context;
  const id = match[1]!;
  // A registration-only checkout takes no payment: its form posts to widget/registration.
  const checkout = checkoutForWidget(state.store, id, 'payment');
  if (isCheckoutRefusal(checkout)) return reply(widgetRefusal(now, id, checkout, 'a registration-only checkout takes no payment'));
  const { registrationId, paymentBrand } = request.params;
  const attempt =
    registrationId !== undefined
      ? savedCardAttempt(context, checkout, registrationId)
      : isWalletBrand(paymentBrand)
        ? walletAttempt(context, checkout, paymentBrand)
        : cardAttempt(context, checkout);
  if (isRefusal(attempt)) return reply(attempt);
  // The platform adds the shopper's IP (and its country) to a widget payment: the browser's address is the caller's.
  const outcome = attemptPayment(state.store, checkout, attempt, request.remoteAddress);
  if (isCheckoutRefusal(outcome)) return reply(widgetRefusal(now, id, outcome));
  const body = {
    result: result(outcome.answeredCode),
    id: outcome.payment.id,
    ...pendingRedirect(state, outcome.payment),
  } satisfies PaymentAnswer;
  return reply(json(200, envelope(body, now, id), true), outcome.payment.id);
};

// POST /v1/checkouts/{id}/widget/registration: the card a registration-only checkout's form saves (an RG transaction).
const widgetRegistration: Handler = (context, match) => {
  const { state, request, now, redact } = context;
  const id = match[1]!;
  const checkout = checkoutForWidget(state.store, id, 'registration');
  if (isCheckoutRefusal(checkout)) return reply(widgetRefusal(now, id, checkout, 'this checkout takes a payment, not a registration'));
  if (checkout.registrationId !== undefined) return reply(widgetRefusal(now, id, 'alreadyProcessed'));
  const params: FlatParams = { entityId: checkout.entityId, ...only(SAVE_CARD_FIELDS, request.params) };
  const errors = validateParameters('registration', params, now).filter((error) => SAVE_CARD_FIELDS.has(error.name));
  if (errors.length) return reply(withCors(invalidParameters(errors, now, id)));
  if (brandNotConfigured(state, checkout.entityId, params.paymentBrand))
    return reply(withCors(failure(400, RESULT_CODES.brandNotConfigured, now, id)));
  // The test-card triggers decline a registration as they decline a payment: nothing is saved, the shopper may try again.
  const saved = saveCardOnCheckout(
    state.store,
    checkout,
    only(SAVE_CARD_FIELDS, storable(request, redact)),
    behaviourOf(params['card.number'] ?? ''),
  );
  if (isCheckoutRefusal(saved)) return reply(widgetRefusal(now, id, saved));
  if ('declined' in saved) return reply(json(200, envelope({ result: result(saved.declined) } satisfies PaymentAnswer, now, id), true));
  const body = { result: result(approvalCode(saved.testMode)), id: saved.id } satisfies PaymentAnswer;
  return reply(json(200, envelope(body, now, id), true));
};

const ID = '([^/]+)';
export const WIDGET_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/v1\/paymentWidgets\.js$/, handler: widgetScript },
  { method: 'GET', pattern: new RegExp(`^/v1/checkouts/${ID}/widget$`), handler: widgetCheckout, cors: true },
  { method: 'POST', pattern: new RegExp(`^/v1/checkouts/${ID}/widget/payments$`), handler: widgetPayment, cors: true },
  { method: 'POST', pattern: new RegExp(`^/v1/checkouts/${ID}/widget/registration$`), handler: widgetRegistration, cors: true },
];
