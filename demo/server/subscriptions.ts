/**
 * The demo's coffee subscription: the shopper signs up once with a
 * customer-initiated payment (3-D Secure, the card saved with a RECURRING
 * standing instruction), then the shop charges the saved card every month
 * without them, as merchant-initiated repeats. Each approved payment is
 * fulfilled (a month of coffee added) exactly once, whether the shop learns it
 * from its own answer, the shopper's return or a notification.
 */
import { repeatOf, savedCardOf, subscription as subscriptionInstruction, type Fulfilment, type FulfilmentOutcome, type GatewayClient, type Payment, type SavedCard, type ShopperReturn } from '../../src/server/index.js';
import { CURRENCY } from './catalogue.js';
import { NotFound } from './input.js';
import { brandOf, settle, threeDsShopper, type BrowserContext, type Outcome, type Shop, type ShopperCard } from './shop.js';
import type { PaymentView } from './views.js';

/** The same day `months` later (the last day of a shorter month), in UTC. */
function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/** The one plan: a bag of coffee a month. */
export const PLAN = { name: 'Kestrel Coffee Club', amount: '9.90', frequency: '0030' } as const;

export interface SubscriptionView {
  readonly id: string;
  readonly status: 'signing_up' | 'active' | 'cancelled' | 'failed';
  readonly plan: typeof PLAN;
  readonly card: string;
  readonly registrationId: string;
  /** The date (ISO, on the gateway's clock) the next monthly charge is due. */
  readonly nextChargeAt: string;
  /** Months of coffee fulfilled: one per approved payment, never more. */
  readonly monthsFulfilled: number;
  readonly payments: readonly PaymentView[];
}

interface Subscription {
  /** Its sign-up's merchantTransactionId. */
  id: string;
  status: SubscriptionView['status'];
  card: string;
  saved?: SavedCard;
  nextChargeAt: number;
  monthsFulfilled: number;
  readonly payments: PaymentView[];
}

export class Subscriptions {
  readonly #subscriptions = new Map<string, Subscription>();
  /** The sign-up payment's id → its subscription, for the shopper's return. */
  readonly #byPayment = new Map<string, Subscription>();
  /**
   * Each payment's merchantTransactionId → its subscription, known before the
   * payment is sent: a notification can arrive before the gateway's answer.
   */
  readonly #byReference = new Map<string, Subscription>();

  constructor(
    private readonly shop: Shop,
    /** One run per approved payment, on the status store every instance shares. */
    private readonly fulfilment: Fulfilment,
    /** The gateway's time (the sandbox's clock moves): when charges are due. */
    private readonly now: () => number,
  ) {}

  list(): SubscriptionView[] {
    return [...this.#subscriptions.values()].reverse().map((subscription) => this.#view(subscription));
  }

  #view(subscription: Subscription): SubscriptionView {
    const { saved: _saved, nextChargeAt, payments, ...rest } = subscription;
    return { ...rest, plan: PLAN, registrationId: subscription.saved?.registrationId ?? '', nextChargeAt: new Date(nextChargeAt).toISOString(), payments: [...payments] };
  }

