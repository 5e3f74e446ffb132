/**
 * What a page is told about a payment call, in one mapping for every flow of
 * the shop: the server helper's own outcome (`toOutcome`), its payment as a
 * view, and the shop's words for it.
 */
import { StatusUnknownError, toOutcome, type Outcome, type Payment } from 'gw-elements/server';
import { paymentView, type PaymentAnswer } from './views.js';

const PENDING_MESSAGE = 'Waiting for the shopper (3-D Secure or payment not finished).';

/**
 * The page's answer to `call`, and the client's outcome it came from. A call
 * that got no usable answer (`failed`) or whose credentials were refused
 * (`unauthorized`) is the shop's failure, not an outcome: it is thrown, and
 * answered 502 with the calls made.
 */
export async function answerOf(call: Promise<Payment>, approvedMessage: string): Promise<{ answer: PaymentAnswer; outcome: Outcome }> {
  const outcome = await toOutcome(call);
  if (outcome.kind === 'failed' || outcome.kind === 'unauthorized') throw outcome.error;
  let message = outcome.message;
  if (outcome.kind === 'approved') message = approvedMessage;
  if (outcome.kind === 'pending') message = PENDING_MESSAGE;
  if (outcome.kind === 'uncertain')
    message = `Outcome unknown; not retried. Look it up by merchantTransactionId ${outcome.merchantTransactionId}.`;
  if (outcome.kind === 'invalid' && outcome.parameterErrors.length)
    message = `${message}: ${outcome.parameterErrors.map((field) => `${field.name} ${field.message}`).join('; ')}`;
  const answer: PaymentAnswer = {
    outcome: outcome.kind,
    message,
    ...(outcome.payment ? { payment: paymentView(outcome.payment) } : {}),
    ...(outcome.kind === 'throttled' && outcome.retryAfterSeconds !== undefined ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
    // A checkout that may still be paid (a 3-D Secure challenge still open, a lost answer) says when to ask again.
    ...(outcome.kind === 'uncertain' && outcome.error instanceof StatusUnknownError
      ? { retryAfterSeconds: outcome.error.retryAfterSeconds }
      : {}),
    ...(outcome.resultCode && !outcome.payment ? { resultCode: outcome.resultCode } : {}),
  };
  return { answer, outcome };
}

/** The page's answer to a call the gateway refused (a registration, a deletion); failures and bugs are thrown on. */
export async function refusalOf(error: unknown): Promise<PaymentAnswer> {
  return (await answerOf(Promise.reject(error), '')).answer;
}
