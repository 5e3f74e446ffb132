/**
 * Payouts: a card registered once without a payment (the platform's
 * `POST /v1/registrations`: no money is held, nothing needs releasing), then
 * credits (paymentType CD) sent to its registrationId without handling the
 * card number again.
 */
import type { GatewayClient } from 'gw-elements/server';
import { CURRENCY } from './catalogue.js';
import { newReference, type DemoDatabase } from './database.js';
import { NotFound } from './input.js';
import { answerOf, refusalOf } from './payment-answer.js';
import { brandOf, type ShopperCard } from './shopper.js';
import type { PaymentAnswer, PayoutCardView } from './views.js';

export class Payouts {
  readonly #cards: PayoutCardView[] = [];

  constructor(private readonly database: DemoDatabase) {}

  /** Registers a card to pay out to. */
  async registerCard(gateway: GatewayClient, card: ShopperCard): Promise<PaymentAnswer & { payoutCard?: PayoutCardView }> {
    const paymentBrand = brandOf(card.number);
    let registration;
    try {
      registration = await gateway.registrations.create({ paymentBrand, card });
    } catch (error) {
      return refusalOf(error);
    }
    const last4 = registration.card?.last4Digits;
    const payoutCard = {
      registrationId: registration.id,
      card: last4 ? `${registration.paymentBrand ?? paymentBrand} •••• ${last4}` : '',
      holder: card.holder,
    };
    this.#cards.unshift(payoutCard);
    return { outcome: 'approved', message: 'Card saved.', payoutCard };
  }

  cards(): readonly PayoutCardView[] {
    return this.#cards;
  }

  /** A basic credit (payout) to a registered card. */
  async pay(gateway: GatewayClient, registrationId: string, amount: string): Promise<PaymentAnswer> {
    if (!this.#cards.some((card) => card.registrationId === registrationId)) throw new NotFound('no saved card with this registrationId');
    const merchantTransactionId = newReference(this.database, 'payout', 'Payout to a saved card');
    const { answer } = await answerOf(
      gateway.registrations.createPayment(registrationId, {
        programme: 'basicCredit',
        paymentType: 'CD',
        amount,
        currency: CURRENCY,
        merchantTransactionId,
      }),
      'Payout sent.',
    );
    return answer;
  }
}
