/** The API reference's merchant rule for a payment status: compare id, amount, currency, brand and type with what was expected. */
import { listed, sameAmount } from './binding.js';
import { GatewayValidationError, GatewayVerificationError, type VerificationMismatch } from './errors.js';
import type { Payment } from './types.js';

/** What the merchant expects of a payment; fields left out are not compared. */
export interface ExpectedPayment {
  /** The payment id, when known (server-to-server). */
  id?: string;
  /** The checkout the payment belongs to (the payment's `ndc`). */
  checkoutId?: string;
  merchantTransactionId?: string;
  /** Compared as an amount in cents, so `"92"` and `"92.00"` are the same (the platform answers two decimals). */
  amount: string;
  currency: string;
  paymentBrand?: string;
  paymentType?: string;
}

// Amounts are numbers written as text: the platform may answer `10.00` to a request sent as `10`. A malformed one
// (`1.005`, ` 1.00`) is never the same as any other, even written alike.
const same = (field: keyof ExpectedPayment, actual: string | undefined, expected: string) =>
  field === 'amount' ? sameAmount(actual, expected) : actual === expected;

/** Returns the payment when it matches, else throws `GatewayVerificationError` listing every difference. */
export function verifyPayment(payment: Payment, expected: ExpectedPayment): Payment {
  const problems = [
    ...(typeof payment?.result?.code !== 'string' ? [{ name: 'payment', message: 'must be a payment answered by the gateway' }] : []),
    ...(typeof expected !== 'object' ||
    expected === null ||
    Object.values(expected).some((value) => value !== undefined && typeof value !== 'string')
      ? [{ name: 'expected', message: 'must be an object of strings ({ id?, amount?, currency?, … })' }]
      : []),
  ];
  if (problems.length)
    throw new GatewayValidationError(`Cannot verify: ${problems.map((problem) => `${problem.name} ${problem.message}`).join('; ')}`, {
      parameterErrors: problems,
    });
  const actual: Record<keyof ExpectedPayment, string | undefined> = {
    id: payment.id,
    checkoutId: payment.ndc,
    merchantTransactionId: payment.merchantTransactionId,
    amount: payment.amount,
    currency: payment.currency,
    paymentBrand: payment.paymentBrand,
    paymentType: payment.paymentType,
  };
  const mismatches: VerificationMismatch[] = [];
  for (const [field, value] of Object.entries(expected) as [keyof ExpectedPayment, string | undefined][]) {
    if (value !== undefined && !same(field, actual[field], value)) mismatches.push({ field, expected: value, actual: actual[field] });
  }
  if (mismatches.length) {
    throw new GatewayVerificationError(`Payment ${payment.id} does not match the order: ${listed(mismatches)}`, {
      mismatches,
      payment,
      resultCode: payment.result.code,
      description: payment.result.description,
    });
  }
  return payment;
}
