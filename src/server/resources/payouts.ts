/** 4. Credits and payouts (CD) to a card given by its details, one programme per type. */
import { movePayment } from '../reconcile.js';
import type { RequestOptions, Transport } from '../request.js';
import type { CardPayout, Payment } from '../types.js';

export function payouts(transport: Transport) {
  return {
    /** Basic credit, original credit transfer (VISA), winnings payout (merchant category 7995) or send payout (MASTER). */
    create: (payout: CardPayout, options?: RequestOptions): Promise<Payment> => movePayment(transport, '/v1/payments', 'payment', payout, options),
  };
}
