/** A payment's one request to the checkout (card, saved card, wallet, or a card to save), and what the widget does after its answer. */
import type { PaymentAnswer } from '../contract/widget-answers.js';
import { nextStep } from './next-step.js';
import type { Widget } from './widget.js';

/**
 * Sends one payment to the checkout (`widget/registration` saves a card
 * instead), once and never retried, since the gateway may have recorded it
 * even when the answer is lost, and does what the answer says: 3-D Secure,
 * the result page, or `retry` when nothing was charged (`rejected` names the
 * refused parameters).
 */
export async function sendPayment(
  widget: Widget,
  form: HTMLFormElement,
  body: URLSearchParams,
  handlers: {
    retry(rejected: readonly string[], text: 'declined' | 'brandUnavailable'): void;
    path?: 'widget/payments' | 'widget/registration';
  },
): Promise<void> {
  const { signal } = widget.scope;
  widget.sending = true;
  let answer: PaymentAnswer | undefined;
  try {
    const response = await fetch(widget.gatewayUrl(handlers.path ?? 'widget/payments'), {
      method: 'POST',
      body,
      signal,
      credentials: 'omit',
    });
    answer = (await response.json()) as PaymentAnswer;
  } catch {
    if (signal.aborted) return;
    // The gateway may have recorded the payment: the result page reads the outcome.
    widget.report('PciIframeSubmitError', 'The payment was sent but no answer arrived; the result page reads the outcome.');
    // Unless the page's onError took the widget away (wpwl.unload()): then the page has taken over.
    return signal.aborted ? undefined : widget.showResult(form);
  }
  if (signal.aborted) return;
  widget.call('onAfterSubmit');
  if (signal.aborted) return;
  const next = nextStep(answer);
  switch (next.step) {
    case 'authenticate':
      return widget.authenticate(next.redirect, form);
    case 'expired':
      // The shop's server reads which, unless the page took over in onError (wpwl.unload()).
      widget.report('InvalidCheckoutIdError', 'The checkout is expired or already paid.');
      return signal.aborted ? undefined : widget.showResult(form);
    case 'result':
      return widget.showResult(form);
    case 'retry':
      // Refused, nothing charged: the shopper may pay again, from any form.
      widget.sending = false;
      return handlers.retry(next.rejected, next.text);
  }
}
