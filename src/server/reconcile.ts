/**
 * Money safety for requests that move money. A payment POST is sent exactly
 * once; when its outcome is not known (timeout, dropped connection, `900.*` or
 * an unknown code) the payment is looked up by its merchantTransactionId and
 * the real outcome returned, or an `UncertainOutcomeError` thrown. Never a retry.
 */
import { classifyResult } from '../contract/result-codes.js';
import type { Operation, Variant } from '../contract/rules.js';
import { GatewayDeclinedError, GatewayError, GatewayNetworkError, GatewayNotFoundError, UncertainOutcomeError } from './errors.js';
import { resultDetails, resultError, sleep, type RequestOptions, type Transport } from './request.js';
import type { Payment, PaymentList } from './types.js';

/** Nested request objects to the seed's flat form names: `billing.city`, `customParameters[OrderID]`. */
export function flatten(source: object, prefix = '', into: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(source)) {
    // `programme` selects a request type in TypeScript only; the gateway reads the programme from the fields.
    if (value === undefined || value === null || (!prefix && key === 'programme')) continue;
    const name = prefix === 'customParameters' ? `${prefix}[${key}]` : prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object') flatten(value, name, into);
    else into[name] = String(value);
  }
  return into;
}

const uncertain = (code: string) => ['uncertain', 'unknown'].includes(classifyResult(code));

/**
 * A payment answer as the caller sees it: returned when approved (also pending
 * review) or pending (a 3DS redirect, or a checkout not yet paid); thrown as a
 * typed error otherwise, with the answer in `error.payment`.
 */
export function settle({ body: payment, status: httpStatus }: { body: Payment; status?: number }): Payment {
  const kind = classifyResult(payment.result.code);
  if (['approved', 'approved_review', 'pending', 'pending_extended'].includes(kind)) return payment;
  const details = { payment, httpStatus };
  if (uncertain(payment.result.code)) {
    const merchantTransactionId = payment.merchantTransactionId ?? '';
    throw new UncertainOutcomeError(`${payment.result.description} (${payment.result.code})`, { ...resultDetails(payment.result), ...details, merchantTransactionId });
  }
  if (kind === 'system_error' || kind === 'chargeback') throw resultError(GatewayError, payment.result, details);
  throw resultError(GatewayDeclinedError, payment.result, details);
}

/** 9. All payments with this merchantTransactionId; an empty list when there is none. */
export async function paymentsByMerchantTransactionId(transport: Transport, merchantTransactionId: string, options?: RequestOptions): Promise<PaymentList> {
  try {
    return (await transport.send<PaymentList>({ ...options, method: 'GET', path: '/v3/query', params: { merchantTransactionId } })).body;
  } catch (error) {
    if (error instanceof GatewayNotFoundError) return { result: { code: error.resultCode ?? '', description: error.description ?? '' }, payments: [] };
    throw error;
  }
}

/** Sends a request that moves money, once, and answers with its real outcome. */
export async function movePayment(transport: Transport, path: string, operation: Operation, request: object, options?: RequestOptions): Promise<Payment> {
  const params = flatten(request);
  // The lookup key for an uncertain outcome; a UUID is a valid AN..255 reference.
  params.merchantTransactionId ??= crypto.randomUUID();
  let answer: { status: number; body: Payment };
  try {
    answer = await transport.send<Payment>({ ...options, method: 'POST', path, operation, params, programme: (request as { programme?: Variant }).programme });
  } catch (error) {
    if (error instanceof GatewayNetworkError) return reconcile(transport, params, error);
    throw error;
  }
  const { body } = answer;
  if (uncertain(body.result.code)) return reconcile(transport, params, resultError(GatewayError, body.result, { payment: body, httpStatus: answer.status }));
  return settle(answer);
}

/**
 * Looks the payment up by merchantTransactionId after each delay in
 * `reconcileDelaysMs`, matching type, amount and currency, until a certain
 * outcome appears.
 */
async function reconcile(transport: Transport, params: Record<string, string>, cause: GatewayError): Promise<Payment> {
  const merchantTransactionId = params.merchantTransactionId!;
  const last4 = params['card.number']?.slice(-4);
  // An earlier attempt under a reused merchantTransactionId (another card, amount or type) must not pass for this one.
  const matches = (payment: Payment) =>
    payment.paymentType === params.paymentType &&
    (params.amount === undefined || payment.amount === params.amount) &&
    (params.currency === undefined || payment.currency === params.currency) &&
    (last4 === undefined || payment.card?.last4Digits === last4);
  let lookupFailure: unknown;
  for (const delay of transport.reconcileDelaysMs) {
    await sleep(delay);
    try {
      const { payments } = await paymentsByMerchantTransactionId(transport, merchantTransactionId);
      const payment = payments.filter(matches).at(-1);
      // The report's own HTTP status says nothing about the payment, so none is given.
      if (payment && !uncertain(payment.result.code)) return settle({ body: payment });
    } catch (error) {
      if (!(error instanceof GatewayNetworkError)) throw error;
      lookupFailure = error;
    }
  }
  throw new UncertainOutcomeError(
    `The outcome of payment ${merchantTransactionId} is unknown (${cause.message}); it was not retried. Look it up by merchantTransactionId before trying again.`,
    { merchantTransactionId, resultCode: cause.resultCode, description: cause.description, payment: cause.payment, cause: lookupFailure ?? cause },
  );
}
