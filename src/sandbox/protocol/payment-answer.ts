/**
 * A payment record as the gateway answers it: the payment response of the API
 * (its `result`, the card's masked data, the request's echoed fields nested)
 * and what only a notification's payload adds.
 */
import type { Payment } from '../../contract/api-answers.js';
import type { PaymentNotificationFields } from '../../contract/notification-payloads.js';
import type { PaymentRecord, Result } from '../gateway/store.js';
import { gatewayTimestamp, nest } from './wire.js';

/**
 * What only a notification's payload carries of a payment, beside the API's
 * answer: the short id, where it came from (`OPPUI` for the widget, `SYSTEM`
 * otherwise), the payment method and the entity (`authentication.entityId`, in
 * every recorded delivery: 2015, 2018, 2023).
 */
export function notificationFields(payment: PaymentRecord): PaymentNotificationFields {
  return {
    shortId: payment.shortId,
    source: payment.checkoutId ? 'OPPUI' : 'SYSTEM',
    paymentMethod: 'CC',
    authentication: { entityId: payment.entityId },
  };
}

/** The request's fields a payment answer echoes (see `echoedFields`), nested: every leaf a string, as the contract's `Payment` reads them. */
type Echoed = Pick<Payment, 'customer' | 'billing' | 'recipient' | 'customParameters' | 'threeDSecure' | 'standingInstruction'>;

/** The gateway's payment response for a record (result included; the envelope is added by the caller). */
/**
 * The risk block the platform's recordings show: a score of 100 on a debit or a preauthorisation, 0 on a capture or a
 * reversal (which move no new money from the shopper), none on a refund.
 */
const riskOf = (paymentType: string): { risk?: { score: string } } =>
  paymentType === 'RF' ? {} : { risk: { score: paymentType === 'CP' || paymentType === 'RV' ? '0' : '100' } };

export function paymentBody(payment: PaymentRecord, answeredResult: Result = payment.result): Payment & { readonly timestamp: string } {
  const echoed = nest(payment.echo) as Echoed;
  // A refused transaction is answered, read back and reported as its refusal was: its id, type, brand, result, the
  // card's summary and the echoed fields, no money fields (recorded 2015 and 2017).
  if (payment.refused)
    return {
      id: payment.id,
      paymentType: payment.paymentType,
      ...(payment.paymentBrand ? { paymentBrand: payment.paymentBrand } : {}),
      ...(payment.merchantTransactionId ? { merchantTransactionId: payment.merchantTransactionId } : {}),
      result: answeredResult,
      ...(payment.card ? { card: payment.card } : {}),
      ...echoed,
      ...(payment.refused.riskScore === undefined ? {} : { risk: { score: payment.refused.riskScore } }),
      timestamp: gatewayTimestamp(new Date(payment.createdAt)),
    };
  return {
    id: payment.id,
    ...(payment.referencedId ? { referencedId: payment.referencedId } : {}),
    ...(payment.registrationId ? { registrationId: payment.registrationId } : {}),
    paymentType: payment.paymentType,
    ...(payment.paymentBrand ? { paymentBrand: payment.paymentBrand } : {}),
    amount: payment.amount,
    currency: payment.currency,
    descriptor: `${payment.shortId} gw-sandbox`,
    ...(payment.merchantTransactionId ? { merchantTransactionId: payment.merchantTransactionId } : {}),
    result: answeredResult,
    resultDetails: payment.resultDetails,
    ...(payment.card ? { card: payment.card } : {}),
    ...echoed,
    ...(payment.threeDSecure ? { threeDSecure: { ...echoed.threeDSecure, ...payment.threeDSecure } } : {}),
    ...(payment.standingInstruction ? { standingInstruction: payment.standingInstruction } : {}),
    ...riskOf(payment.paymentType),
    // A payment's timestamp is its transaction's, with milliseconds, as the platform writes it on read-backs and
    // report entries; the answer to the request itself is written without (see protocol/routes.ts).
    timestamp: gatewayTimestamp(new Date(payment.createdAt)),
  };
}
