/**
 * Handling the shopper's return to the shopperResultUrl: the query's
 * `resourcePath` is checked against the two paths the gateway sends, the status
 * is read at most as often as the gateway allows, and the first approved
 * payment is remembered, under the entity it was read on. A read whose answer
 * was lost is remembered too, so a later "no payment session found" is never
 * taken for "expired" on any instance. Every answer is bound to its read: its
 * own type decides payment or saved card, and a transaction a look-up finds is
 * the checkout's only when it carries the checkout's reference, type, amount
 * and currency.
 */
import { ATTEMPT_LIFETIME_MS, CHECKOUT_LIFETIME_MS, STATUS_CALL_WINDOW_MS, STATUS_CALLS_PER_MINUTE } from '../contract/limits.js';
import { referenceOf } from '../contract/reference.js';
import type { Redactor } from '../contract/redaction.js';
import { appendedParameter, parseResourcePath, type ResourcePath } from '../contract/resource-path.js';
import { classifyResult, isApproved } from '../contract/result-codes.js';
import {
  CheckoutPendingError,
  GatewayError,
  GatewayNetworkError,
  GatewayNotFoundError,
  GatewayThrottledError,
  GatewayValidationError,
  StatusUnknownError,
  UncertainOutcomeError,
} from './errors.js';
import { boundAnswer, contradictions, sameAmount } from './binding.js';
import { answerText, checkRequestOptions, isGatewayAnswer, validationError, type RequestOptions, type Transport } from './request.js';
import { checkoutDetermined, type CheckoutMade, type Checkouts } from './resources/checkouts.js';
import type { Payments } from './resources/payments.js';
import type { Reports } from './resources/reports.js';
import { acquire, guarded, StatusStoreUnavailableError, type Lease, type StatusStore } from './coordination/status-store.js';
import type { CheckoutRegistration, Payment } from './types.js';

/** The query of the shopper's return: `?id=…&resourcePath=…` (Express's `req.query`, a URLSearchParams' entries, …). */
export interface ShopperReturn {
  id?: unknown;
  resourcePath?: unknown;
}

/**
 * Which checkout a return is expected from: a payment checkout (the default;
 * also a server-to-server payment's 3DS return) or a registration-only one.
 * Asked for, so the compiler tells the card a registration saved from a
 * payment that moved money.
 */
export type ShopperReturnOptions = RequestOptions & { expect?: 'payment' };
export type RegistrationReturnOptions = RequestOptions & { expect: 'registration' };

/** `client.handleShopperReturn`: a payment by default, the saved card with `{ expect: 'registration' }`. */
export interface HandleShopperReturn {
  (query: ShopperReturn, options?: ShopperReturnOptions): Promise<Payment>;
  (query: ShopperReturn, options: RegistrationReturnOptions): Promise<CheckoutRegistration>;
}

/** What the kit remembers of a checkout it created (`checkout:{id}` in the status store, as a final value). */
export interface CreatedCheckout extends CheckoutMade {
  /** When it was created, on the client's clock: a record older than the store's data (a copy that outlived a loss) proves nothing. */
  readonly createdAt?: number;
}

export const createdCheckoutKey = (checkoutId: string) => `checkout:${checkoutId}`;

const retryAfterSeconds = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));
const UNKNOWN_RETRY_SECONDS = STATUS_CALL_WINDOW_MS / 1000;

/** A value the store gave back, read as what was written; anything else (a corrupted record) is the store failing, typed. */
function parsed<T>(value: string, accept: (value: unknown) => value is T): T {
  let result: unknown;
  try {
    result = JSON.parse(value);
  } catch (error) {
    throw new StatusStoreUnavailableError('The status store holds an unreadable record', {
      cause: error,
      retryAfterSeconds: UNKNOWN_RETRY_SECONDS,
    });
  }
  if (!accept(result))
    throw new StatusStoreUnavailableError("The status store holds a record that is not the kit's", {
      retryAfterSeconds: UNKNOWN_RETRY_SECONDS,
    });
  return result;
}

const isCreatedCheckout = (value: unknown): value is CreatedCheckout => {
  const { made, merchantTransactionId, entityId, reference, paymentType, amount, currency, createdAt } = (value ?? {}) as CreatedCheckout;
  const text = (field: unknown) => field === undefined || typeof field === 'string';
  return (
    typeof value === 'object' &&
    value !== null &&
    (made === undefined || made === 'payment' || made === 'registration') &&
    [merchantTransactionId, entityId, reference, paymentType, amount, currency].every(text) &&
    (createdAt === undefined || typeof createdAt === 'number')
  );
};

