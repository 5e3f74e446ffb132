/** Checkouts: their creation, and the status read of what they made. */
import { REQUEST_REFERENCE } from '../../contract/reference.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { boundAnswer, isCheckoutCreation, type Determined } from '../binding.js';
import { settle, settleRead } from '../interpret.js';
import { GatewayNetworkError, GatewayNotFoundError, GatewayValidationError } from '../errors.js';
import { flatten, type RequestOptions, type Transport } from '../request.js';
import { isRegistrationCheckout, type Variant } from '../../contract/rules.js';
import type { CheckoutCreated, CheckoutRegistration, CheckoutRequest, Payment } from '../types.js';
import { pathId } from './path.js';

export interface Checkouts {
  /**
   * Creates a checkout for the payment widget; `integrity` defaults to true so
   * the answer carries the script's integrity hash. Not retried: a timeout
   * leaves at most an unused checkout, which expires after 30 minutes.
   * It is created on the entity of `options.entityId`, else of `options.brands`
   * (the brands of its widget form), else of the request's `paymentBrand`; the
   * client remembers that entity for the checkout's status read.
   */
  create(request: CheckoutRequest, options?: RequestOptions): Promise<CheckoutCreated>;
  /**
   * Reads the payment of a checkout, once (never retried: the gateway allows 2
   * status calls a minute, and consumes the checkout on success). Prefer
   * `client.handleShopperReturn`, which remembers the answer and enforces the limit.
   * An expired or already consumed checkout is `GatewayNotFoundError`. Read on
   * the entity the client created it on, unless the options name one.
   */
  getPayment(checkoutId: string, options?: RequestOptions): Promise<Payment>;
  /**
   * Reads the card a registration-only checkout saved (`GET
   * /v1/checkouts/{id}/registration`, the platform's): once, never retried,
   * under the same limit and consumption as `getPayment`. Approved answers
   * (`000.100.110` in test mode) carry the token as `id`; a refused card is
   * thrown as the typed error its result code names. Prefer
   * `client.handleShopperReturn(query, { expect: 'registration' })`.
   */
  getRegistration(checkoutId: string, options?: RequestOptions): Promise<CheckoutRegistration>;
}

/**
 * What a checkout was created to make: what proves a transaction found later is
 * this checkout's and nobody else's (the merchantTransactionId alone may be the
 * order's, shared by its other checkouts, saved cards and refunds).
 */
export interface CheckoutMade {
  /** A payment (DB, PA) or, for a registration-only checkout, a saved card (absent in records of earlier versions). */
  readonly made?: 'payment' | 'registration';
  readonly merchantTransactionId?: string;
  /** The entity it was created on, which its status read and look-ups must use (absent in records of earlier versions). */
  readonly entityId?: string;
  /** The kit's random reference (`customParameters[GW_REFERENCE]`): the platform echoes it in the payment and its report entries. */
  readonly reference?: string;
  readonly paymentType?: string;
  readonly amount?: string;
  readonly currency?: string;
}

/** What the client keeps of the checkouts it creates, in its status store. */
export interface CheckoutMemory {
  /**
   * Keeps what a later status read needs: the checkout's entity, and what
   * tells "expired" from "paid, but its answer was lost" (that the kit created
   * it, and what it was created to make). Never fails the creation (the checkout exists).
   */
  remember(checkoutId: string, made: CheckoutMade): Promise<unknown>;
  /** What the checkout was created on and to make, or undefined when the store does not know it. */
  createdOf(checkoutId: string): Promise<CheckoutMade | undefined>;
}

