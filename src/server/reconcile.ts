/**
 * Money safety for requests that move money. A payment POST is sent exactly
 * once, carrying its own request reference (`customParameters[GW_REFERENCE]`,
 * a random id the platform returns in the answer and in report entries). When
 * its outcome is not known (timeout, dropped connection, a body that is not the
 * gateway's, `900.*` or an unknown code) the payment is looked up by its
 * merchantTransactionId, and a transaction found there is taken for the lost
 * one only when it is certainly that one:
 *
 * - exact: it carries the request's reference (and is of the request's type);
 * - fallback, for an entry without a reference: it agrees with everything the
 *   request determined (payment type, amount, currency, the referenced payment,
 *   the registration, the card's bin and last 4 digits, the brand) and nothing
 *   else can carry its merchantTransactionId, because the client generated it
 *   (a UUID). A caller's own merchantTransactionId may already name earlier
 *   transactions, so such an entry cannot be proved new: uncertain;
 * - it is the only one.
 *
 * Otherwise `UncertainOutcomeError`; a found payment still pending with no way
 * for the shopper to finish it, `StrandedPaymentError`. Never a retry. The
 * happy path is one request: nothing is read before sending.
 */
import { referenceOf, REQUEST_REFERENCE } from '../contract/reference.js';
import { classifyResult, RESULT_CODES } from '../contract/result-codes.js';
import type { Redactor } from '../contract/redaction.js';
import { reportPageMaxBytes } from '../contract/report-filters.js';
import type { Operation, Variant } from '../contract/rules.js';
import { contradictions, isCheckoutCreation, listed, sameAmount } from './binding.js';
import { describe, errorFor, interpret, isPaymentAnswer, isSuccess, settle, type Answer } from './interpret.js';
import {
  GatewayError,
  GatewayNetworkError,
  GatewayNotFoundError,
  StrandedPaymentError,
  UncertainOutcomeError,
  type GatewayErrorDetails,
} from './errors.js';
import { flatten, isGatewayAnswer, sleep, type RequestOptions, type Transport } from './request.js';
import type { Payment, PaymentList } from './types.js';

/** A money-moving request: where it goes, what it carries, and the resource its path names. */
export interface Movement {
  path: string;
  operation: Operation;
  request: unknown;
  /** Captures, refunds, reversals: the payment in the path. */
  referencedId?: string;
  /** Payments against a registration: the registration in the path. */
  registrationId?: string;
}

const uncertain = (code: string) => ['uncertain', 'unknown'].includes(classifyResult(code));

/** All payments with this merchantTransactionId; an empty list when there is none. Any other failure is a typed error. */
export async function paymentsByMerchantTransactionId(
  transport: Transport,
  merchantTransactionId: string,
  options?: RequestOptions,
  redact?: Redactor,
): Promise<PaymentList> {
  return queryPayments(transport, { merchantTransactionId }, merchantTransactionId, options, redact);
}

