/**
 * The sandbox's state: checkouts, payments and registrations per entity, on a
 * clock tests can move. Memory stays bounded: expired checkouts are swept, each
 * kind of record keeps at most a configured number, and checkouts and payments
 * together at most `storeBytes`, oldest dropped first.
 */
import { ATTEMPT_LIFETIME_MS, CHECKOUT_LIFETIME_MS } from '../../contract/limits.js';
import { hexOf, sha256Hex, utf8Length } from '../bytes.js';
import type { TestMode } from '../../contract/formats.js';
import { DEFAULT_LIMITS, fieldBytes, RECORD_OVERHEAD_BYTES, type SandboxLimits } from '../limits.js';
import { describeResult, RESULT_CODES, type GatewayResult } from '../../contract/result-codes.js';
import type { CardBehaviour } from './triggers.js';

/** A hundred years: further, dates would leave the range timestamps and ISO strings can show. */
export const MAX_CLOCK_OFFSET_SECONDS = 100 * 365 * 24 * 3600;

/** The sandbox's time: the real clock (the runtime's) plus whatever tests advanced it by. */
export class SandboxClock {
  #offsetMs = 0;
  constructor(private readonly realTime: () => number) {}
  /** Told after every move, so work due on the sandbox clock (notification retries) runs without a real wait. */
  onAdvance: () => void = () => {};
  nowMs(): number {
    return this.realTime() + this.#offsetMs;
  }
  now(): Date {
    return new Date(this.nowMs());
  }
  /** Moves time forward; the 30-minute checkout lifetime and per-minute limits follow it. */
  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0 || this.#offsetMs + seconds * 1000 > MAX_CLOCK_OFFSET_SECONDS * 1000) {
      throw new RangeError(`the clock advances by 0 to ${MAX_CLOCK_OFFSET_SECONDS} seconds in all`);
    }
    this.#offsetMs += seconds * 1000;
    this.onAdvance();
  }
  /** Seconds the clock may still advance. */
  headroomSeconds(): number {
    return MAX_CLOCK_OFFSET_SECONDS - this.#offsetMs / 1000;
  }
  reset(): void {
    this.#offsetMs = 0;
  }
}

/** What the response may show of a card: never the number or the security code. */
export interface CardSummary {
  readonly bin: string;
  readonly last4Digits: string;
  readonly holder?: string;
  readonly expiryMonth: string;
  readonly expiryYear: string;
  /** BIN data the platform adds from its BIN tables; the sandbox's come from `bin-data.ts`. */
  readonly issuer?: { readonly bank: string };
  readonly type?: string;
  readonly country?: string;
  readonly maxPanLength?: string;
  readonly regulatedFlag?: string;
}

/** Flat request parameters exactly as they came over the wire (`card.number`, `customParameters[X]`): what the gateway is given. */
export type FlatParams = Record<string, string>;

/** The one `result` shape, shared with the server helper. */
export type Result = GatewayResult;

/** A result with the platform's description of its code. */
export function result(code: string, description = describeResult(code) ?? code): Result {
  return { code, description };
}

/** A gateway 3DS step in progress (or finished) for one payment. */
export interface ThreeDsSession {
  /** Opaque, unguessable: it is all the public 3DS pages are given. */
  readonly token: string;
  readonly flow: 'frictionless' | 'challenge';
  readonly methodData: boolean;
  /** What happens after a successful authentication: the card's own behaviour. */
  readonly afterAuthentication: CardBehaviour;
  /** Where the shopper goes when the step ends, with `id` and `resourcePath` appended. */
  readonly shopperResultUrl: string;
  methodPosted: boolean;
  finished: boolean;
  /** Another attempt paid the checkout while this step was open: it can only be refused, even once the checkout's record is gone. */
  checkoutPaidElsewhere?: true;
}