/**
 * What the store remembers of a checkout the kit created, or undefined when it does not know it; a store that
 * cannot answer, or holds a record that is not the kit's, throws `StatusStoreUnavailableError`.
 */
export async function createdCheckoutOf(store: StatusStore, checkoutId: string): Promise<CreatedCheckout | undefined> {
  const value = store.read ? await guarded(() => store.read!(createdCheckoutKey(checkoutId))) : undefined;
  return value === undefined ? undefined : parsed(value, isCreatedCheckout);
}

/** True when the gateway certainly answered (an error with its result code, below HTTP 500): the read's outcome is known. */
const answered = (error: unknown) =>
  error instanceof GatewayError &&
  !(error instanceof GatewayNetworkError) &&
  !(error instanceof UncertainOutcomeError) &&
  error.resultCode !== undefined &&
  (error.httpStatus ?? 0) < 500;

/** What a return reads: a payment, or the card a registration-only checkout saved. */
type Made = Payment | CheckoutRegistration;

/** One status read shared by every concurrent return for a path on one entity in this process. */
interface Shared {
  promise: Promise<Made>;
  /**
   * Aborted when every participant left before the read was sent. Only a read whose first caller
   * brought a signal has one: a caller without a signal never leaves, so the read is never abandoned
   * (and an AbortController costs about 25 µs in Node 20, a tenth of a status read on loopback).
   */
  readonly controller: AbortController | undefined;
  participants: number;
  sent: boolean;
}

/**
 * True when the store saw the checkout's whole life: it remembers its creation,
 * and its data began strictly before that (a store that lost its data, or an instance's
 * copy that outlived the loss, cannot vouch that no earlier read consumed it).
 */
const sawWholeLife = (created: CreatedCheckout | undefined, since: number | undefined): created is CreatedCheckout =>
  // A store that does not say when its data began vouches for every record; a record without its creation time, for none.
  created !== undefined && (since === undefined || (created.createdAt ?? since) > since);

/**
 * When nothing of the checkout can complete any more: an attempt started in its
 * last moment stays open for a pending transaction's lifetime after the checkout
 * ends. Undefined when its creation time is not known (then it is never certain).
 */
const decidedAt = (created: CreatedCheckout) =>
  created.createdAt === undefined ? undefined : created.createdAt + CHECKOUT_LIFETIME_MS + ATTEMPT_LIFETIME_MS;

/**
 * Whether an answer is of the kind its read asks for. The answer's own type
 * decides, never the shopper's `resourcePath`: money has a type other than a
 * registration's and an amount; a saved card has no amount and no other type.
 * The result alone (nothing made yet) is either's.
 */
function ofKind(answer: Made, registration: boolean): boolean {
  const { id, paymentType, amount } = answer as { id?: unknown; paymentType?: unknown; amount?: unknown };
  // The platform's null is a field it did not fill: absent, as a tolerant reader takes it.
  const absent = (field: unknown) => field === undefined || field === null;
  if (absent(id) && absent(paymentType) && absent(amount)) return true;
  if (registration) return absent(amount) && (absent(paymentType) || paymentType === 'RG');
  // Money when a field says so and none says otherwise: a type other than RG, or an amount (a saved card has none).
  return paymentType !== 'RG' && (typeof paymentType === 'string' || typeof amount === 'string');
}

/**
 * Whether a transaction found under the checkout's merchantTransactionId (which
 * may be its order's, shared by other checkouts, saved cards and refunds) is
 * this checkout's: `'own'` when it provably is (it carries the checkout's id or
 * the kit's reference, and the type, amount and currency it was created with),
 * undefined when it provably is not (a saved card, another type, or another
 * reference, checkout, amount or currency without the checkout's own proof),
 * `'maybe'` otherwise. An entry carrying the checkout's own proof but terms that
 * are missing, null, malformed or different is `'maybe'`: never "not ours".
 */