/** The payments a `/v3/query` search answers (`what` names it in errors); an empty list when there is none. Any other failure is a typed error. */
export async function queryPayments(
  transport: Transport,
  params: Record<string, string>,
  what: string,
  options?: RequestOptions,
  redact?: Redactor,
): Promise<PaymentList> {
  const { merchantTransactionId } = params;
  // A page is read up to what its page size can hold, never whole whatever its size.
  const maxBytes = reportPageMaxBytes(params);
  const answer = await transport.send<PaymentList>({ options, method: 'GET', path: '/v3/query', params, redact, maxBytes });
  const list = settleOr(answer, { merchantTransactionId, redact });
  if (list) return list;
  // A report answer must list payments; anything else cannot be trusted as "nothing there".
  const { payments } = answer.body as { payments?: unknown };
  if (!Array.isArray(payments) || !payments.every((payment) => isGatewayAnswer(payment) && isPaymentAnswer(payment))) {
    throw new GatewayNetworkError(`The gateway's report for ${what} has no readable list of payments (HTTP ${answer.status})`, {
      httpStatus: answer.status,
      resultCode: answer.body.result.code,
      merchantTransactionId,
      redact,
    });
  }
  // A report by order lists that order's transactions, and with `includeLinkedTransactions` the transactions linked to
  // them: those that refer to one (a refund made from a bare id carries a fresh key) and those one refers to (the
  // preauthorisation a capture under its own key captured). Another order's transaction is another request's answer.
  const entries = payments as Payment[];
  const referenced = new Set(entries.map((payment) => payment.referencedId));
  const isLinked = (payment: Payment) =>
    params.includeLinkedTransactions === 'true' && (Boolean(payment.referencedId) || referenced.has(payment.id));
  // As the answer reads once scrubbed of the secrets the key may hold (the read's redactor).
  const order = { merchantTransactionId: merchantTransactionId && (redact ?? transport.redactorFor(params)).known(merchantTransactionId) };
  const strangers = entries.filter((payment) => contradictions(payment, order).length && !isLinked(payment));
  if (strangers.length) {
    throw new GatewayNetworkError(
      `The gateway's report for ${what} lists ${strangers.length} transaction(s) of another order (${listed(contradictions(strangers[0]!, order))}): not used`,
      { httpStatus: answer.status, merchantTransactionId, redact },
    );
  }
  return answer.body;
}

/** The empty list for "no such transaction", a thrown error for any other refusal, undefined for an answer to read. */
function settleOr(answer: Answer<PaymentList>, details: GatewayErrorDetails): PaymentList | undefined {
  const value = interpret(answer, details);
  if (value instanceof GatewayNotFoundError) return { result: answer.body.result, payments: [] };
  if (value instanceof GatewayError) throw value;
  return undefined;
}

/** Sends a request that moves money, once, and answers with its real outcome. */
export async function movePayment(transport: Transport, movement: Movement, options?: RequestOptions): Promise<Payment> {
  const { path, operation, request } = movement;
  const params = flatten(request);
  const programme = (request as { programme?: Variant }).programme;
  // An empty one is none: a look-up by it is refused.
  const chosen = Boolean(params.merchantTransactionId);
  // The look-up key for an uncertain outcome; a UUID is a valid AN..255 reference, and nothing else can carry it.
  params.merchantTransactionId ||= crypto.randomUUID();
  // This request's own reference, returned by the platform in report entries: the exact match after a lost answer.
  const reference = crypto.randomUUID();
  params[`customParameters[${REQUEST_REFERENCE}]`] = reference;
  // One scrubber for the POST, its look-ups and every error about them: it knows this request's card number and CVV.
  const redact = transport.redactorFor(params);
  const call = { options, method: 'POST' as const, path, operation, params, programme, redact };
  // Look-ups after a lost answer go to the entity the POST went to, whichever chose it (options or the brand's entity).
  const context: Lost = {
    ...movement,
    params,
    chosen,
    reference,
    redact,
    entityId: transport.onEntity(options, params.paymentBrand).entityId,
    options,
  };
  // Aborted before it is sent, it sends nothing: no outcome to look up, and a new attempt is safe.
  if (options?.signal?.aborted)
    throw new GatewayNetworkError(`The call was aborted before it was sent: nothing was sent (POST ${path})`, {
      merchantTransactionId: params.merchantTransactionId,
      redact,
    });
  let answer: Answer;
  try {
    answer = await transport.send<Payment>(call);
  } catch (error) {
    if (error instanceof GatewayNetworkError) return reconcile(transport, context, error);
    throw error;
  }
  const { body } = answer;
  const known = { merchantTransactionId: params.merchantTransactionId, redact: context.redact };
  // An answer that is another request's (another reference, type, amount, currency or referenced payment), or a
  // checkout's where a transaction was asked for, leaves this request's outcome unknown: it is looked up, never re-sent.
  const other = contradictions(body, {
    reference,
    paymentType: params.paymentType,
    amount: params.amount,
    currency: params.currency,
    referencedId: movement.referencedId,
    registrationId: movement.registrationId,
    paymentBrand: params.paymentBrand,
    // As the answer reads once scrubbed of this request's secrets (a key holding the card number reads masked there too).
    merchantTransactionId: redact.known(params.merchantTransactionId),
    entityId: context.entityId,
    cardNumber: params['card.number'],
  });
  // A success names its transaction: without an id there is nothing to capture, refund or look up by it.
  const { code } = body.result;
  const unnamed = isSuccess(code) && !isPaymentAnswer(body);
  if (other.length || unnamed || isCheckoutCreation(code)) {
    const why = other.length
      ? `is another request's (${listed(other)})`
      : unnamed
        ? `names no transaction (${code} without an id)`
        : `is a checkout's (${code}), not a transaction's`;
    return reconcile(transport, context, new GatewayNetworkError(`The answer to ${path} ${why}: not used`, known));
  }
  if (uncertain(body.result.code))
    return reconcile(transport, { ...context, knownId: isPaymentAnswer(body) ? body.id : undefined }, errorFor(answer, known));
  return actionable(settle(answer, known), context);
}

