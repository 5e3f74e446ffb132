/** 7. Payments and credits against a registered card. */
import { movePayment } from '../reconcile.js';
import type { RequestOptions, Transport } from '../request.js';
import type { Payment, RegistrationPaymentRequest } from '../types.js';
import { pathId } from './path.js';

export interface Registrations {
  /** A debit, PA, credit or payout against `registrationId` (from a payment made with `createRegistration: true`). Sent once; an unknown outcome is looked up. */
  createPayment(registrationId: string, request: RegistrationPaymentRequest, options?: RequestOptions): Promise<Payment>;
}

export function registrations(transport: Transport): Registrations {
  return {
    createPayment: async (registrationId, request, options) =>
      movePayment(transport, `/v1/registrations/${pathId('registrationId', registrationId)}/payments`, 'registrationPayment', request, options),
  };
}
