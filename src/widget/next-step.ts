/**
 * What the widget does after a card submission, from the answer of the
 * sandbox's widget endpoint. The result-code classification is the contract's.
 */
import { classifyResult, DECLINE_KINDS, RESULT_CODES, type ResultKind } from '../contract/result-codes.js';
import type { PaymentAnswer } from '../contract/widget-answers.js';

/**
 * After a decline (`DECLINE_KINDS`: nothing was charged) or refused card data
 * the shopper stays on the form and may try again. Every other kind (approved,
 * pending, uncertain, system error, unknown) goes to the shop's result page,
 * whose server reads the outcome, so a payment that may have gone through is
 * never offered twice.
 */
export const staysOnForm = (kind: ResultKind): boolean => DECLINE_KINDS.has(kind) || kind === 'rejected_validation';

export type NextStep =
  /** Run the 3-D Secure steps; the challenge ends on the result page. */
  | { readonly step: 'authenticate'; readonly redirect: unknown }
  /** The checkout expired or was already paid: the result page tells which. */
  | { readonly step: 'expired' }
  /**
   * Stay on the form; `rejected` names the request parameters the gateway refused, if any. `text` is what
   * the shopper is told: `declined` only when the payment was refused, `brandUnavailable` when the entity
   * has no contract for the brand (`600.200.201`): nothing was wrong with the card.
   */
  | { readonly step: 'retry'; readonly rejected: readonly string[]; readonly text: 'declined' | 'brandUnavailable' }
  /** Everything else: the result page reads the outcome. */
  | { readonly step: 'result' };

/** What to do after the gateway's answer to a card submission. */
export function nextStep(answer: PaymentAnswer | undefined): NextStep {
  if (answer?.redirect) return { step: 'authenticate', redirect: answer.redirect };
  const code = String(answer?.result?.code ?? '');
  const errors = answer?.result?.parameterErrors;
  const rejected = Array.isArray(errors) ? errors.map((error) => String(error?.name)) : [];
  // Expired, or already paid (the browser itself re-sends a POST whose connection dropped).
  if (code === RESULT_CODES.invalidParameter && !rejected.length) return { step: 'expired' };
  if (!staysOnForm(classifyResult(code))) return { step: 'result' };
  return { step: 'retry', rejected, text: code === RESULT_CODES.brandNotConfigured ? 'brandUnavailable' : 'declined' };
}
