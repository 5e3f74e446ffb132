/** Credits and payouts (CD) to a card given by its details, one programme per type. */
import { movePayment } from '../reconcile.js';
import type { RequestOptions, Transport } from '../request.js';
import type { CardPayout, Payment } from '../types.js';

export interface Payouts {
  /** Basic credit, original credit transfer (VISA), winnings payout (merchant category 7995) or send payout (MASTER). Sent once; an unknown outcome is looked up. */
  create(payout: CardPayout, options?: RequestOptions): Promise<Payment>;
}

export function payouts(transport: Transport): Payouts {
  return {
    create: (payout, options) => movePayment(transport, { path: '/v1/payments', operation: 'payment', request: payout }, options),
  };
}
