/**
 * Binding an answer to the request it answers. A request determines some of
 * its answer's fields: the transaction it reads (`id`), the checkout (`ndc`),
 * the kit's own reference (`customParameters[GW_REFERENCE]`), the payment
 * type, the amount, the currency, the payment it refers to, the saved card
 * and the brand it paid with, the merchantTransactionId, the entity (a server-to-server transaction's
 * `ndc` is `<entityId>_<32 hex>`) and the card it sent (`card.bin` and
 * `card.last4Digits` are its first and last digits). An answer in
 * which one of them is present, well formed and different is another
 * request's: it is never returned as this one's, nor kept. A field that is
 * absent, null, empty or malformed proves nothing either way (the platform
 * leaves fields out: a report entry has no `ndc`), so a tolerant reader never
 * decides on it. The `ndc` of a refusal is not compared: a refused read is
 * about no transaction, and the platform gives it an `ndc` of its own
 * (`<entityId>_<32 hex>`, not the checkout's id).
 */
import { toCents } from '../contract/amount.js';
import { READ_AMOUNT_PATTERN } from '../contract/formats.js';
import { referenceOf } from '../contract/reference.js';
import { classifyResult } from '../contract/result-codes.js';
import type { Redactor } from '../contract/redaction.js';
import { GatewayNetworkError, type VerificationMismatch } from './errors.js';
import { isSuccess } from './interpret.js';

/** What a request determined of its answer; a field left out is not compared. */
export interface Determined {
  readonly id?: string | undefined;
  /** The checkout read, which a payment's answer names as `ndc`. */
  readonly checkoutId?: string | undefined;
  /** The kit's own reference, sent as `customParameters[GW_REFERENCE]`. */
  readonly reference?: string | undefined;
  readonly paymentType?: string | undefined;
  readonly amount?: string | undefined;
  readonly currency?: string | undefined;
  readonly referencedId?: string | undefined;
  /** The merchant's key the request sent; an answer echoing another is another order's transaction. */
  readonly merchantTransactionId?: string | undefined;
  /** The entity the request went to, which a server-to-server transaction's `ndc` names (`<entityId>_<32 hex>`). */
  readonly entityId?: string | undefined;
  /** The saved card a payment on a registration was made with. */
  readonly registrationId?: string | undefined;
  /** The brand the request named. */
  readonly paymentBrand?: string | undefined;
  /** The card number the request sent: an answer's `card.bin` must begin it and its `card.last4Digits` end it. */
  readonly cardNumber?: string | undefined;
}

/** An answer's fields as they are compared: anything the gateway may have sent. */
interface Answered {
  readonly id?: unknown;
  readonly ndc?: unknown;
  readonly customParameters?: unknown;
  readonly paymentType?: unknown;
  readonly amount?: unknown;
  readonly currency?: unknown;
  readonly referencedId?: unknown;
  readonly merchantTransactionId?: unknown;
  readonly registrationId?: unknown;
  readonly paymentBrand?: unknown;
  readonly card?: unknown;
}

/** The entity a server-to-server transaction's `ndc` names; none in any other `ndc` (a checkout's id, bare hex). */
const ENTITY_NDC = /^([0-9a-f]{32})_[0-9a-f]{32}$/i;

/** Two amounts in the platform's format naming the same number of cents (`10` and `10.00`); anything malformed is not the same. */
export const sameAmount = (actual: unknown, expected: string | undefined): boolean =>
  typeof actual === 'string' &&
  expected !== undefined &&
  READ_AMOUNT_PATTERN.test(actual) &&
  READ_AMOUNT_PATTERN.test(expected) &&
  toCents(actual) === toCents(expected);

function answeredValue(answer: Answered, field: Exclude<keyof Determined, 'cardNumber'>): unknown {
  if (field === 'checkoutId') return answer.ndc;
  if (field === 'reference') return referenceOf(answer);
  if (field === 'entityId') return typeof answer.ndc === 'string' ? ENTITY_NDC.exec(answer.ndc)?.[1] : undefined;
  return answer[field];
}