/**
 * A payment as it stands, or the typed error saying nobody can complete it: one that waits for the shopper's 3-D Secure
 * step (`000.200.000`, which the request made possible by giving a shopper result URL) whose redirect was lost with
 * the answer. Any other pending payment (`000.200.001`, pending at the acquirer with no shopper present; a repeat
 * charge on a saved card) completes without the shopper: it is answered as pending, never called safe to try again.
 */
function actionable(payment: Payment, { params, redact }: Lost): Payment {
  const waitsForShopper = payment.result.code === RESULT_CODES.pending && params.shopperResultUrl !== undefined;
  if (!waitsForShopper || typeof payment.redirect?.url === 'string') return payment;
  const known = { merchantTransactionId: params.merchantTransactionId!, redact };
  throw new StrandedPaymentError(
    `Payment ${payment.id} is pending (${payment.result.code}) but its redirect was lost with the answer: the shopper cannot complete it and it will expire unpaid. Do not ship; a new attempt under a new merchantTransactionId is safe.`,
    { ...details(payment), ...known, payment },
  );
}

const details = (payment: Payment) => ({
  resultCode: payment.result.code,
  description: payment.result.description,
  resultKind: classifyResult(payment.result.code),
});

interface Lost extends Movement {
  params: Readonly<Record<string, string>>;
  /** The caller chose the merchantTransactionId (so other transactions may carry it). */
  chosen: boolean;
  /** The request's own reference (`customParameters[GW_REFERENCE]`). */
  reference: string;
  /** The lost answer's payment id, when the answer arrived with an uncertain code. */
  knownId?: string | undefined;
  redact: Redactor;
  /** The call's own channel: the lost payment is looked up where it was sent. */
  entityId: string | undefined;
  /** The call's options: its signal and timeout bound the look-ups too. */
  options: RequestOptions | undefined;
}

/**
 * True when a present field differs, or (`required`) when it is absent and so cannot prove the match. Null or empty is
 * absent, and another case names the same value (`eur`, a hex id in capitals), as in the binding of answers.
 */
const differs = (actual: unknown, expected: string | undefined, required: boolean) =>
  expected !== undefined && (typeof actual !== 'string' || actual === '' ? required : actual.toLowerCase() !== expected.toLowerCase());

/**
 * Whether `payment` is certainly the transaction the lost request made. Found by its id or its reference, it must
 * still agree with the request's terms where it states them: one for another amount, currency, card or payment is
 * another request's answer to the same name (a proxy's or the gateway's fault), never this request's outcome.
 */
