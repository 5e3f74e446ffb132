/**
 * The sandbox's registrations (saved cards): stored by `POST /v1/registrations`
 * (or by a payment with `createRegistration=true`, in payments.ts), paid with
 * on `POST /v1/registrations/{id}/payments`, deregistered by `DELETE`; and the
 * rule that ties a merchant-initiated repeat to the customer-initiated payment
 * that started its standing instruction.
 */
import type { Registration } from '../../contract/api-answers.js';
import { savedCardIdsOf } from '../../contract/formats.js';
import { variantOf, type ParameterError } from '../../contract/rules.js';
import {
  answeredStandingInstruction,
  createPayment,
  initialInstructionOf,
  summariseCard,
  testModeOf,
  type PaymentOutcome,
  withoutThreeDs,
} from './payments.js';
import type { CheckoutRecord, RegistrationRecord, Result, SandboxStore } from './store.js';
import { behaviourOf } from './triggers.js';
import type { FlatParams } from './store.js';

/** `POST /v1/registrations`: the card's masked data is kept, its number only as its behaviour (the test-card trigger). */
export function storeCard(store: SandboxStore, entityId: string, params: Readonly<FlatParams>): RegistrationRecord {
  const instruction = answeredStandingInstruction(params);
  const registration: RegistrationRecord = {
    id: store.nextId(),
    entityId,
    paymentBrand: params.paymentBrand!,
    card: summariseCard(params)!,
    behaviour: behaviourOf(params['card.number'] ?? ''),
    testMode: testModeOf(params),
    createdAt: store.clock.nowMs(),
    deregistered: false,
    ...(instruction ? { standingInstruction: instruction } : {}),
  };
  store.addRegistration(registration);
  return registration;
}

/** Whether a registration payment says it is a merchant-initiated repeat. */
const isRepeat = (params: Readonly<FlatParams>) =>
  params['standingInstruction.mode'] === 'REPEATED' || params['standingInstruction.source'] === 'MIT';

/**
 * Why a merchant-initiated repeat may not be made on this registration: it
 * must name the CardholderInitiatedTransactionID the sandbox issued for the
 * registration's approved initial customer-initiated payment, with its type.
 */
export function repeatRefusal(registration: RegistrationRecord, params: Readonly<FlatParams>): ParameterError[] {
  if (!isRepeat(params)) return [];
  const given = params['standingInstruction.initialTransactionId'] ?? '';
  const type = params['standingInstruction.type'] ?? '';
  const { initial } = registration;
  if (!initial) {
    return [
      {
        name: 'standingInstruction.initialTransactionId',
        value: given,
        message:
          'this registration has no approved initial customer-initiated payment (standingInstruction.mode=INITIAL, source=CIT) to repeat',
      },
    ];
  }
  const errors: ParameterError[] = [];
  if (given !== initial.transactionId)
    errors.push({
      name: 'standingInstruction.initialTransactionId',
      value: given,
      message: "must be the CardholderInitiatedTransactionID of the registration's initial payment",
    });
  if (type !== initial.type)
    errors.push({ name: 'standingInstruction.type', value: type, message: `must be ${initial.type}, the type of the initial payment` });
  return errors;
}

/**
 * A payment on a registered card. Never a 3DS step: a repeat is
 * merchant-initiated (the shopper is not there), and the sandbox runs none for
 * a customer-initiated payment on a registration either. A request without a
 * standing instruction is answered as the API reference shows (MIT, UNSCHEDULED,
 * REPEATED); an approved initial one (INITIAL, CIT) becomes the one later
 * repeats must name.
 */
export function payWithRegistration(
  store: SandboxStore,
  registration: RegistrationRecord,
  entityId: string,
  params: Readonly<FlatParams>,
): PaymentOutcome {
  const basicCredit = variantOf('registrationPayment', params) === 'basicCredit';
  const paymentBrand = params.paymentBrand ?? (basicCredit ? undefined : registration.paymentBrand);
  const behaviour = withoutThreeDs(registration.behaviour);
  const sent = answeredStandingInstruction(params);
  const seedDefault = {
    source: 'MIT',
    type: 'UNSCHEDULED',
    mode: 'REPEATED',
    ...(registration.initial ? { initialTransactionId: registration.initial.transactionId } : {}),
  };
  const outcome = createPayment(store, {
    entityId,
    params,
    behaviour,
    ...(basicCredit || !registration.card ? {} : { card: registration.card }),
    ...(paymentBrand ? { paymentBrand } : {}),
    standingInstruction: sent ?? seedDefault,
  });
  const initial = initialInstructionOf(outcome.payment);
  if (initial) registration.initial = initial;
  return outcome;
}

/** The answer to `POST /v1/registrations` and `DELETE /v1/registrations/{id}`, and the payload of their notifications: the card's masked data only. */
export function registrationBody(registration: RegistrationRecord, answered: Result): Registration {
  return {
    id: registration.id,
    result: answered,
    ...(registration.paymentBrand ? { paymentBrand: registration.paymentBrand } : {}),
    ...(registration.card ? { card: registration.card } : {}),
    ...(registration.standingInstruction ? { standingInstruction: registration.standingInstruction } : {}),
  };
}

/**
 * The saved cards a one-click checkout offers (`registrations[n].id`, in
 * order): those still registered on the checkout's entity. An unknown or
 * deleted one is left out, as the platform's widget shows only cards it has.
 */
export function savedCardsOf(store: SandboxStore, checkout: CheckoutRecord): RegistrationRecord[] {
  return savedCardIdsOf(checkout.params)
    .map((id) => store.registrations.get(id))
    .filter(
      (registration): registration is RegistrationRecord =>
        registration !== undefined && !registration.deregistered && registration.entityId === checkout.entityId,
    );
}

/**
 * The standing instruction of a one-click payment the shopper makes in the
 * widget with a saved card: customer-initiated, a later use of an unscheduled
 * card-on-file agreement (the platform's card-on-file guide: CIT, REPEATED,
 * UNSCHEDULED), naming the initial payment when there was one.
 */
export function oneClickInstruction(registration: RegistrationRecord): Record<string, string> {
  return {
    source: 'CIT',
    type: 'UNSCHEDULED',
    mode: 'REPEATED',
    ...(registration.initial ? { initialTransactionId: registration.initial.transactionId } : {}),
  };
}