export interface PaymentRecord {
  readonly id: string;
  readonly entityId: string;
  readonly createdAt: number;
  readonly paymentType: string;
  readonly amount: string;
  readonly amountCents: number;
  readonly currency: string;
  readonly paymentBrand?: string;
  readonly merchantTransactionId?: string;
  readonly testMode: TestMode;
  /** Request fields echoed in the response (customer, billing, custom parameters…), flat. */
  readonly echo: FlatParams;
  readonly card?: CardSummary;
  readonly referencedId?: string;
  readonly checkoutId?: string;
  readonly shortId: string;
  result: Result;
  resultDetails: Record<string, string>;
  threeDSecure?: Record<string, string>;
  standingInstruction?: Record<string, string>;
  registrationId?: string;
  /** Whether the request asked to save the card; honoured once the payment is approved. */
  readonly createRegistration: boolean;
  /** Kept only to register the card once approved: its behaviour, never its number. */
  readonly behaviour: CardBehaviour;
  threeDs?: ThreeDsSession;
  /** Sums in cents of approved captures (on a PA) and refunds (on a DB or CP). */
  capturedCents: number;
  refundedCents: number;
  reversed: boolean;
  /**
   * Set on a transaction refused before any bank saw it (gateway/payments.ts `recordRefusal`): it is
   * answered with the fields its refusal showed (no amount, descriptor or result details), and the
   * risk score the platform gives it, if any.
   */
  readonly refused?: { readonly riskScore?: string };
}

export interface CheckoutRecord {
  readonly id: string;
  readonly entityId: string;
  readonly createdAt: number;
  expiresAt: number;
  /** The validated creation parameters, the base of every payment made on it. */
  readonly params: FlatParams;
  paymentIds: string[];
  /**
   * Until when a 3DS attempt on it may still finish. The record outlives its
   * expiry until then, so an attempt approved late is still found by the status read.
   */
  attemptsOpenUntil: number;
  consumed: boolean;
  /** The card a registration-only checkout's widget saved (`/v1/checkouts/{id}/registration`). */
  registrationId?: string;
  /** The attempt that paid it: a checkout is paid once, even after that payment's record was dropped for room. */
  paidBy?: string;
  /** Times of recent status reads, for the 2-a-minute limit. */
  reads: number[];
}

export interface RegistrationRecord {
  readonly id: string;
  readonly entityId: string;
  readonly paymentBrand?: string;
  readonly card?: CardSummary;
  readonly behaviour: CardBehaviour;
  readonly testMode: TestMode;
  /** When it was stored, on the sandbox clock: the byte budget drops the oldest record of any kind first. */
  readonly createdAt: number;
  /** The payment that saved the card; none when it was stored by `POST /v1/registrations`. */
  readonly initialPaymentId?: string;
  /** The approved customer-initiated payment later merchant-initiated ones name: its CardholderInitiatedTransactionID and type (as requested). */
  initial?: { readonly transactionId: string; readonly type: string };
  /** The standing instruction it was stored with, answered as sent. */
  readonly standingInstruction?: Record<string, string>;
  /** Deregistered (`DELETE /v1/registrations/{id}`): kept so a second delete answers `100.150.202`. */
  deregistered: boolean;
}

/** What changed in the store, for the notifications: a payment created or changed, a registration created or deleted. */
export type StoreChange =
  | { readonly type: 'PAYMENT'; readonly payment: PaymentRecord }
  | { readonly type: 'REGISTRATION'; readonly action: 'CREATED' | 'DELETED'; readonly registration: RegistrationRecord };

export const THREE_DS_TIMED_OUT: Result = {
  code: RESULT_CODES.pendingTimedOut,
  description: describeResult(RESULT_CODES.pendingTimedOut)!,
};

/**
 * The host part the platform appends to checkout ids (`….uat01-vm-tx03`): the
 * sandbox's has the same shape and length, so code that stores or matches real
 * checkout ids handles the sandbox's too.
 */
export const CHECKOUT_ID_HOST = '.sbx01-vm-tx01';

/**
 * 32-character lower-case hex ids: AN32 like the platform's, and unguessable,
 * drawn from the runtime's CSPRNG 4 KB at a time.
 */
