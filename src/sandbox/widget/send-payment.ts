/** A wallet payment's one request to the checkout, and what the widget does after its answer. */
import { nextStep, type PaymentAnswer } from './answers.js';
import type { Widget } from './card-form.js';

/**
 * Sends one wallet payment to the checkout, once and never retried, and does
 * what the answer says, as the card form does: 3-D Secure (never for a
 * wallet, but followed if the gateway asks), the result page, or `retry` when
 * nothing was charged (`rejected` names the refused parameters).
 */
export async function sendPayment(widget: Widget, form: HTMLFormElement, body: URLSearchParams, handlers: { retry(rejected: readonly string[]): void }): Promise<void> {
  const { signal } = widget.scope;
  let answer: PaymentAnswer | undefined;
  try {
    const response = await fetch(widget.gatewayUrl('widget/payments'), { method: 'POST', body, signal, credentials: 'omit' });
    answer = (await response.json()) as PaymentAnswer;
  } catch {
    if (signal.aborted) return;
    // The gateway may have recorded the payment: the result page reads the outcome.
    widget.report('PciIframeSubmitError', 'The payment was sent but no answer arrived; the result page reads the outcome.');
    return widget.showResult(form);
  }
  if (signal.aborted) return;
  widget.call('onAfterSubmit');
  const next = nextStep(answer);
  switch (next.step) {
    case 'authenticate':
      return widget.authenticate(next.redirect, form);
    case 'expired':
      widget.report('InvalidCheckoutIdError', 'The checkout is expired or already paid.');
      return signal.aborted ? undefined : widget.showResult(form);
    case 'result':
      return widget.showResult(form);
    case 'retry':
      return handlers.retry(next.rejected);
  }
}