  #get(id: string): Subscription {
    const subscription = this.#subscriptions.get(id);
    if (!subscription) throw new NotFound('no such subscription');
    return subscription;
  }

  /**
   * Fulfils an approved payment of a subscription (a month of coffee) once,
   * whichever report of it comes first; undefined when it is not one of ours.
   */
  async fulfil(payment: Pick<Payment, 'id' | 'result' | 'merchantTransactionId'>): Promise<FulfilmentOutcome<void> | undefined> {
    const subscription = this.#byReference.get(payment.merchantTransactionId ?? '');
    if (!subscription) return undefined;
    return this.fulfilment.fulfilOnce(payment, () => {
      subscription.monthsFulfilled += 1;
    });
  }

  /** A new merchantTransactionId for one of the subscription's payments, known before the payment is sent. */
  #reference(subscription: Subscription, prefix: string, label: string): string {
    const reference = this.shop.reference(prefix, label);
    this.#byReference.set(reference, subscription);
    return reference;
  }

  #record(subscription: Subscription, payment: PaymentView | undefined): void {
    if (!payment) return;
    this.#byPayment.set(payment.id, subscription);
    const known = subscription.payments.findIndex((candidate) => candidate.id === payment.id);
    if (known >= 0) subscription.payments[known] = payment;
    else subscription.payments.push(payment);
  }

  /** Sign-up: the first payment, customer-initiated, through 3-D Secure when the card asks; it saves the card. */
  async signUp(gateway: GatewayClient, card: ShopperCard, browser: BrowserContext, shopperResultUrl: string) {
    const subscription: Subscription = { id: '', status: 'signing_up', card: '', nextChargeAt: 0, monthsFulfilled: 0, payments: [] };
    subscription.id = this.#reference(subscription, 'sub', 'Subscription sign-up (customer-initiated, 3-D Secure)');
    this.#subscriptions.set(subscription.id, subscription);
    const settled = await settle(
      gateway.payments.create({
        paymentType: 'DB',
        paymentBrand: brandOf(card.number),
        amount: PLAN.amount,
        currency: CURRENCY,
        merchantTransactionId: subscription.id,
        card,
        createRegistration: true,
        standingInstruction: subscriptionInstruction({ expiry: new Date(addMonths(this.now(), 12)).toISOString().slice(0, 10), frequency: PLAN.frequency }),
        ...threeDsShopper(browser, shopperResultUrl),
      }),
      'Subscribed: the first month is paid and the card is saved.',
    );
    this.#record(subscription, settled.answer.payment);
    const answer = await this.#settleSignUp(subscription, settled);
    return { ...answer, ...(settled.outcome.kind === 'pending' && settled.outcome.redirect ? { redirect: settled.outcome.redirect } : {}), subscription: this.#view(subscription) };
  }

  /** The shopper is back from 3-D Secure: read the sign-up payment once, verified, and start the subscription. */
  async signUpReturn(gateway: GatewayClient, query: ShopperReturn): Promise<Outcome & { subscription: SubscriptionView }> {
    const subscription = typeof query.id === 'string' ? this.#byPayment.get(query.id) : undefined;
    if (!subscription) throw new NotFound('no subscription sign-up with this payment id');
    const settled = await settle(
      gateway.handleShopperReturn(query).then((payment) => gateway.verifyPayment(payment, { id: String(query.id), amount: PLAN.amount, currency: CURRENCY, paymentType: 'DB' })),
      'Subscribed after 3-D Secure: the first month is paid and the card is saved.',
    );
    this.#record(subscription, settled.answer.payment);
    const answer = await this.#settleSignUp(subscription, settled);
    return { ...answer, subscription: this.#view(subscription) };
  }

  async #settleSignUp(subscription: Subscription, { answer, outcome }: Awaited<ReturnType<typeof settle>>): Promise<Outcome> {
    if (outcome.kind === 'pending') return answer;
    if (outcome.kind !== 'approved') {
      subscription.status = 'failed';
      return answer;
    }
    subscription.saved = savedCardOf(outcome.payment);
    subscription.card = answer.payment?.card ?? '';
    subscription.status = 'active';
    subscription.nextChargeAt = addMonths(this.now(), 1);
    await this.fulfil(outcome.payment);
    return answer;
  }

  /** Charges every active subscription whose month is up, merchant-initiated (no shopper, no 3DS), once per month due. */
  async chargeDue(gateway: GatewayClient): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (const subscription of this.#subscriptions.values()) {
      while (subscription.status === 'active' && subscription.saved && subscription.nextChargeAt <= this.now()) {
        const merchantTransactionId = this.#reference(subscription, `${subscription.id}-month`, 'Subscription charge (merchant-initiated)');
        const { answer, outcome } = await settle(
          gateway.registrations.createPayment(subscription.saved.registrationId, {
            paymentType: 'DB',
            amount: PLAN.amount,
            currency: CURRENCY,
            merchantTransactionId,
            standingInstruction: repeatOf(subscription.saved),
          }),
          'Monthly charge approved.',
        );
        this.#record(subscription, answer.payment);
        subscription.nextChargeAt = addMonths(subscription.nextChargeAt, 1);
        if (outcome.kind === 'approved') await this.fulfil(outcome.payment);
        outcomes.push(answer);
      }
    }
    return outcomes;
  }

  /** Cancels: the saved card is deleted at the gateway, so no further charge can be made on it. */
  async cancel(gateway: GatewayClient, id: string): Promise<SubscriptionView> {
    const subscription = this.#get(id);
    if (subscription.status === 'active' && subscription.saved) await gateway.registrations.delete(subscription.saved.registrationId);
    subscription.status = 'cancelled';
    return this.#view(subscription);
  }
}
