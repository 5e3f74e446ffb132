/**
 * Registrations (saved cards): 7. payments and credits against a registered
 * card, and the platform's `POST /v1/registrations` and
 * `DELETE /v1/registrations/{id}`, which the API reference does not show.
 */
import { isPaymentBrand } from '../../contract/brands.js';
import { isApproved } from '../../contract/result-codes.js';
import { boundAnswer } from '../binding.js';
import { GatewayNetworkError, isObject } from '../errors.js';
import { errorFor, type Answer } from '../interpret.js';
import { movePayment } from '../reconcile.js';
import { flatten, validationError, type RequestOptions, type Transport } from '../request.js';
import type { SavedCard } from '../standing-instructions.js';
import type { Deregistration, Payment, Registration, RegistrationPaymentRequest, RegistrationRequest } from '../types.js';
import { pathId } from './path.js';

/**
 * A saved card as the calls take it: its registration id, or the card
 * `savedCardOf` returned, whose brand sends the call to the entity holding it.
 */
export type SavedCardReference = string | Pick<SavedCard, 'registrationId' | 'paymentBrand'>;

export interface Registrations {
  /**
   * Stores a card without a payment; answers its registration `id` and the
   * card's masked data. Not retried: after a lost answer the card may be
   * stored unseen (it moves no money; store it again).
   */
  create(request: RegistrationRequest, options?: RequestOptions): Promise<Registration>;
  /**
   * Deregisters a saved card. Not retried; calling it again is safe: a card
   * already deleted is `GatewayNotFoundError` with `resultCode` `100.150.202`
   * (`100.150.200` for one that never existed).
   */
  delete(card: SavedCardReference, options?: RequestOptions): Promise<Deregistration>;
  /**
   * A debit, PA, credit or payout against a saved card. A merchant-initiated
   * repeat carries `standingInstruction: repeatOf(savedCard)`. Sent once; an
   * unknown outcome is looked up. A deleted card is `GatewayNotFoundError` (`100.150.200`).
   */
  createPayment(card: SavedCardReference, request: RegistrationPaymentRequest, options?: RequestOptions): Promise<Payment>;
}

/** An answer that moves no money: returned when approved, else thrown as the typed error its result code names. */
function approvedOrThrow<T extends { result: { code: string; description: string } }>(answer: Answer<T>): T {
  if (isApproved(answer.body.result.code)) return answer.body;
  throw errorFor(answer);
}

/**
 * The card's id for the path, and the call's options: a saved card's brand picks
 * the entity as `options.brands` would, unless the options choose one themselves.
 */
function onSavedCard(transport: Transport, card: SavedCardReference, options: RequestOptions | undefined) {
  if (!isObject(card)) return { registrationId: pathId(transport, 'registrationId', card), options };
  const registrationId = pathId(transport, 'savedCard.registrationId', card.registrationId);
  const { paymentBrand } = card;
  if (paymentBrand === undefined) return { registrationId, options };
  if (!isPaymentBrand(paymentBrand))
    throw validationError([{ name: 'savedCard.paymentBrand', message: "must be a brand in the platform's spelling (VISA, MADA, …)" }]);
  // Options that are no object are left for the request layer to refuse; an entity they name wins over brands anyway.
  const chosen = options !== undefined && (!isObject(options) || options.brands !== undefined);
  return { registrationId, options: chosen ? options : { ...options, brands: [paymentBrand] } };
}

export function registrations(transport: Transport): Registrations {
  return {
    async create(request, options) {
      const params = flatten(request);
      const redact = transport.redactorFor(params);
      const call = { options, method: 'POST', path: '/v1/registrations', operation: 'registration', params, redact } as const;
      const answer = await transport.send<Registration>(call);
      // Another request's answer (another card, order or entity) would hand this shopper someone else's saved card.
      const determined = {
        merchantTransactionId: params.merchantTransactionId && redact.known(params.merchantTransactionId),
        entityId: transport.onEntity(options, params.paymentBrand).entityId,
        cardNumber: params['card.number'],
      };
      boundAnswer(answer.body, determined, 'the registration', redact);
      const registration = approvedOrThrow(answer);
      // Approved, it names the card it stored: without that id there is nothing to charge or delete by.
      if (typeof registration.id !== 'string' || registration.id === '')
        throw new GatewayNetworkError(
          'The answer to the registration names no registration id: not used (the card may be stored; store it again)',
          {
            redact,
          },
        );
      return registration;
    },
    async delete(card, given) {
      const { registrationId, options } = onSavedCard(transport, card, given);
      const path = `/v1/registrations/${registrationId}`;
      const params: Record<string, string> = transport.testMode ? { testMode: transport.testMode } : {};
      const answer = await transport.send<Deregistration>({ options, method: 'DELETE', path, params });
      const redact = transport.redactorFor({});
      const what = `the deletion of registration ${registrationId}`;
      // A deletion moves no money and names no other card: an answer that does is another request's.
      const { amount, registrationId: named } = answer.body as { amount?: unknown; registrationId?: unknown };
      if ((amount !== undefined && amount !== null) || (typeof named === 'string' && named !== registrationId))
        throw new GatewayNetworkError(`The answer to ${what} is another request's (it names an amount or another card): not used`, {
          redact,
        });
      boundAnswer(answer.body, { entityId: transport.onEntity(options).entityId }, what, redact);
      return approvedOrThrow(answer);
    },
    async createPayment(card, request, given) {
      const { registrationId, options } = onSavedCard(transport, card, given);
      return movePayment(
        transport,
        { path: `/v1/registrations/${registrationId}/payments`, operation: 'registrationPayment', request, registrationId },
        options,
      );
    },
  };
}