export function randomIds(randomBytes: (size: number) => Uint8Array): () => string {
  let pool: Uint8Array = new Uint8Array(0);
  let offset = 0;
  return () => {
    if (offset + 16 > pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    offset += 16;
    return hexOf(pool.subarray(offset - 16, offset));
  };
}

const SWEEP_EVERY = 1024;

/**
 * Records by id, remembering their creation order in a queue, so dropping the
 * oldest costs O(1). (A Map's own iterator slows down as deletions pile up at
 * its front: evicting through it cost 88 µs a record at 50,000 records.) Each
 * record counts its bytes, so the store can keep a byte budget.
 */
export class RecordMap<V extends { readonly id: string }> {
  readonly #byId = new Map<string, { readonly record: V; readonly bytes: number }>();
  #order: string[] = [];
  #head = 0;
  #bytes = 0;

  get size(): number {
    return this.#byId.size;
  }
  /** The bytes the records count against the store's budget. */
  get bytes(): number {
    return this.#bytes;
  }
  get(id: string): V | undefined {
    return this.#byId.get(id)?.record;
  }
  add(record: V, bytes = 0): void {
    this.#byId.set(record.id, { record, bytes });
    this.#bytes += bytes;
    this.#order.push(record.id);
  }
  delete(id: string): void {
    const entry = this.#byId.get(id);
    if (!entry) return;
    this.#byId.delete(id);
    this.#bytes -= entry.bytes;
  }
  /** The oldest record still held. */
  oldest(): V | undefined {
    this.#compact();
    const id = this.#order[this.#head];
    return id === undefined ? undefined : this.get(id);
  }
  /** Removes the oldest records until at most `limit` remain, handing each to `dropped`. */
  dropOldest(limit: number, dropped: (record: V) => void = () => {}): void {
    while (this.#byId.size > limit) {
      const id = this.#order[this.#head++]!;
      const record = this.get(id);
      if (record) {
        this.delete(id);
        dropped(record);
      }
    }
    this.#compact();
  }
  /** The records, oldest first. */
  *oldestFirst(): Generator<V> {
    for (let index = this.#head; index < this.#order.length; index++) {
      const record = this.get(this.#order[index]!);
      if (record) yield record;
    }
  }
  clear(): void {
    this.#byId.clear();
    this.#order = [];
    this.#head = 0;
    this.#bytes = 0;
  }
  #compact(): void {
    while (this.#head < this.#order.length && !this.#byId.has(this.#order[this.#head]!)) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
    // Records deleted behind an older one that lives on (swept, or gone with their payment) leave their ids here:
    // rebuilt when they are most of the queue, so it stays within twice the records held.
    if (this.#order.length - this.#head > 2 * this.#byId.size + 1024) {
      this.#order = this.#order.slice(this.#head).filter((id) => this.#byId.has(id));
      this.#head = 0;
    }
  }
}

/**
 * What a payment counts against `storeBytes`: its echoed fields, and the texts of the request it keeps beside them
 * (its `merchantTransactionId`, kept twice with the report index's key, and a pending 3-D Secure step's result URL).
 */
const paymentBytes = (payment: PaymentRecord) =>
  RECORD_OVERHEAD_BYTES +
  fieldBytes(payment.echo) +
  2 * utf8Length(payment.merchantTransactionId ?? '') +
  utf8Length(payment.threeDs?.shopperResultUrl ?? '');

export class SandboxStore {
  readonly checkouts = new RecordMap<CheckoutRecord>();
  readonly payments = new RecordMap<PaymentRecord>();
  readonly registrations = new RecordMap<RegistrationRecord>();
  /** 3DS session token → payment id. */
  readonly threeDsSessions = new Map<string, string>();
  /** `entityId merchantTransactionId` → payment ids, in creation order. */
  readonly #byMerchantTransactionId = new Map<string, string[]>();
  #writes = 0;
  /** With a seed: how many values of each purpose were drawn. */
  readonly #drawn = new Map<string, number>();
  /** Told of every change a merchant may be notified of (set by the notifications, when configured). */
  onChange: (change: StoreChange) => void = () => {};

  /**
   * With an `idSeed`, everything an answer holds that is not read from the
   * request or the clock repeats from run to run (and after a reset): ids, ndc,
   * short ids, connector ids, 3DS tokens and UUIDs.
   */
  readonly #randomId: () => string;

  constructor(
    readonly clock: SandboxClock,
    randomBytes: (size: number) => Uint8Array,
    readonly limits: Readonly<SandboxLimits> = DEFAULT_LIMITS,
    readonly idSeed?: string,
  ) {
    this.#randomId = randomIds(randomBytes);
  }

  /**
   * 32 lower-case hex characters: random, or derived from the seed and a
   * counter of their own per purpose, so (for example) reading a payment
   * never shifts the id of the next one.
   */
  hex(purpose: 'id' | 'ndc' | 'detail'): string {
    if (this.idSeed === undefined) return this.#randomId();
    const count = this.#drawn.get(purpose) ?? 0;
    this.#drawn.set(purpose, count + 1);
    return sha256Hex(`${this.idSeed}:${purpose}:${count}`).slice(0, 32);
  }

  /** The id of a new payment or registration: 32 lower-case hex, as the platform's. */
  nextId(): string {
    return this.hex('id');
  }

  /** The id of a new checkout: 32 upper-case hex and a host part, as the platform's. */
  nextCheckoutId(): string {
    return `${this.hex('id').toUpperCase()}${CHECKOUT_ID_HOST}`;
  }

  /**
   * The `ndc` of an answer that is not about a checkout: the platform writes the
   * entity and a request id (`<entityId>_<32 hex>`), or the bare id when the
   * request named no valid entity.
   */
  /** The `ndc` of a refused checkout creation: a checkout id that is never stored. */
  checkoutNdc(): string {
    return `${this.hex('ndc').toUpperCase()}${CHECKOUT_ID_HOST}`;
  }

  ndc(entityId: string | undefined): string {
    const requestId = this.hex('ndc');
    return entityId !== undefined && /^[A-Za-z0-9]{32}$/.test(entityId) ? `${entityId}_${requestId}` : requestId;
  }

  addCheckout(checkout: CheckoutRecord): void {
    this.checkouts.add(checkout, RECORD_OVERHEAD_BYTES + fieldBytes(checkout.params));
    this.checkouts.dropOldest(this.limits.checkouts);
    this.#keepBudget();
    this.#maybeSweep();
  }

  addPayment(payment: PaymentRecord): void {
    this.payments.add(payment, paymentBytes(payment));
    if (payment.merchantTransactionId !== undefined) {
      const key = `${payment.entityId} ${payment.merchantTransactionId}`;
      const ids = this.#byMerchantTransactionId.get(key);
      if (ids) ids.push(payment.id);
      else this.#byMerchantTransactionId.set(key, [payment.id]);
    }
    if (payment.threeDs) this.threeDsSessions.set(payment.threeDs.token, payment.id);
    this.payments.dropOldest(this.limits.payments, (dropped) => this.#forgetPayment(dropped));
    this.#keepBudget();
    this.#maybeSweep();
    // A transaction refused before any bank saw it is read and reported, but notified as nothing happened to money (docs/fidelity.md).
    if (!payment.refused) this.onChange({ type: 'PAYMENT', payment });
  }

  /** A payment's outcome changed after it was created (3DS finished or timed out). */
  paymentChanged(payment: PaymentRecord): void {
    this.onChange({ type: 'PAYMENT', payment });
  }

  /** Bytes the stored checkouts, payments and saved cards count against `storeBytes`. */
  get bytes(): number {
    return this.checkouts.bytes + this.payments.bytes + this.registrations.bytes;
  }

  addRegistration(registration: RegistrationRecord): void {
    this.registrations.add(registration, RECORD_OVERHEAD_BYTES + fieldBytes(registration.standingInstruction ?? {}));
    this.registrations.dropOldest(this.limits.registrations);
    this.#keepBudget();
    this.onChange({ type: 'REGISTRATION', action: 'CREATED', registration });
  }

  deregister(registration: RegistrationRecord): void {
    registration.deregistered = true;
    this.onChange({ type: 'REGISTRATION', action: 'DELETED', registration });
  }

  /** A payment as it stands now: a 3DS step left unfinished for 30 minutes has timed out. */
  payment(id: string): PaymentRecord | undefined {
    const payment = this.payments.get(id);
    const session = payment?.threeDs;
    if (payment && session && !session.finished && payment.createdAt + ATTEMPT_LIFETIME_MS <= this.clock.nowMs())
      this.timeOutThreeDs(payment);
    return payment;
  }

  /** Ends a payment's unfinished 3DS step as timed out: its 30 minutes passed, or a test expires it now. */
  timeOutThreeDs(payment: PaymentRecord): void {
    if (!payment.threeDs || payment.threeDs.finished) return;
    payment.threeDs.finished = true;
    payment.result = THREE_DS_TIMED_OUT;
    this.paymentChanged(payment);
  }

  paymentsByMerchantTransactionId(entityId: string, merchantTransactionId: string): PaymentRecord[] {
    const ids = this.#byMerchantTransactionId.get(`${entityId} ${merchantTransactionId}`) ?? [];
    return ids.map((id) => this.payment(id)).filter((payment): payment is PaymentRecord => payment !== undefined);
  }

  /** The checkout if it can still be used: known, not expired, not consumed. */
  liveCheckout(id: string): CheckoutRecord | undefined {
    const checkout = this.checkouts.get(id);
    if (!checkout || checkout.consumed || checkout.expiresAt <= this.clock.nowMs()) return undefined;
    return checkout;
  }

  /**
   * Drops expired checkouts (and their read counters); called every so many
   * writes and on clock moves. The map is in creation order, so the walk stops
   * at the first checkout still within its first 30 minutes: only the ones a
   * successful payment or an open 3DS attempt keeps longer are passed over.
   */
  sweep(): void {
    const now = this.clock.nowMs();
    for (const checkout of this.checkouts.oldestFirst()) {
      if (checkout.createdAt + CHECKOUT_LIFETIME_MS > now) break;
      if (Math.max(checkout.expiresAt, checkout.attemptsOpenUntil) <= now) this.checkouts.delete(checkout.id);
    }
    this.checkouts.dropOldest(this.limits.checkouts);
  }

  clear(): void {
    this.#drawn.clear();
    this.checkouts.clear();
    this.payments.clear();
    this.registrations.clear();
    this.threeDsSessions.clear();
    this.#byMerchantTransactionId.clear();
  }

  #forgetPayment(payment: PaymentRecord): void {
    if (payment.threeDs) this.threeDsSessions.delete(payment.threeDs.token);
    // A checkout goes with the payment that paid it: kept alone, its status read would answer no payment.
    const checkout = payment.checkoutId === undefined ? undefined : this.checkouts.get(payment.checkoutId);
    if (checkout?.paidBy === payment.id) this.checkouts.delete(checkout.id);
    if (payment.merchantTransactionId === undefined) return;
    const key = `${payment.entityId} ${payment.merchantTransactionId}`;
    const ids = this.#byMerchantTransactionId.get(key)?.filter((id) => id !== payment.id);
    if (ids?.length) this.#byMerchantTransactionId.set(key, ids);
    else this.#byMerchantTransactionId.delete(key);
  }

  /** Drops the oldest checkout, payment or saved card, whichever is oldest, until the store is within its byte budget. */
  #keepBudget(): void {
    while (this.bytes > this.limits.storeBytes) {
      const candidates = [this.checkouts.oldest(), this.payments.oldest(), this.registrations.oldest()];
      const oldest = candidates.reduce((older, record) => (record && (!older || record.createdAt < older.createdAt) ? record : older));
      if (!oldest) return;
      if (oldest === candidates[0]) this.checkouts.delete(oldest.id);
      else if (oldest === candidates[2]) this.registrations.delete(oldest.id);
      else {
        this.payments.delete(oldest.id);
        this.#forgetPayment(oldest as PaymentRecord);
      }
    }
  }

  #maybeSweep(): void {
    if (++this.#writes % SWEEP_EVERY === 0) this.sweep();
  }
}