function belonging(payment: Payment, checkoutId: string, created: CreatedCheckout): 'own' | 'maybe' | undefined {
  const { paymentType, amount, currency } = created;
  const other = contradictions(payment, { checkoutId, reference: created.reference, paymentType, amount, currency });
  // A saved card, a capture, refund or reversal under the same order: another transaction, whatever it carries.
  if (payment.paymentType === 'RG' || other.some(({ field }) => field === 'paymentType')) return undefined;
  const reference = referenceOf(payment);
  // A checkout remembered without a reference was created without one (an earlier version): an entry with one is another request's.
  if (created.reference === undefined && reference !== undefined) return undefined;
  const ours = (created.reference !== undefined && reference === created.reference) || payment.ndc === checkoutId;
  if (!ours) return other.length ? undefined : 'maybe';
  const agreed =
    !other.length &&
    paymentType !== undefined &&
    payment.paymentType === paymentType &&
    sameAmount(payment.amount, amount) &&
    currency !== undefined &&
    payment.currency === currency;
  return agreed ? 'own' : 'maybe';
}

const open = (payment: Payment) => ['pending', 'pending_extended', 'uncertain', 'unknown'].includes(classifyResult(payment.result.code));

/**
 * Ends a read whose answer was lost, or that the gateway answered "no session"
 * without proof either way. An "unknown" mark (kept as long as an answer) is
 * left only for a checkout this store saw created: only there can a later
 * "no session" be proved "expired", which the mark forbids. One whose earlier
 * read went unanswered keeps the mark it has (a release never clears it). An id
 * nobody authenticated (a random one in a query string, a flood of them during
 * an outage) leaves nothing behind, so it cannot fill the store; its next read
 * answers "unknown" again.
 */
async function leaveMark(lease: Lease, created: CreatedCheckout | undefined): Promise<void> {
  await (created ? lease.unanswered(true) : lease.release()).catch(() => undefined);
}

/**
 * The typed refusal of a return read as the other kind (a payment's as a saved card, or the other way round): found
 * before its read (nothing sent), or in its answer (`read`: the read went out).
 */
function otherKind(resourcePath: string, registration: boolean, why: string, redact: Redactor, read = false): GatewayValidationError {
  const error = {
    name: 'resourcePath',
    // A path parseResourcePath accepted: the gateway's shape, short.
    value: resourcePath,
    message: registration
      ? `is a payment checkout's (${why}): read it without { expect: 'registration' }`
      : `is a registration-only checkout's (${why}): read it with { expect: 'registration' }`,
  };
  if (!read) return validationError([error], redact);
  return new GatewayValidationError(`The checkout was read, and is another kind than expected: ${error.name} ${error.message}`, {
    parameterErrors: [error],
    redact,
  });
}

