/**
 * The shopper's saved cards, as a shop keeps them for one-click checkout:
 * the registration id and what the shopper needs to recognise the card
 * (brand, last 4 digits, expiry), never the card itself. A card is saved
 * through a registration-only checkout (no money moves) and read back when
 * the shopper returns; a one-click checkout offers every saved card in the
 * widget; deleting a card deletes the registration at the gateway first.
 */
import {
  CHECKOUT_LIFETIME_MS,
  GatewayNotFoundError,
  isApproved,
  outcomeOf,
  type CheckoutRegistration,
  type GatewayClient,
  type ShopperReturn,
} from 'gw-elements/server';
import { CURRENCY, ONE_CLICK_AMOUNT } from './catalogue.js';
import { newReference, type DemoDatabase, type SavedCardsRecord } from './database.js';
import { NotFound } from './input.js';
import { answerOf, refusalOf } from './payment-answer.js';
import type { CheckoutView, PaymentAnswer, SavedCardView } from './views.js';

/** The shop's standing instruction for a card saved for one-click: the first, shopper-initiated use. */
const SAVE_FOR_ONE_CLICK = { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' } as const;

export class SavedCards {
  constructor(private readonly database: DemoDatabase) {}

  get #record(): SavedCardsRecord {
    return this.database.savedCards;
  }

  cards(): SavedCardView[] {
    return [...this.#record.cards.values()];
  }

  /** A registration-only checkout: `createRegistration` and no paymentType, so its widget saves the card and charges nothing. */
  async saveCheckout(gateway: GatewayClient): Promise<CheckoutView> {
    const requestedAt = Date.now();
    const checkout = await gateway.checkouts.create({ createRegistration: true, standingInstruction: SAVE_FOR_ONE_CLICK });
    return {
      checkoutId: `${checkout.id}/registration`,
      integrity: checkout.integrity ?? '',
      expiresAt: requestedAt + CHECKOUT_LIFETIME_MS,
    };
  }

  /** The shopper is back from saving a card: the return is read as a registration, never as money received. */
  async saveReturn(gateway: GatewayClient, query: ShopperReturn): Promise<PaymentAnswer & { card?: SavedCardView }> {
    let registration: CheckoutRegistration;
    try {
      registration = await gateway.handleShopperReturn(query, { expect: 'registration' });
    } catch (error) {
      return refusalOf(error);
    }
    if (!isApproved(registration.result.code)) {
      const outcome = outcomeOf(registration);
      return { outcome: outcome.kind, message: outcome.kind === 'pending' ? 'No card saved yet: the form was not sent.' : outcome.message };
    }
    const { card: details } = registration;
    const card: SavedCardView = {
      registrationId: registration.id,
      paymentBrand: registration.paymentBrand ?? '',
      last4Digits: details?.last4Digits ?? '',
      expiry: `${details?.expiryMonth ?? '??'}/${details?.expiryYear ?? '????'}`,
    };
    const same = this.cards().find((saved) => saved.registrationId !== card.registrationId && sameCard(saved, card));
    if (same && (await this.#forget(gateway, card.registrationId))) {
      // The gateway made a second registration for a card the shopper had saved: keep one, as a shop lists a card once.
      return { outcome: 'approved', message: 'This card was already saved. Nothing was charged.', card: same };
    }
    this.#record.cards.set(card.registrationId, card);
    return { outcome: 'approved', message: 'Card saved. Nothing was charged.', card };
  }

  /** A payment checkout that offers every saved card (`registrations[n].id`) beside a new one. */
  async oneClickCheckout(gateway: GatewayClient): Promise<CheckoutView & { amount: string }> {
    const registrations = this.cards().map(({ registrationId }) => ({ id: registrationId }));
    if (!registrations.length) throw new NotFound('no saved card to pay with');
    const merchantTransactionId = newReference(this.database, 'one-click', 'One-click payment with a saved card');
    const requestedAt = Date.now();
    const checkout = await gateway.checkouts.create({
      amount: ONE_CLICK_AMOUNT,
      currency: CURRENCY,
      paymentType: 'DB',
      merchantTransactionId,
      registrations,
    });
    this.#record.oneClickCheckouts.set(checkout.id, { amount: ONE_CLICK_AMOUNT, merchantTransactionId });
    return {
      checkoutId: checkout.id,
      integrity: checkout.integrity ?? '',
      expiresAt: requestedAt + CHECKOUT_LIFETIME_MS,
      amount: ONE_CLICK_AMOUNT,
    };
  }

  /** The shopper is back from a one-click checkout: read as any payment, and verified against what the shop asked for. */
  async payReturn(gateway: GatewayClient, query: ShopperReturn): Promise<PaymentAnswer> {
    const expected = typeof query.id === 'string' ? this.#record.oneClickCheckouts.get(query.id) : undefined;
    if (!expected) throw new NotFound('no one-click checkout with this id');
    const { answer } = await answerOf(
      gateway
        .handleShopperReturn(query)
        .then((payment) =>
          gateway.verifyPayment(payment, { checkoutId: String(query.id), ...expected, currency: CURRENCY, paymentType: 'DB' }),
        ),
      'Paid in one click.',
    );
    return answer;
  }

  /** Deletes a registration at the gateway; true when it is gone (also when it already was). */
  async #forget(gateway: GatewayClient, registrationId: string): Promise<boolean> {
    try {
      await gateway.registrations.delete(registrationId);
      return true;
    } catch (error) {
      return error instanceof GatewayNotFoundError;
    }
  }

  /** Deletes the registration at the gateway, then forgets the card; one already gone at the gateway is forgotten too. */
  async delete(gateway: GatewayClient, registrationId: string): Promise<PaymentAnswer> {
    if (!this.#record.cards.has(registrationId)) throw new NotFound('no saved card with this registrationId');
    try {
      await gateway.registrations.delete(registrationId);
    } catch (error) {
      if (!(error instanceof GatewayNotFoundError)) return refusalOf(error);
    }
    this.#record.cards.delete(registrationId);
    return { outcome: 'approved', message: 'Card deleted.' };
  }
}

/** What the shop can tell a card by (it never holds the number): brand, last 4 digits and expiry. */
function sameCard(a: SavedCardView, b: SavedCardView): boolean {
  return a.paymentBrand === b.paymentBrand && a.last4Digits === b.last4Digits && a.expiry === b.expiry;
}
