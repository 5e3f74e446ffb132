/**
 * Preauthorisations: the amount is held on the card (PA), then captured in
 * parts as items ship (CP), a capture refunded (RF), or the hold released
 * when nothing was captured (RV).
 */
import { toAmount, toCents, type GatewayClient } from 'gw-elements/server';
import { CURRENCY } from './catalogue.js';
import { newReference, type DemoDatabase } from './database.js';
import { NotFound } from './input.js';
import { answerOf } from './payment-answer.js';
import { SHOPPER_EMAIL, brandOf, type ShopperCard } from './shopper.js';
import type { PaymentAnswer, PaymentView, ReservationView } from './views.js';

interface Reservation {
  readonly preauthorization: PaymentView;
  readonly captures: PaymentView[];
  readonly refunds: PaymentView[];
  readonly reversals: PaymentView[];
}

const approvedSum = (payments: readonly PaymentView[]) =>
  payments.filter((payment) => payment.kind === 'approved').reduce((total, payment) => total + toCents(payment.amount), 0);

export class Reservations {
  readonly #reservations = new Map<string, Reservation>();

  constructor(private readonly database: DemoDatabase) {}

  /** Holds `amount` on the card: the money is reserved, to be captured in parts later. */
  async reserve(
    gateway: GatewayClient,
    card: ShopperCard,
    amount: string,
    ip: string,
  ): Promise<PaymentAnswer & { reservation?: ReservationView }> {
    const paymentBrand = brandOf(card.number);
    const merchantTransactionId = newReference(this.database, 'hold', 'Preauthorisation');
    const { answer } = await answerOf(
      gateway.payments.create({
        paymentType: 'PA',
        paymentBrand,
        amount,
        currency: CURRENCY,
        merchantTransactionId,
        card,
        customer: { email: SHOPPER_EMAIL, ip },
      }),
      'Amount reserved on the card.',
    );
    if (answer.outcome !== 'approved' || !answer.payment) return answer;
    this.#reservations.set(answer.payment.id, { preauthorization: answer.payment, captures: [], refunds: [], reversals: [] });
    return { ...answer, reservation: this.view(answer.payment.id) };
  }

  #get(id: string): Reservation {
    const reservation = this.#reservations.get(id);
    if (!reservation) throw new NotFound('no such preauthorisation');
    return reservation;
  }

  view(id: string): ReservationView {
    const reservation = this.#get(id);
    const captured = approvedSum(reservation.captures);
    return {
      preauthorization: reservation.preauthorization,
      captures: [...reservation.captures],
      refunds: [...reservation.refunds],
      reversals: [...reservation.reversals],
      reversed: reservation.reversals.some((reversal) => reversal.kind === 'approved'),
      capturedAmount: toAmount(captured),
      remainingAmount: toAmount(Math.max(0, toCents(reservation.preauthorization.amount) - captured)),
      refundedAmount: toAmount(approvedSum(reservation.refunds)),
      refundable: Object.fromEntries(
        reservation.captures
          .filter((capture) => capture.kind === 'approved')
          .map((capture) => [
            capture.id,
            toAmount(
              Math.max(
                0,
                toCents(capture.amount) - approvedSum(reservation.refunds.filter((refund) => refund.referencedId === capture.id)),
              ),
            ),
          ]),
      ),
    };
  }

  list(): readonly ReservationView[] {
    return [...this.#reservations.keys()].reverse().map((id) => this.view(id));
  }

  /** Captures part (or all) of a preauthorisation. */
  async capture(gateway: GatewayClient, reservationId: string, amount: string): Promise<PaymentAnswer & { reservation: ReservationView }> {
    const reservation = this.#get(reservationId);
    // Given the preauthorisation itself, the client files the capture under its merchantTransactionId: the report by it finds both.
    const { answer } = await answerOf(gateway.payments.capture(reservation.preauthorization, { amount, currency: CURRENCY }), 'Captured.');
    // A refused capture is a transaction of its own on the platform (an id, its code): the page shows it in the answer, not as a capture.
    if (answer.payment && answer.outcome !== 'invalid') reservation.captures.push(answer.payment);
    return { ...answer, reservation: this.view(reservationId) };
  }

  /** Refunds a capture, in full or in part (paymentType RF on the payments endpoint). */
  async refund(
    gateway: GatewayClient,
    reservationId: string,
    captureId: string,
    amount: string,
  ): Promise<PaymentAnswer & { reservation: ReservationView }> {
    const reservation = this.#reservations.get(reservationId);
    const capture = reservation?.captures.find((candidate) => candidate.id === captureId);
    if (!reservation || !capture) throw new NotFound('no such capture of this preauthorisation');
    // Filed, like the capture, under the preauthorisation's merchantTransactionId.
    const { answer } = await answerOf(gateway.payments.refund(capture, { amount, currency: CURRENCY }), 'Refunded.');
    if (answer.payment && answer.outcome !== 'invalid') reservation.refunds.push(answer.payment);
    return { ...answer, reservation: this.view(reservationId) };
  }

  /** Releases a preauthorisation nothing was captured from (paymentType RV): the hold on the shopper's card ends. */
  async reverse(gateway: GatewayClient, reservationId: string): Promise<PaymentAnswer & { reservation: ReservationView }> {
    const reservation = this.#get(reservationId);
    const { answer } = await answerOf(
      gateway.payments.reverse(reservation.preauthorization),
      'Preauthorisation reversed: the hold is released.',
    );
    if (answer.payment && answer.outcome !== 'invalid') reservation.reversals.push(answer.payment);
    return { ...answer, reservation: this.view(reservationId) };
  }
}
