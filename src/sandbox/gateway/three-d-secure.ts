/**
 * The gateway's side of a 3-D Secure step, reached through the session token
 * the shopper's browser posts: the method data received, the step executed
 * (a frictionless one finishes there), the challenge answered. Each change of
 * a payment's outcome is noted on its checkout. The pages the browser sees
 * are the protocol's (protocol/three-d-secure-pages.ts).
 */
import { finishThreeDs, noteCheckoutPayment } from './payments.js';
import type { PaymentRecord, SandboxStore } from './store.js';

/** The payment a 3DS session token names, if the session is known. */
export function paymentOfSession(store: SandboxStore, token: string | undefined): PaymentRecord | undefined {
  const id = token === undefined ? undefined : store.threeDsSessions.get(token);
  return id === undefined ? undefined : store.payment(id);
}

/** Ends a payment's 3DS step (authenticated or failed) and notes the outcome on its checkout; finishing twice changes nothing. */
export function completeThreeDs(store: SandboxStore, payment: PaymentRecord, authenticated: boolean): void {
  finishThreeDs(store, payment, authenticated);
  noteCheckoutPayment(store, payment);
}

/**
 * The browser posted the 3DS method data of the session: EMVCo's method completion indicator becomes `Y`. Once the
 * step has finished, a post (a replay: the pages need only the session) changes nothing the payment showed.
 */
export function receiveMethodData(store: SandboxStore, token: string | undefined): PaymentRecord | undefined {
  const payment = paymentOfSession(store, token);
  if (!payment || payment.threeDs!.finished) return payment;
  payment.threeDs!.methodPosted = true;
  payment.resultDetails.threeDSMethodCompletion = 'Y';
  noteCheckoutPayment(store, payment);
  return payment;
}

/**
 * The browser reached the step: a frictionless step ends authenticated here; a challenge waits for the cardholder;
 * one already finished (a replay) sends the shopper back and changes nothing.
 */
export function executeThreeDs(store: SandboxStore, token: string | undefined): { payment: PaymentRecord; challenge: boolean } | undefined {
  const payment = paymentOfSession(store, token);
  if (!payment) return undefined;
  const session = payment.threeDs!;
  if (session.finished) return { payment, challenge: false };
  if (session.flow === 'frictionless') {
    completeThreeDs(store, payment, true);
    return { payment, challenge: false };
  }
  return { payment, challenge: true };
}
