/** 7. Payments and credits against a registered card. */
import { movePayment } from '../reconcile.js';
import type { RequestOptions, Transport } from '../request.js';
import type { Payment, RegistrationPaymentRequest } from '../types.js';
import { pathId } from './path.js';

export function registrations(transport: Transport) {
  return {
    /** A debit, PA, credit or payout against `registrationId` (from a payment made with `createRegistration: true`). */
    createPayment: async (registrationId: string, request: RegistrationPaymentRequest, options?: RequestOptions): Promise<Payment> =>
      movePayment(transport, `/v1/registrations/${pathId('registrationId', registrationId)}/payments`, 'registrationPayment', request, options),
  };
}