/** Longer values are cut in messages: an answer may hold anything, of any length, in any field. */
const shown = (value: string) => (value.length > 64 ? `${value.slice(0, 64)}…` : value);

/**
 * Where the card an answer names is not the card sent: a `card.bin` (6 to 8 digits) that does not begin the number, a
 * `card.last4Digits` that does not end it. Shown as the first six and last four digits, never the whole number.
 */
function otherCard(answer: Answered, number: string): VerificationMismatch | undefined {
  const { bin, last4Digits } = (typeof answer.card === 'object' && answer.card !== null ? answer.card : {}) as Record<string, unknown>;
  const otherBin = typeof bin === 'string' && /^\d{6,8}$/.test(bin) && !number.startsWith(bin);
  const otherEnd = typeof last4Digits === 'string' && /^\d{4}$/.test(last4Digits) && !number.endsWith(last4Digits);
  if (!otherBin && !otherEnd) return undefined;
  return { field: 'card', expected: `${number.slice(0, 6)}…${number.slice(-4)}`, actual: shown(`${String(bin)}…${String(last4Digits)}`) };
}

const CASE_SENSITIVE: ReadonlySet<keyof Determined> = new Set(['merchantTransactionId', 'reference']);

/** The fields in which `answer` provably answers another request than the one that `determined` them. */
export function contradictions(answer: object, determined: Determined): VerificationMismatch[] {
  const { cardNumber, ...compared } = determined;
  const found: VerificationMismatch[] = [];
  const card = cardNumber && /^\d{12,19}$/.test(cardNumber) ? otherCard(answer as Answered, cardNumber) : undefined;
  if (card) found.push(card);
  const { id, result } = answer as Answered & { result?: { code?: unknown } };
  // A transaction (it has an id) or an answer that is one (a success): its ndc is its checkout's.
  const transaction = (typeof id === 'string' && id !== '') || (typeof result?.code === 'string' && isSuccess(result.code));
  for (const [field, expected] of Object.entries(compared) as [Exclude<keyof Determined, 'cardNumber'>, string | undefined][]) {
    const actual = answeredValue(answer as Answered, field);
    if (expected === undefined || typeof actual !== 'string' || actual === '' || (field === 'checkoutId' && !transaction)) continue;
    const different =
      field === 'amount'
        ? READ_AMOUNT_PATTERN.test(actual) && READ_AMOUNT_PATTERN.test(expected) && !sameAmount(actual, expected)
        : // The merchant's key and the kit's reference are texts, where case matters (order `AB-7` is not `ab-7`).
          CASE_SENSITIVE.has(field)
          ? actual !== expected
          : // Ids, codes, brands and currencies in another case name the same thing: only another value proves another request.
            actual.toLowerCase() !== expected.toLowerCase();
    if (different) found.push({ field, expected, actual: shown(actual) });
  }
  return found;
}

/** A checkout's creation (`000.200.100`): the answer of one request only, its creation; never of a read or a transaction's request. */
export const isCheckoutCreation = (code: unknown): boolean => typeof code === 'string' && classifyResult(code) === 'checkout_created';

/** `field is actual, expected expected; …`: a contradiction as a message says it. */
export const listed = (found: readonly VerificationMismatch[]) =>
  found.map(({ field, expected, actual }) => `${field} is ${actual ?? 'absent'}, expected ${expected}`).join('; ');

/**
 * The answer of a read, when it is this read's; otherwise the read's own answer
 * was lost on the way (a proxy or cache that mixed answers up): a
 * `GatewayNetworkError`, as for any answer that is not the gateway's to this request.
 * A checkout's creation (`000.200.100`) answers no read at all.
 */
export function boundAnswer<T extends object>(answer: T, determined: Determined, what: string, redact: Redactor): T {
  const found = contradictions(answer, determined);
  const code = (answer as { result?: { code?: unknown } }).result?.code;
  if (isCheckoutCreation(code)) found.push({ field: 'result.code', expected: "a transaction's or a refusal's", actual: code as string });
  if (!found.length) return answer;
  throw new GatewayNetworkError(`The answer to ${what} is another request's (${listed(found)}): not used`, { redact });
}
