/**
 * The demo's coffee subscription: the shopper signs up once with a
 * customer-initiated payment (3-D Secure, the card saved with a RECURRING
 * standing instruction), then the shop charges the saved card every month
 * without them, as merchant-initiated repeats. Each approved payment is
 * fulfilled (a month of coffee added) exactly once, whether the shop learns it
 * from its own answer, the shopper's return or a notification, and each month
 * is charged at most once however the billing runs overlap.
 */
import {
  repeatOf,
  savedCardOf,
  subscription as subscriptionInstruction,
  type Fulfilment,
  type FulfilmentOutcome,
  type GatewayClient,
  type Payment,
  type SavedCard,
  type ShopperReturn,
  type StatusStore,
} from 'gw-elements/server';
import { CURRENCY, PLAN } from './catalogue.js';
import { listReference, newReference, type DemoDatabase, type SubscriptionRecord } from './database.js';
import { NotFound } from './input.js';
import { MONEY_CLAIM_MS } from './money-claims.js';
import { answerOf } from './payment-answer.js';
import { brandOf, threeDsShopper, type BrowserContext, type ShopperCard } from './shopper.js';
import type { PaymentAnswer, PaymentView, SubscriptionView } from './views.js';

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

/** What the status store keeps for a month whose charge is decided, for every instance. */
interface SettledMonth {
  readonly paymentId?: string;
  readonly outcome: string;
}

export class Subscriptions {
  constructor(
    /** Shared by every instance: who charges which month. */
    private readonly statusStore: StatusStore,
    private readonly database: DemoDatabase,
    /** One run per approved payment, on the status store every instance shares. */
    private readonly fulfilment: Fulfilment,
    /** The gateway's time (the sandbox's clock moves): when charges are due. */
    private readonly now: () => number,
  ) {}

  list(): SubscriptionView[] {
    return [...this.database.subscriptions.values()].reverse().map((subscription) => this.#view(subscription));
  }

  #view(subscription: SubscriptionRecord): SubscriptionView {
    const { saved: _saved, startedAt, settledMonths, sentMonths: _sentMonths, payments, ...rest } = subscription;
    let next = 1;
    while (settledMonths.includes(next)) next++;
    return {
      ...rest,
      plan: PLAN,
      registrationId: subscription.saved?.registrationId ?? '',
      nextChargeAt: new Date(startedAt ? addMonths(startedAt, next) : 0).toISOString(),
      payments: [...payments],
    };
  }