export function checkouts(transport: Transport, memory?: CheckoutMemory): Checkouts {
  return {
    async create(request, options) {
      const params = flatten({ integrity: true, ...request });
      // Reserved like a payment's: a transaction a look-up finds is this checkout's only when it carries this reference.
      const reference = crypto.randomUUID();
      // The look-up key after a lost status answer (a paid checkout never read answers "no session" once it ends); a UUID is a valid AN..255 reference.
      // An empty one is none: the platform could not be asked for it.
      params.merchantTransactionId ||= crypto.randomUUID();
      params[`customParameters[${REQUEST_REFERENCE}]`] = reference;
      const on = transport.onEntity(options, params.paymentBrand);
      const answer = await transport.send<CheckoutCreated>({
        options: on,
        method: 'POST',
        path: '/v1/checkouts',
        operation: 'checkout',
        params,
        programme: (request as { programme?: Variant } | null)?.programme,
      });
      const created = settle(answer);
      // Only a creation with its checkout's id answers this request: a transaction's success is another request's, and
      // is neither returned as a checkout nor remembered (nothing to reconcile: a lost creation moves no money).
      if (!isCheckoutCreation(created.result.code) || typeof created.id !== 'string' || created.id === '')
        throw new GatewayNetworkError(
          `The answer to POST /v1/checkouts is not a checkout's creation (${created.result.code}${typeof created.id === 'string' ? '' : ', no id'}): not used`,
          { httpStatus: answer.status, resultCode: created.result.code, redact: transport.redactorFor(params) },
        );
      if (memory)
        await memory
          .remember(created.id, {
            made: isRegistrationCheckout(params) ? 'registration' : 'payment',
            merchantTransactionId: params.merchantTransactionId,
            entityId: on.entityId,
            reference,
            paymentType: params.paymentType,
            amount: params.amount,
            currency: params.currency,
          })
          .catch(() => undefined);
      return created;
    },

    getPayment: (checkoutId, options) => readCheckout<Payment>(checkoutId, 'payment', options),
    getRegistration: (checkoutId, options) => readCheckout<CheckoutRegistration>(checkoutId, 'registration', options),
  };

  /** One read of what a checkout made: its payment, or the card a registration-only checkout saved. */
  async function readCheckout<T extends { result: { code: string; description: string } }>(
    checkoutId: string,
    made: 'payment' | 'registration',
    options: RequestOptions | undefined,
  ): Promise<T> {
    const path = `/v1/checkouts/${pathId(transport, 'checkoutId', checkoutId)}/${made}`;
    // A checkout's payment is on the checkout's entity: the one the client created it on, unless the caller names one.
    let created: CheckoutMade | undefined;
    if (memory && options?.entityId === undefined && options?.brands === undefined) {
      created = await memory.createdOf(checkoutId).catch(() => undefined);
      if (created?.entityId !== undefined) options = { ...options, entityId: created.entityId };
    }
    try {
      const answer = await transport.send<T>({ options, method: 'GET', path, retries: 0 });
      // Bound before it is read: the answer names this checkout, and carries what it was created with, or is another's.
      const what = `checkout ${checkoutId}'s status read`;
      const redact = transport.redactorFor({});
      boundAnswer(answer.body, checkoutDetermined(checkoutId, made, created), what, redact);
      // A checkout not paid yet is pending and names nothing; an approval names the payment or saved card it made.
      return settleRead(answer, what, redact, true);
    } catch (error) {
      // The gateway answers an expired or consumed checkout with the invalid-parameter code and no parameter: it is gone, not malformed.
      if (error instanceof GatewayValidationError && error.resultCode === RESULT_CODES.invalidParameter && !error.parameterErrors.length) {
        const { resultCode, description, resultKind, httpStatus } = error;
        throw new GatewayNotFoundError(`Checkout ${checkoutId} is expired or its payment was already read: ${error.message}`, {
          resultCode,
          description,
          resultKind,
          httpStatus,
          cause: error,
          // A checkout id may be the token, mistaken (it has an id's shape without its padding).
          redact: transport.redactorFor({}),
        });
      }
      throw error;
    }
  }
}

/**
 * What a checkout's status read determines of its answer: the checkout (`ndc`), and, when the kit remembers its
 * creation, its reference and, for a payment, the type, amount and currency it was created with.
 */
export const checkoutDetermined = (
  checkoutId: string,
  made: 'payment' | 'registration',
  created: CheckoutMade | undefined,
): Determined => ({
  checkoutId,
  reference: created?.reference,
  ...(made === 'payment' && created ? { paymentType: created.paymentType, amount: created.amount, currency: created.currency } : {}),
});