function isTheLostOne(payment: Payment, lost: Lost): boolean {
  const { params, chosen } = lost;
  const terms = () =>
    payment.paymentType === params.paymentType &&
    !contradictions(payment, {
      amount: params.amount,
      currency: params.currency,
      referencedId: lost.referencedId,
      registrationId: lost.registrationId,
      paymentBrand: params.paymentBrand,
      cardNumber: params['card.number'],
    }).length;
  if (lost.knownId !== undefined) return payment.id === lost.knownId && terms();
  const reference = referenceOf(payment);
  // Exact: the platform carried this request's own random reference back. Another request's reference is never this one.
  if (reference !== undefined) return reference === lost.reference && terms();
  // Fallback, for an entry without the reference: only a merchantTransactionId the client generated proves the entry new.
  const number = params['card.number'];
  return (
    !chosen &&
    payment.id !== lost.referencedId &&
    payment.merchantTransactionId === params.merchantTransactionId &&
    params.paymentType !== undefined &&
    payment.paymentType === params.paymentType &&
    (params.amount === undefined || sameAmount(payment.amount, params.amount)) &&
    !differs(payment.currency, params.currency, true) &&
    !differs(payment.paymentBrand, params.paymentBrand, false) &&
    !differs(payment.referencedId, lost.referencedId, false) &&
    !differs(payment.registrationId, lost.registrationId, false) &&
    !differs(payment.card?.bin, number?.slice(0, 6), false) &&
    !differs(payment.card?.last4Digits, number?.slice(-4), false)
  );
}

/**
 * Looks the payment up by merchantTransactionId after each delay in
 * `reconcileDelaysMs` until exactly one certain, final match appears.
 */
async function reconcile(transport: Transport, lost: Lost, cause: GatewayError): Promise<Payment> {
  const merchantTransactionId = lost.params.merchantTransactionId!;
  const known = { merchantTransactionId, redact: lost.redact };
  let lookupFailure: GatewayError | undefined;
  let candidates: readonly Payment[] = [];
  // The caller's bounds hold for the look-ups too: once its signal aborts, nothing more is read and the outcome stays unknown.
  const { signal, timeoutMs } = lost.options ?? {};
  for (const delay of transport.reconcileDelaysMs) {
    if (signal?.aborted) break;
    await sleep(delay, signal);
    if (signal?.aborted) break;
    try {
      ({ payments: candidates } = await paymentsByMerchantTransactionId(
        transport,
        merchantTransactionId,
        { entityId: lost.entityId, signal, timeoutMs },
        lost.redact,
      ));
    } catch (error) {
      lookupFailure = error instanceof GatewayError ? error : new GatewayNetworkError('The look-up failed', { cause: error, ...known });
      continue;
    }
    candidates = candidates.filter((payment) => isTheLostOne(payment, lost));
    if (candidates.length > 1) {
      throw new UncertainOutcomeError(
        `The outcome of payment ${merchantTransactionId} is unknown: ${candidates.length} transactions under its merchantTransactionId could be it; it was not retried. Decide with the gateway's reports before trying again.`,
        { ...known, candidates, cause },
      );
    }
    const [payment] = candidates;
    // The report's own HTTP status says nothing about the payment, so none is given.
    if (payment && !uncertain(payment.result.code)) return actionable(settle({ status: 200, body: payment }, known), lost);
  }
  const why = signal?.aborted
    ? 'the call was aborted before a look-up settled it'
    : lookupFailure
      ? `the look-up failed: ${lookupFailure.message}`
      : candidates.length
        ? `its transaction is still ${describe(candidates[0]!.result)}`
        : 'no transaction that is certainly it was found';
  throw new UncertainOutcomeError(
    `The outcome of payment ${merchantTransactionId} is unknown (${cause.message}; ${why}); it was not retried. Look it up by merchantTransactionId before trying again.`,
    {
      ...known,
      resultCode: cause.resultCode,
      description: cause.description,
      payment: candidates[0] ?? cause.payment,
      candidates,
      cause: lookupFailure ?? cause,
    },
  );
}