  #get(id: string): SubscriptionRecord {
    const subscription = this.database.subscriptions.get(id);
    if (!subscription) throw new NotFound('no such subscription');
    return subscription;
  }

  /** The subscription a payment belongs to, by its merchantTransactionId or (the sign-up's) payment id. */
  #of(key: string | undefined): SubscriptionRecord | undefined {
    const id = this.database.subscriptionOf.get(key ?? '');
    return id === undefined ? undefined : this.database.subscriptions.get(id);
  }

  /**
   * Fulfils an approved payment of a subscription (a month of coffee) once,
   * whichever report of it comes first; undefined when it is not one of ours.
   */
  async fulfil(payment: Pick<Payment, 'id' | 'result' | 'merchantTransactionId'>): Promise<FulfilmentOutcome<void> | undefined> {
    const subscription = this.#of(payment.merchantTransactionId);
    if (!subscription) return undefined;
    return this.fulfilment.fulfilOnce(payment, () => {
      subscription.monthsFulfilled += 1;
    });
  }

  /** Notes a merchantTransactionId as the subscription's before the payment is sent: a notification can arrive before the gateway's answer. */
  #own(subscription: SubscriptionRecord, merchantTransactionId: string): void {
    this.database.subscriptionOf.set(merchantTransactionId, subscription.id);
  }

  #record(subscription: SubscriptionRecord, payment: PaymentView | undefined): void {
    if (!payment) return;
    this.database.subscriptionOf.set(payment.id, subscription.id);
    const known = subscription.payments.findIndex((candidate) => candidate.id === payment.id);
    if (known >= 0) subscription.payments[known] = payment;
    else subscription.payments.push(payment);
  }

  /** Sign-up: the first payment, customer-initiated, through 3-D Secure when the card asks; it saves the card. */
  async signUp(gateway: GatewayClient, card: ShopperCard, browser: BrowserContext, shopperResultUrl: string) {
    const subscription: SubscriptionRecord = {
      id: newReference(this.database, 'sub', 'Subscription sign-up (customer-initiated, 3-D Secure)'),
      status: 'signing_up',
      card: '',
      startedAt: 0,
      settledMonths: [],
      sentMonths: [],
      monthsFulfilled: 0,
      payments: [],
    };
    this.#own(subscription, subscription.id);
    this.database.subscriptions.set(subscription.id, subscription);
    const answered = await answerOf(
      gateway.payments.create({
        paymentType: 'DB',
        paymentBrand: brandOf(card.number),
        amount: PLAN.amount,
        currency: CURRENCY,
        merchantTransactionId: subscription.id,
        card,
        createRegistration: true,
        standingInstruction: subscriptionInstruction({
          expiry: new Date(addMonths(this.now(), 12)).toISOString().slice(0, 10),
          frequency: PLAN.frequency,
        }),
        ...threeDsShopper(browser, shopperResultUrl),
      }),
      'Subscribed: the first month is paid and the card is saved.',
    );
    this.#record(subscription, answered.answer.payment);
    const answer = await this.#concludeSignUp(subscription, answered);
    return {
      ...answer,
      ...(answered.outcome.kind === 'pending' && answered.outcome.redirect ? { redirect: answered.outcome.redirect } : {}),
      subscription: this.#view(subscription),
    };
  }

  /** The shopper is back from 3-D Secure: read the sign-up payment once, verified, and start the subscription. */
  async signUpReturn(gateway: GatewayClient, query: ShopperReturn): Promise<PaymentAnswer & { subscription: SubscriptionView }> {
    const subscription = typeof query.id === 'string' ? this.#of(query.id) : undefined;
    if (!subscription) throw new NotFound('no subscription sign-up with this payment id');
    const answered = await answerOf(
      gateway
        .handleShopperReturn(query)
        .then((payment) =>
          gateway.verifyPayment(payment, { id: String(query.id), amount: PLAN.amount, currency: CURRENCY, paymentType: 'DB' }),
        ),
      'Subscribed after 3-D Secure: the first month is paid and the card is saved.',
    );
    this.#record(subscription, answered.answer.payment);
    const answer = await this.#concludeSignUp(subscription, answered);
    return { ...answer, subscription: this.#view(subscription) };
  }

  async #concludeSignUp(
    subscription: SubscriptionRecord,
    { answer, outcome }: Awaited<ReturnType<typeof answerOf>>,
  ): Promise<PaymentAnswer> {
    if (outcome.kind === 'pending') return answer;
    if (outcome.kind !== 'approved') {
      subscription.status = 'failed';
      return answer;
    }
    subscription.saved = savedCardOf(outcome.payment);
    subscription.card = answer.payment?.card ?? '';
    // A reload of the return must not move the subscription's months.
    if (subscription.status !== 'active') subscription.startedAt = this.now();
    subscription.status = 'active';
    await this.fulfil(outcome.payment);
    return answer;
  }

  /**
   * The billing run: charges every active subscription's months that are due
   * and not yet decided, merchant-initiated (no shopper, no 3DS). Runs may
   * overlap (a double click, two instances, a restart): each month is claimed
   * on the shared status store before its charge, so it is charged at most once.
   */
  async chargeDue(gateway: GatewayClient): Promise<PaymentAnswer[]> {
    const outcomes: PaymentAnswer[] = [];
    for (const subscription of this.database.subscriptions.values()) {
      for (
        let month = 1;
        subscription.status === 'active' && subscription.saved && addMonths(subscription.startedAt, month) <= this.now();
        month++
      ) {
        if (subscription.settledMonths.includes(month)) continue;
        const answer = await this.#chargeMonth(gateway, subscription, subscription.saved, month);
        if (answer) outcomes.push(answer);
      }
    }
    return outcomes;
  }

  /**
   * One month's charge, by one run only: the month is claimed on the status
   * store (a run that finds it claimed leaves it to the holder), and its
   * merchantTransactionId is the month's own, so a charge whose answer was
   * lost (or whose run died) is found again by it before anything is sent.
   * Undefined when another run has it.
   */
  async #chargeMonth(
    gateway: GatewayClient,
    subscription: SubscriptionRecord,
    saved: SavedCard,
    month: number,
  ): Promise<PaymentAnswer | undefined> {
    const key = `subscription-month:${subscription.id}:${month}`;
    const token = globalThis.crypto.randomUUID();
    const now = Date.now();
    const claim = await this.statusStore.claim(key, { token, now, until: now + MONEY_CLAIM_MS });
    if (claim.status === 'final') {
      this.#settleMonth(subscription, month);
      return undefined;
    }
    if (claim.status !== 'claimed') return undefined;
    const merchantTransactionId = `${subscription.id}-month-${month}`;
    this.#own(subscription, merchantTransactionId);
    listReference(this.database, merchantTransactionId, 'Subscription charge (merchant-initiated)');
    let settledMonth: SettledMonth | undefined;
    try {
      // Sent before (its answer lost, or its run died): the gateway's record by the month's reference decides, never a second charge.
      const earlier = subscription.sentMonths.includes(month)
        ? (await gateway.reports.findByMerchantTransactionId(merchantTransactionId)).payments.find(
            (payment) => payment.paymentType === 'DB',
          )
        : undefined;
      if (!subscription.sentMonths.includes(month)) subscription.sentMonths.push(month);
      const { answer, outcome } = await answerOf(
        earlier
          ? Promise.resolve(earlier)
          : gateway.registrations.createPayment(saved, {
              paymentType: 'DB',
              amount: PLAN.amount,
              currency: CURRENCY,
              merchantTransactionId,
              standingInstruction: repeatOf(saved),
            }),
        earlier
          ? 'Monthly charge found by its reference (its answer had been lost): approved, not charged again.'
          : 'Monthly charge approved.',
      );
      this.#record(subscription, answer.payment);
      // Unknown (answer and look-ups lost) or not sent (throttled): the month stays open for the next run, which looks it up first.
      if (outcome.kind !== 'uncertain' && outcome.kind !== 'throttled') {
        settledMonth = { outcome: outcome.kind, ...(outcome.payment ? { paymentId: outcome.payment.id } : {}) };
        this.#settleMonth(subscription, month);
      }
      if (outcome.kind === 'approved') await this.fulfil(outcome.payment);
      return answer;
    } finally {
      await this.statusStore.settle(key, token, settledMonth ? { value: JSON.stringify(settledMonth), final: true } : {});
    }
  }

  #settleMonth(subscription: SubscriptionRecord, month: number): void {
    if (!subscription.settledMonths.includes(month)) subscription.settledMonths.push(month);
  }

  /** Cancels: the saved card is deleted at the gateway, so no further charge can be made on it. */
  async cancel(gateway: GatewayClient, id: string): Promise<SubscriptionView> {
    const subscription = this.#get(id);
    if (subscription.status === 'active' && subscription.saved) await gateway.registrations.delete(subscription.saved);
    subscription.status = 'cancelled';
    return this.#view(subscription);
  }
}