export function shopperReturnHandler(
  transport: Transport,
  store: StatusStore,
  resources: { checkouts: Checkouts; payments: Payments; reports: Reports },
) {
  const inFlight = new Map<string, Shared>();
  // The token's scrubber for every error below: a query may hold the token by mistake (without its padding, it has a
  // checkout id's shape), and the messages name the checkout.
  const redact = transport.redactorFor({});

  async function read(
    resourcePath: string,
    { kind, id }: ResourcePath,
    shared: Shared,
    timeoutMs: number | undefined,
    entityId: string,
    created: CreatedCheckout | undefined,
  ): Promise<Made> {
    // A registration-only checkout's read is a checkout status read too: the same limit, the same consumption.
    const checkout = kind !== 'payment';
    // Only the checkout status is limited (and consumed by a successful read); a payment may be read freely, but one read is enough.
    const limit = checkout ? { count: STATUS_CALLS_PER_MINUTE, windowMs: STATUS_CALL_WINDOW_MS } : undefined;
    // The gateway's answer depends on the entity it is asked on (another entity is refused): so does what is remembered.
    const key = `status:${entityId}:${resourcePath}`;
    const acquired = await acquire(store, key, { now: transport.now, limit, signal: shared.controller?.signal });
    const what = checkout ? `Status of checkout ${id}` : `Payment ${id}`;
    switch (acquired.kind) {
      case 'value':
        return parsed(acquired.value, isGatewayAnswer) as Made;
      case 'limited':
        throw new GatewayThrottledError(`${what} was read ${STATUS_CALLS_PER_MINUTE} times this minute (the gateway's limit); not sent`, {
          retryAfterSeconds: retryAfterSeconds(acquired.retryAt, transport.now()),
          paymentMayExist: true,
          redact,
        });
      case 'busy':
        throw new GatewayThrottledError(`${what} is being read by another request that has not answered yet; not sent`, {
          retryAfterSeconds: retryAfterSeconds(acquired.until, transport.now()),
          paymentMayExist: true,
          redact,
        });
    }
    const { lease } = acquired;
    if (shared.controller?.signal.aborted) {
      await lease.release().catch(() => undefined);
      // Nothing was read, so nothing is known: the shopper may have paid (never a safe new attempt).
      throw new GatewayNetworkError('Every caller of this shopper return aborted before its status read was sent; nothing was sent', {
        cause: shared.controller.signal.reason,
        paymentMayExist: true,
        redact,
      });
    }
    shared.sent = true;
    let payment: Made;
    try {
      // No caller's signal: the read is shared, and once sent its answer is kept for everyone.
      const options = { entityId, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
      payment =
        kind === 'registration'
          ? await resources.checkouts.getRegistration(id, options)
          : checkout
            ? await resources.checkouts.getPayment(id, options)
            : await resources.payments.get(id, options);
    } catch (error) {
      if (kind === 'registration' && error instanceof GatewayNotFoundError)
        return registrationNotFound(id, lease, acquired.unanswered, error, acquired.since, created);
      if (checkout && error instanceof GatewayNotFoundError)
        return notFound(id, lease, acquired.unanswered, error, entityId, acquired.since, created);
      // Declines are not shared (a checkout may carry a failed attempt and then a paid one); a lost answer is remembered as lost.
      if (answered(error)) {
        await lease.release().catch(() => undefined);
        throw error;
      }
      await leaveMark(lease, created);
      throw lostAnswer(error);
    }
    if (!ofKind(payment, kind === 'registration')) {
      // Never taken for the other kind, nor forgotten: the checkout may be consumed, so the next read reconciles.
      await lease.unanswered().catch(() => undefined);
      throw otherKind(
        resourcePath,
        kind === 'registration',
        `the gateway answered it with a ${payment.paymentType ?? 'transaction'}`,
        redact,
        true,
      );
    }
    // Another request's answer (another checkout, reference, type, amount or currency) is never this read's, nor kept:
    // this read's own answer is lost, and the checkout may be consumed, so the next read reconciles. (A payment's
    // read is bound by `payments.get`; a checkout's, there by its id only, here by what the checkout was created with.)
    if (checkout)
      try {
        const made = kind === 'registration' ? 'registration' : 'payment';
        boundAnswer(payment, checkoutDetermined(id, made, created), `checkout ${id}'s status read`, transport.redactorFor({}));
      } catch (error) {
        await leaveMark(lease, created);
        throw lostAnswer(error);
      }
    return keep(lease, payment);

    /**
     * The read was sent and its answer lost (no answer, a timeout, a gateway error, another request's answer): the
     * shopper may have paid, and a checkout's read may have consumed it, so neither "failed" (a new attempt is not
     * safe) nor "expired". The mark left makes the next read reconcile.
     */
    function lostAnswer(cause: unknown): StatusUnknownError {
      const why = cause instanceof Error ? cause.message : 'no answer';
      return new StatusUnknownError(
        `${what}: the answer to its read was lost (${why}), so whether it was paid is unknown. Do not treat it as failed or expired, nor offer a new payment; try again later.`,
        {
          merchantTransactionId: created?.merchantTransactionId ?? '',
          retryAfterSeconds: UNKNOWN_RETRY_SECONDS,
          cause,
          redact,
        },
      );
    }
  }

  /** Stores the answer (the first approved payment is the answer from now on) and returns what the store holds. */
  async function keep<T extends Made>(lease: Lease, payment: T): Promise<T> {
    // When the store cannot take the answer, the shopper still gets it: the gateway's answer is never thrown away.
    // The gateway's own text when the answer is that text parsed (nothing in it was scrubbed): no second serialisation.
    const text = answerText(payment) ?? JSON.stringify(payment);
    const stored = await lease.settle(text, isApproved(payment.result.code)).catch(() => undefined);
    // The store holds this very answer (no need to read it back) or an earlier approved one, which wins.
    return stored !== undefined && stored !== text ? (parsed(stored, isGatewayAnswer) as T) : payment;
  }

  /**
   * "No payment session found" for a registration-only checkout: believed when
   * this store saw it created and no read of it went unanswered. Otherwise an
   * earlier read may have consumed it with the saved card in its lost answer:
   * no money moved, but whether a card was saved is unknown, never "none".
   */
  async function registrationNotFound(
    checkoutId: string,
    lease: Lease,
    unanswered: boolean,
    error: GatewayNotFoundError,
    since: number | undefined,
    created: CreatedCheckout | undefined,
  ): Promise<never> {
    // Unlike a payment's, a saved card cannot be looked up by the checkout's merchantTransactionId: "no session" is
    // an expired checkout or one that saved a card nobody read, and a card saved but never known is one the merchant
    // can neither charge nor delete. So it is never "no card", however much of the checkout's life the store saw.
    if (sawWholeLife(created, since) && !unanswered) await lease.release().catch(() => undefined);
    else await leaveMark(lease, created);
    throw new StatusUnknownError(
      `Whether checkout ${checkoutId} saved a card is unknown: the gateway no longer has its session (it expired, or it saved a card that nobody has read, or a read this status store did not see consumed it). No money moved; ask the shopper to save the card again if none arrived.`,
      {
        merchantTransactionId: created?.merchantTransactionId ?? '',
        retryAfterSeconds: UNKNOWN_RETRY_SECONDS,
        cause: error,
        redact,
      },
    );
  }

  /**
   * "No payment session found" means expired or consumed, but a checkout paid
   * and never read, or with a 3-D Secure attempt still open (it outlives its
   * checkout by a pending transaction's lifetime), answers it too. So the
   * checkout's transactions are looked up by the merchantTransactionId
   * remembered at creation, and only one provably the checkout's is its answer.
   * One that may still complete is "pending" when this store saw every read of
   * the checkout, else "unknown"; nothing of it at all is "expired" (the
   * gateway's error). Without a look-up, "expired" is believed only when this
   * store saw every read and nothing of the checkout can complete any more.
   */
  async function notFound(
    checkoutId: string,
    lease: Lease,
    unanswered: boolean,
    error: GatewayNotFoundError,
    entityId: string,
    since: number | undefined,
    created: CreatedCheckout | undefined,
  ): Promise<Payment> {
    const known = sawWholeLife(created, since) && !unanswered;
    const decided = created && decidedAt(created);
    const now = transport.now();
    const merchantTransactionId = created?.merchantTransactionId ?? '';
    const expired = async () => {
      // Proven unpaid. Unless every read is known, the mark stays, so a later read checks again.
      await (known ? lease.release() : lease.unanswered(true)).catch(() => undefined);
      return error;
    };
    const unknown = async (why: string, cause: unknown = error) => {
      // The mark stays: the next reader reconciles again.
      await leaveMark(lease, created);
      return new StatusUnknownError(
        `Whether checkout ${checkoutId} was paid is unknown: the gateway no longer has its session and ${why}. Do not treat it as expired; try again later.`,
        { merchantTransactionId, retryAfterSeconds: UNKNOWN_RETRY_SECONDS, cause, redact },
      );
    };
    // Every read is known and none was approved, but an attempt may still complete: pending, with when to ask again.
    const pending = async (why: string) => {
      await lease.release().catch(() => undefined);
      const until = decided ?? now + UNKNOWN_RETRY_SECONDS * 1000;
      return new CheckoutPendingError(
        `Checkout ${checkoutId} is not paid yet, and ${why}: it is not expired before ${new Date(until).toISOString()}. Do not offer a new checkout for the order; ask again later.`,
        {
          merchantTransactionId,
          retryAfterSeconds: Math.min(UNKNOWN_RETRY_SECONDS, retryAfterSeconds(until, now)),
          decidedAt: until,
          cause: error,
          redact,
        },
      );
    };
    const over = decided !== undefined && now >= decided;
    if (!merchantTransactionId) {
      // Without a key nothing tells "expired" from "paid and never read": both answer "no session" once it ends.
      if (known && over) throw await unknown('it has no merchantTransactionId to look it up by');
      if (known) throw await pending('an attempt of it may still complete (it has no merchantTransactionId to look it up by)');
      throw await unknown(
        created
          ? 'it has no merchantTransactionId to look it up by'
          : 'the status store does not know it from its creation (an earlier read may have consumed it)',
      );
    }
    let payments: readonly Payment[];
    try {
      // On the entity the checkout was read on: its payments are nowhere else.
      ({ payments } = await resources.reports.findByMerchantTransactionId(merchantTransactionId, { entityId }));
    } catch (lookup) {
      if (known && !over) throw await pending('looking up whether an attempt of it is still open failed');
      throw await unknown('looking it up by its merchantTransactionId failed', lookup);
    }
    const own = payments.filter((payment) => belonging(payment, checkoutId, created!) === 'own');
    const maybe = payments.filter((payment) => belonging(payment, checkoutId, created!) === 'maybe');
    const paid = own.find((payment) => isApproved(payment.result.code));
    if (paid) return keep(lease, paid);
    if (maybe.some((payment) => isApproved(payment.result.code)))
      throw await unknown('a transaction under its merchantTransactionId may be its payment, but nothing proves it is');
    if ([...own, ...maybe].some(open)) {
      if (known) throw await pending('an attempt of it is still open');
      throw await unknown('a payment of it is not final yet');
    }
    throw await expired();
  }

  /** Joins the shared read; leaving (the caller's signal aborts) rejects this caller only. */
  function participate(shared: Shared, signal: AbortSignal | undefined): Promise<Made> {
    shared.participants++;
    if (!signal) return shared.promise;
    return new Promise<Made>((resolve, reject) => {
      const leave = () => {
        shared.participants--;
        // The last one out cancels only what was not sent yet: a sent read is answered and kept for the next return.
        if (shared.participants === 0 && !shared.sent) shared.controller?.abort(signal.reason);
        reject(
          new GatewayNetworkError('The shopper return was aborted by its caller; the status read it joined goes on for the others', {
            cause: signal.reason,
            paymentMayExist: true,
            redact,
          }),
        );
      };
      if (signal.aborted) return leave();
      // Removed once the read settles; a signal aborts at most once.
      signal.addEventListener('abort', leave);
      shared.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  }

  /**
   * The payment the shopper's return is about. Returns approved and pending
   * payments; throws `GatewayDeclinedError` (and the other typed errors) like the
   * status reads, `GatewayValidationError` for a `resourcePath` that is not one
   * of the gateway's or names the other kind of checkout (or is answered with
   * the other kind), `GatewayThrottledError` instead of a third call in a minute
   * (or when another request's read did not answer within the store's `waitMs`),
   * `StatusStoreUnavailableError` when the shared store cannot answer (or is full),
   * `StatusUnknownError` when the checkout may have been paid but no answer proves it,
   * `CheckoutPendingError` while an attempt of it may still complete,
   * `GatewayNotFoundError` only for a checkout proven unpaid.
   */
  async function handleShopperReturn(query: ShopperReturn, options?: ShopperReturnOptions | RegistrationReturnOptions): Promise<Made> {
    // The options are used before a request is built (the shared read waits on the signal): checked first, as any call's.
    checkRequestOptions(options, redact);
    // A missing query (no parameters at all) is refused like a bad one below, not dereferenced.
    const id = appendedParameter(query?.id);
    const resourcePath = appendedParameter(query?.resourcePath);
    const target = typeof resourcePath === 'string' ? parseResourcePath(resourcePath) : undefined;
    const registration = options?.expect === 'registration';
    // A payment's return is never read as a saved card, nor the other way round: each has its own answer type.
    if (!target || (id !== undefined && id !== target.id) || (target.kind === 'registration') !== registration) {
      const value = typeof resourcePath === 'string' ? resourcePath.slice(0, 100) : '';
      const message = registration
        ? 'must be /v1/checkouts/{id}/registration (a registration-only checkout), with the same id as the id parameter'
        : target?.kind === 'registration'
          ? "is a registration-only checkout's: read it with { expect: 'registration' }"
          : 'must be /v1/checkouts/{id}/payment or /v1/payments/{id}, with the same id as the id parameter';
      throw validationError([{ name: 'resourcePath', value, message }], redact);
    }
    const path = resourcePath as string;
    // What the kit remembers of a checkout's creation: its entity, and what its answers must be.
    // A store that cannot answer (or holds a record not the kit's) fails the return here, typed, before anything is sent.
    const created = target.kind === 'payment' ? undefined : await createdCheckoutOf(store, target.id);
    if (created?.made !== undefined && (created.made === 'registration') !== registration)
      throw otherKind(path, registration, 'it was created so', redact);
    // A checkout is read on the entity it was created on unless the caller names one; the answer depends on it.
    const chosen = options?.entityId !== undefined || options?.brands !== undefined;
    const entityId = chosen || created?.entityId === undefined ? transport.onEntity(options).entityId : created.entityId;
    const key = `${entityId} ${path}`;
    let shared = inFlight.get(key);
    // A read every participant left before it was sent is winding down: a newcomer starts its own.
    if (!shared || shared.controller?.signal.aborted) {
      const entry = { controller: options?.signal ? new AbortController() : undefined, participants: 0, sent: false } as Shared;
      entry.promise = read(path, target, entry, options?.timeoutMs, entityId, created).finally(
        () => inFlight.get(key) === entry && inFlight.delete(key),
      );
      // A read every participant left still settles; its failure is nobody's to handle.
      entry.promise.catch(() => undefined);
      inFlight.set(key, entry);
      shared = entry;
    }
    return participate(shared, options?.signal);
  }
  return handleShopperReturn as HandleShopperReturn;
}
