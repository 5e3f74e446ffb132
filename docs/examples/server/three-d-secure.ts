/**
 * A server-to-server payment with the gateway's 3-D Secure step: the pending
 * answer's `redirect` goes to the browser's <gw-3ds-handler>; after the
 * shopper's return, the payment is read through `handleShopperReturn`.
 */
import { isApproved, type GatewayClient, type Payment, type Redirect } from 'gw-elements/server';

export async function payWithThreeDSecure(
  client: GatewayClient,
  input: { orderId: string; cardNumber: string; cvv: string; email: string; ip: string; browser: { acceptHeader: string; userAgent: string; language: string } },
): Promise<{ paid: Payment } | { redirect: Redirect; paymentId: string } | { pending: Payment }> {
  const payment = await client.payments.create({
    paymentType: 'DB',
    amount: '49.99',
    currency: 'EUR',
    paymentBrand: 'VISA',
    merchantTransactionId: input.orderId,
    card: { number: input.cardNumber, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: input.cvv },
    customer: { email: input.email, ip: input.ip, browser: { ...input.browser, challengeWindow: '05' } },
    billing: { street1: 'Hauptstraße 1', city: 'Wien', country: 'AT', postcode: '1010' },
    shopperResultUrl: 'https://shop.example/payment-result',
    threeDSecure: { challengeIndicator: '04' },
  });
  if (payment.redirect) return { redirect: payment.redirect, paymentId: payment.id };
  // Pending with no step for the shopper (a risk check, the acquirer): not paid, not declined. Its notification or a
  // later read (payments.get) settles it; the shopper must not pay again meanwhile. Declines are thrown.
  return isApproved(payment.result.code) ? { paid: payment } : { pending: payment };
}
