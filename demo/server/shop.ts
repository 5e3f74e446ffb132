/**
 * The demo merchant's business: orders paid through the widget, card payments
 * with 3-D Secure, preauthorisations with captures and refunds, saved cards and
 * payouts, all through the server helper. State lives in memory (a real shop
 * keeps it in its database); every amount is decided here, never by the page.
 */
import {
  brandOfCard,
  CHECKOUT_LIFETIME_MS,
  GatewayError,
  GatewayVerificationError,
  isApproved,
  outcomeOf,
  StatusUnknownError,
  toOutcome,
  toAmount,
  toCents,
  verifyPayment,
  type CardDetails,
  type ChallengeWindow,
  type GatewayClient,
  type Outcome as GatewayOutcome,
  type Payment,
  type PaymentBrand,
  type ShopperReturn,
  type StatusStore,
} from 'gw-elements/server';
import { CURRENCY, priceCart, type CartLine } from './catalogue.js';
import type { DemoDatabase } from './database.js';
import { BadRequest, NotFound } from './input.js';
import {
  paymentView,
  type OrderLineView,
  type OrderView,
  type PaymentView,
  type ReferenceView,
  type ReservationView,
  type ReturnOutcome,
  type SavedCardView,
} from './views.js';

/** The demo's one shopper (a server-to-server payment needs an e-mail address). */
const SHOPPER_EMAIL = 'jane.jones@example.com';

/** Card details as the demo's server-to-server flows send them: holder and security code included. */
export type ShopperCard = CardDetails & { holder: string; cvv: string };

/** What the shopper's browser adds to a server-to-server payment (3-D Secure needs it). */
export interface BrowserContext {
  readonly ip: string;
  readonly acceptHeader: string;
  readonly userAgent: string;
  readonly language: string;
  readonly screenWidth: string;
  readonly screenHeight: string;
  readonly screenColorDepth: string;
  readonly timezone: string;
  readonly challengeWindow: ChallengeWindow;
}

export interface OrderRecord {
  /** Also the merchantTransactionId of each of its checkouts: the report by it lists every charge of the order. */
  readonly id: string;
  readonly lines: OrderLineView[];
  readonly amount: string;
  status: OrderView['status'];
  checkoutId: string;
  integrity: string;
  checkoutExpiresAt: number;
  /** Every checkout opened for the order, oldest first: the shopper may come back from any of them ("start again" leaves the old one's 3-D Secure open). */
  readonly checkoutIds: string[];
  attempts: PaymentView[];
  /** The approved payment that pays the order: the first one any instance learned of. */
  paidBy?: string;
  /** Second approved charges for the order, each refunded (or reversed) once. */
  readonly refunds: PaymentView[];
}

interface Reservation {
  readonly preauthorization: PaymentView;
  readonly captures: PaymentView[];
  readonly refunds: PaymentView[];
  readonly reversals: PaymentView[];
}

/** The answer to a payment attempt: the payment when the gateway gave one, and what it means for the shop. */
export interface Outcome {
  readonly outcome: ReturnOutcome;
  readonly message: string;
  readonly payment?: PaymentView;
  readonly retryAfterSeconds?: number;
  /** The gateway's code when it refused the request without a payment (e.g. `700.400.100` cannot capture). */
  readonly resultCode?: string;
}

/** What a server-to-server payment with the gateway's 3-D Secure step carries about the shopper: browser, billing, return address. */
export function threeDsShopper(browser: BrowserContext, shopperResultUrl: string) {
  return {
    customer: {
      email: SHOPPER_EMAIL,
      ip: browser.ip,
      browser: {
        acceptHeader: browser.acceptHeader,
        userAgent: browser.userAgent,
        language: browser.language,
        screenWidth: browser.screenWidth,
        screenHeight: browser.screenHeight,
        screenColorDepth: browser.screenColorDepth,
        timezone: browser.timezone,
        javaEnabled: false,
        challengeWindow: browser.challengeWindow,
      },
    },
    billing: { street1: 'Hauptstrasse 1', city: 'Vienna', country: 'AT', postcode: '1010' },
    shopperResultUrl,
  };
}

const DEMO_BRANDS: readonly PaymentBrand[] = ['VISA', 'MASTER'];

/** The card brand a number belongs to, for `paymentBrand` (the demo takes VISA and Mastercard). */
export function brandOf(cardNumber: string): PaymentBrand {
  const brand = DEMO_BRANDS.find((candidate) => brandOfCard(cardNumber) === candidate);
  if (!brand) throw new BadRequest('the demo takes VISA and Mastercard numbers only');
  return brand;
}

const PENDING_MESSAGE = 'Waiting for the shopper (3-D Secure or payment not finished).';

/**
 * What the page is told about a payment call: the client's own outcome
 * (`toOutcome`, one mapping for every caller), its payment as a view, and the
 * shop's words for it. A call that got no usable answer (`failed`) or whose
 * credentials were refused (`unauthorized`) is the shop's failure, not an
 * outcome: it is thrown, and answered 502 with the calls made.
 */
export async function settle(call: Promise<Payment>, approvedMessage: string): Promise<{ answer: Outcome; outcome: GatewayOutcome }> {
  const outcome = await toOutcome(call);
  if (outcome.kind === 'failed' || outcome.kind === 'unauthorized') throw outcome.error;
  let message = outcome.message;
  if (outcome.kind === 'approved') message = approvedMessage;
  if (outcome.kind === 'pending') message = PENDING_MESSAGE;
  if (outcome.kind === 'uncertain')
    message = `Outcome unknown; not retried. Look it up by merchantTransactionId ${outcome.merchantTransactionId}.`;
  if (outcome.kind === 'invalid' && outcome.parameterErrors.length)
    message = `${message}: ${outcome.parameterErrors.map((field) => `${field.name} ${field.message}`).join('; ')}`;
  const answer: Outcome = {
    outcome: outcome.kind,
    message,
    ...(outcome.payment ? { payment: paymentView(outcome.payment) } : {}),
    ...(outcome.kind === 'throttled' && outcome.retryAfterSeconds !== undefined ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
    // A checkout that may still be paid (a 3-D Secure challenge still open, a lost answer) says when to ask again.
    ...(outcome.kind === 'uncertain' && outcome.error instanceof StatusUnknownError
      ? { retryAfterSeconds: outcome.error.retryAfterSeconds }
      : {}),
    ...(outcome.resultCode && !outcome.payment ? { resultCode: outcome.resultCode } : {}),
  };
  return { answer, outcome };
}

/** What the page is told about a call the gateway refused (the client's outcome for `error`); failures and bugs are thrown on. */
async function refusal(error: unknown): Promise<Outcome> {
  return (await settle(Promise.reject(error), '')).answer;
}

/**
 * How long one instance holds a claim on a money call (a subscription month's
 * charge, a second charge's refund): longer than the call and its look-ups
 * can take, so no other instance makes it meanwhile; a crashed holder's claim
 * lapses after that, and the next run looks the call up by its reference first.
 */
export const MONEY_CLAIM_MS = 5 * 60 * 1000;

/** What became of a second charge, as the status store keeps it for every instance. */
interface Undo {
  readonly refund?: PaymentView;
  readonly refused?: string;
}

/** The kinds of payment that charge an order (widget checkouts make DB; a PA is reversed, not refunded). */
const CHARGE_TYPES: ReadonlySet<string> = new Set(['DB', 'PA']);

export class Shop {
  readonly #cardPayments = new Map<string, { amount: string; currency: string }>();
  readonly #reservations = new Map<string, Reservation>();
  readonly #savedCards: SavedCardView[] = [];
  constructor(
    /** Shared by every per-request client and instance: approved statuses, the 2-a-minute status limit, and who refunds what. */
    readonly statusStore: StatusStore,
    readonly database: DemoDatabase,
  ) {}

  /** A new merchantTransactionId (`prefix-1001`, unique per transaction as the seed recommends), listed for the transactions page. */
  reference(prefix: string, label: string): string {
    const merchantTransactionId = `${prefix}-${++this.database.sequence}`;
    this.listReference(merchantTransactionId, label);
    return merchantTransactionId;
  }

  /** Lists a merchantTransactionId made elsewhere (a subscription month's) for the transactions page, once. */
  listReference(merchantTransactionId: string, label: string): void {
    if (!this.database.references.some((known) => known.merchantTransactionId === merchantTransactionId))
      this.database.references.unshift({ merchantTransactionId, label });
  }

  references(): readonly ReferenceView[] {
    return this.database.references;
  }

  #order(id: string): OrderRecord {
    const order = this.database.orders.get(id);
    if (!order) throw new NotFound('no such order');
    return order;
  }

  #view(order: OrderRecord): OrderView {
    const { checkoutIds: _checkoutIds, paidBy: _paidBy, ...rest } = order;
    return { ...rest, currency: CURRENCY, lines: [...order.lines], attempts: [...order.attempts], refunds: [...order.refunds] };
  }

  /** Prices the cart and opens a checkout for it (1. Create checkout). */
  async createOrder(gateway: GatewayClient, lines: readonly CartLine[]): Promise<OrderView> {
    const priced = priceCart(lines);
    const id = this.reference('KC', 'Shop order paid with the widget');
    const order: OrderRecord = {
      id,
      lines: priced.lines.map(({ product, quantity }) => ({
        sku: product.sku,
        name: product.name,
        quantity,
        amount: toAmount(product.priceCents * quantity),
      })),
      amount: toAmount(priced.totalCents),
      status: 'awaiting_payment',
      checkoutId: '',
      integrity: '',
      checkoutExpiresAt: 0,
      checkoutIds: [],
      attempts: [],
      refunds: [],
    };
    await this.#openCheckout(gateway, order);
    this.database.orders.set(id, order);
    return this.#view(order);
  }

  async #openCheckout(gateway: GatewayClient, order: OrderRecord): Promise<void> {
    const requestedAt = Date.now();
    const checkout = await gateway.checkouts.create({
      amount: order.amount,
      currency: CURRENCY,
      paymentType: 'DB',
      // Every checkout of the order carries the order's id: the report by it finds each charge, whichever checkout took it.
      merchantTransactionId: order.id,
      customParameters: { OrderID: order.id },
    });
    order.checkoutId = checkout.id;
    order.checkoutIds.push(checkout.id);
    order.integrity = checkout.integrity ?? '';
    // Counted from before the request, so the page never offers a checkout the gateway has already dropped.
    order.checkoutExpiresAt = requestedAt + CHECKOUT_LIFETIME_MS;
    if (order.status !== 'paid') order.status = 'awaiting_payment';
  }

  getOrder(id: string): OrderView {
    return this.#view(this.#order(id));
  }

  /**
   * A new checkout for an order whose checkout expired: the "start again" path.
   * A 3-D Secure challenge on the old checkout may still be finished after
   * this; if both are paid, the second charge is refunded (`#settleCharges`).
   */
  async restartCheckout(gateway: GatewayClient, id: string): Promise<OrderView> {
    const order = this.#order(id);
    if (order.status === 'paid') throw new BadRequest('this order is paid already');
    await this.#openCheckout(gateway, order);
    return this.#view(order);
  }

  /**
   * The shopper is back from the widget (3. Get payment status) through any of
   * the order's checkouts: read, verify against the order, then settle every
   * charge the order has (the checkout's status cannot show a charge made on it
   * after it expired, the report by the order's reference can).
   */
  async orderReturn(gateway: GatewayClient, id: string, query: ShopperReturn): Promise<Outcome & { order: OrderView }> {
    const order = this.#order(id);
    const checkoutId = typeof query.id === 'string' ? query.id : '';
    if (!order.checkoutIds.includes(checkoutId)) throw new BadRequest("this return is not about one of the order's checkouts");
    const { answer, outcome } = await settle(
      gateway
        .handleShopperReturn(query)
        .then((payment) => gateway.verifyPayment(payment, { checkoutId, amount: order.amount, currency: CURRENCY, paymentType: 'DB' })),
      'Payment approved and verified against the order.',
    );
    if (answer.payment && !order.attempts.some((attempt) => attempt.id === answer.payment?.id)) order.attempts.push(answer.payment);
    // Declined, pending or throttled: this checkout's own answer is the shopper's. Anything else may hide a charge.
    if (!['approved', 'not_found', 'uncertain'].includes(answer.outcome)) return { ...answer, order: this.#view(order) };
    try {
      await this.#settleCharges(gateway, order);
    } catch (error) {
      // The report could not be read: the payment this checkout showed still settles for itself; other charges wait for the next report.
      if (!(error instanceof GatewayError) || outcome.kind !== 'approved') throw error;
      await this.#settleCharges(gateway, order, [outcome.payment]);
    }
    const own = answer.payment?.id;
    if (order.status === 'paid' && own && answer.outcome === 'approved' && own !== order.paidBy) {
      const refund = order.refunds.find((candidate) => candidate.referencedId === own);
      const undone = refund?.paymentType === 'RV' ? 'released' : 'refunded';
      const message = refund
        ? `Order ${order.id} was already paid by another payment, so this payment of ${refund.amount} ${refund.currency} was ${undone} to your card.`
        : `Order ${order.id} was already paid by another payment, so this payment is being refunded to your card.`;
      return { outcome: 'refunded', message, ...(answer.payment ? { payment: answer.payment } : {}), order: this.#view(order) };
    }
    // The checkout itself no longer shows its payment (it expired, or was read before): the report told what happened.
    const refund = answer.outcome === 'approved' ? undefined : order.refunds.at(-1);
    if (order.status === 'paid' && refund) {
      const undone = refund.paymentType === 'RV' ? 'released' : 'refunded';
      const message = `Order ${order.id} is paid once. A second charge for it of ${refund.amount} ${refund.currency} was ${undone} to your card.`;
      return { outcome: 'refunded', message, order: this.#view(order) };
    }
    if (order.status === 'paid') {
      const payment = order.attempts.find((attempt) => attempt.id === order.paidBy);
      return {
        outcome: 'approved',
        message: 'Payment approved and verified against the order.',
        ...(payment ? { payment } : {}),
        order: this.#view(order),
      };
    }
    // The gateway's answer to a status call on an expired (or consumed) checkout, and the report shows no charge: expiry.
    if (answer.outcome === 'not_found') {
      if (order.checkoutId === checkoutId) order.status = 'expired';
      return { outcome: 'expired', message: 'The payment session expired (checkouts live 30 minutes).', order: this.#view(order) };
    }
    return { ...answer, order: this.#view(order) };
  }

  /** What a reconciliation job does: every charge of the order, from the report by its reference, settled. */
  async reconcileOrder(gateway: GatewayClient, id: string): Promise<OrderView> {
    const order = this.#order(id);
    await this.#settleCharges(gateway, order);
    return this.#view(order);
  }

  /**
   * A notification about a payment: when it is an approved charge of an order,
   * settles the order's charges. Undefined when it is not about an order;
   * 'not settled yet' when a refund could not be asked for (send it again).
   */
  async orderCharged(
    gateway: GatewayClient,
    payment: Pick<Payment, 'merchantTransactionId' | 'result' | 'paymentType'>,
  ): Promise<'order paid' | 'second charge refunded' | 'not approved' | 'not settled yet' | undefined> {
    const order = this.database.orders.get(payment.merchantTransactionId ?? '');
    if (!order || !CHARGE_TYPES.has(payment.paymentType)) return undefined;
    if (!isApproved(payment.result.code)) return 'not approved';
    const { refundsOpen } = await this.#settleCharges(gateway, order);
    if (refundsOpen) return 'not settled yet';
    return order.refunds.length ? 'second charge refunded' : 'order paid';
  }

  /**
   * An order is paid once: of its approved charges (every checkout of the order
   * shares its merchantTransactionId, so the report lists them all), the first
   * one any instance learned of pays it, decided once on the shared status
   * store; every other one is refunded, or reversed when a preauthorisation,
   * exactly once (`#undoCharge`). `known` stands in for the report when it
   * cannot be read (the charge a status read just showed).
   */
  async #settleCharges(gateway: GatewayClient, order: OrderRecord, known?: readonly Payment[]): Promise<{ refundsOpen: boolean }> {
    const payments = known ?? (await gateway.reports.findByMerchantTransactionId(order.id)).payments;
    const charges = payments.filter((payment) => CHARGE_TYPES.has(payment.paymentType));
    if (!known) order.attempts = charges.map(paymentView);
    const approved = charges.filter((payment) => isApproved(payment.result.code) && this.#isTheOrders(payment, order));
    const first = approved.find((payment) => payment.id === order.paidBy) ?? approved[0];
    if (!first) return { refundsOpen: false };
    // Store.settle keeps the first final value and answers it: one atomic "first report wins" for every instance.
    const paidBy = await this.statusStore.settle(`order-paid:${order.id}`, globalThis.crypto.randomUUID(), {
      value: first.id,
      final: true,
    });
    order.paidBy = paidBy ?? first.id;
    order.status = 'paid';
    let refundsOpen = false;
    for (const charge of approved) {
      if (charge.id === order.paidBy) continue;
      // A refund the gateway could not be asked for stays open for the next report of the charge; the others go on.
      refundsOpen =
        !(await this.#undoCharge(gateway, order, charge).catch((error: unknown) => {
          if (error instanceof GatewayError) return false;
          throw error;
        })) || refundsOpen;
    }
    return { refundsOpen };
  }

  /** A charge of the order's amount and currency (a charge that does not match is not the order's to keep or refund). */
  #isTheOrders(payment: Payment, order: OrderRecord): boolean {
    try {
      verifyPayment(payment, { merchantTransactionId: order.id, amount: order.amount, currency: CURRENCY });
      return true;
    } catch (error) {
      if (error instanceof GatewayVerificationError) return false;
      throw error;
    }
  }

  /**
   * Refunds a second charge in full (reverses it when a preauthorisation),
   * once across instances: claimed on the status store, and its own reference
   * looked up before sending, so a refund whose answer was lost is found
   * again instead of sent twice. Not knowing (the answer and the look-ups
   * lost) leaves it open for the next report of the charge.
   */
  async #undoCharge(gateway: GatewayClient, order: OrderRecord, charge: Payment): Promise<boolean> {
    const key = `order-refund:${charge.id}`;
    const token = globalThis.crypto.randomUUID();
    const now = Date.now();
    const claim = await this.statusStore.claim(key, { token, now, until: now + MONEY_CLAIM_MS });
    if (claim.status === 'final') {
      this.#noteRefund(order, JSON.parse(claim.value) as Undo);
      return true;
    }
    if (claim.status !== 'claimed') return true; // another request refunds it right now
    let undo: Undo | undefined;
    try {
      const merchantTransactionId = `${order.id}-refund-${charge.id}`;
      this.listReference(merchantTransactionId, 'Refund of a second charge for a paid order');
      const { payments } = await gateway.reports.findByMerchantTransactionId(merchantTransactionId);
      const earlier = payments.find((payment) => payment.paymentType === 'RF' || payment.paymentType === 'RV');
      const outcome = earlier
        ? outcomeOf(earlier)
        : await toOutcome(
            charge.paymentType === 'PA'
              ? gateway.payments.reverse(charge.id, { merchantTransactionId })
              : gateway.payments.refund(charge.id, {
                  amount: charge.amount ?? order.amount,
                  currency: charge.currency ?? CURRENCY,
                  merchantTransactionId,
                }),
          );
      // The platform does not always echo referencedId on a refund: the shop knows which charge it undid.
      if (outcome.kind === 'approved') undo = { refund: { ...paymentView(outcome.payment), referencedId: charge.id } };
      // Refused (it cannot be refunded, e.g. a chargeback came first): final too, so it is not sent again; a person looks at it.
      else if (outcome.kind === 'declined' || outcome.kind === 'invalid' || outcome.kind === 'not_found')
        undo = { refused: outcome.resultCode ?? outcome.kind };
    } finally {
      // Decided: final for every instance. Not known (answer and look-ups lost): the claim ends, and the next report of the charge looks again.
      await this.statusStore.settle(key, token, undo ? { value: JSON.stringify(undo), final: true } : {});
    }
    if (undo) this.#noteRefund(order, undo);
    return undo !== undefined;
  }

  #noteRefund(order: OrderRecord, { refund, refused }: Undo): void {
    if (refused) console.error(`demo merchant: a second charge of order ${order.id} could not be refunded (${refused}); it needs a person`);
    if (refund && !order.refunds.some((known) => known.id === refund.id)) order.refunds.push(refund);
  }

  /** 4. A server-to-server debit; 3-D Secure answers pending with the redirect for `<gw-3ds-handler>`. */
  async payByCard(gateway: GatewayClient, card: ShopperCard, amount: string, browser: BrowserContext, shopperResultUrl: string) {
    const paymentBrand = brandOf(card.number);
    const merchantTransactionId = this.reference('card', 'Card payment (server-to-server, 3-D Secure)');
    const { answer, outcome } = await settle(
      gateway.payments.create({
        paymentType: 'DB',
        paymentBrand,
        amount,
        currency: CURRENCY,
        merchantTransactionId,
        card,
        ...threeDsShopper(browser, shopperResultUrl),
      }),
      'Payment approved without a challenge.',
    );
    if (answer.payment) this.#cardPayments.set(answer.payment.id, { amount, currency: CURRENCY });
    return { ...answer, ...(outcome.kind === 'pending' && outcome.redirect ? { redirect: outcome.redirect } : {}) };
  }

  /** The shopper is back from 3-D Secure (5. Get payment status), verified against what was sent. */
  async cardPaymentReturn(gateway: GatewayClient, query: ShopperReturn): Promise<Outcome> {
    const expected = typeof query.id === 'string' ? this.#cardPayments.get(query.id) : undefined;
    if (!expected) throw new NotFound('no card payment with this id');
    const { answer } = await settle(
      gateway
        .handleShopperReturn(query)
        .then((payment) => gateway.verifyPayment(payment, { id: String(query.id), ...expected, paymentType: 'DB' })),
      'Payment approved after 3-D Secure.',
    );
    return answer;
  }

  /** A preauthorisation (PA): the money is held, to be captured in parts later. */
  async reserve(
    gateway: GatewayClient,
    card: ShopperCard,
    amount: string,
    ip: string,
  ): Promise<Outcome & { reservation?: ReservationView }> {
    const paymentBrand = brandOf(card.number);
    const merchantTransactionId = this.reference('hold', 'Preauthorisation');
    const { answer } = await settle(
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
    return { ...answer, reservation: this.reservation(answer.payment.id) };
  }

  reservation(id: string): ReservationView {
    const reservation = this.#reservations.get(id);
    if (!reservation) throw new NotFound('no such preauthorisation');
    const sum = (payments: readonly PaymentView[]) =>
      payments.filter((payment) => payment.kind === 'approved').reduce((total, payment) => total + toCents(payment.amount), 0);
    const captured = sum(reservation.captures);
    return {
      preauthorization: reservation.preauthorization,
      captures: [...reservation.captures],
      refunds: [...reservation.refunds],
      reversals: [...reservation.reversals],
      reversed: reservation.reversals.some((reversal) => reversal.kind === 'approved'),
      capturedAmount: toAmount(captured),
      remainingAmount: toAmount(Math.max(0, toCents(reservation.preauthorization.amount) - captured)),
      refundedAmount: toAmount(sum(reservation.refunds)),
      refundable: Object.fromEntries(
        reservation.captures
          .filter((capture) => capture.kind === 'approved')
          .map((capture) => [
            capture.id,
            toAmount(
              Math.max(0, toCents(capture.amount) - sum(reservation.refunds.filter((refund) => refund.referencedId === capture.id))),
            ),
          ]),
      ),
    };
  }

  reservations(): readonly ReservationView[] {
    return [...this.#reservations.keys()].reverse().map((id) => this.reservation(id));
  }

  /** 6. Capture part (or all) of a preauthorisation. */
  async capture(gateway: GatewayClient, reservationId: string, amount: string): Promise<Outcome & { reservation: ReservationView }> {
    const reservation = this.#reservations.get(reservationId);
    if (!reservation) throw new NotFound('no such preauthorisation');
    // Given the preauthorisation itself, the client files the capture under its merchantTransactionId: the report by it finds both.
    const { answer } = await settle(gateway.payments.capture(reservation.preauthorization, { amount, currency: CURRENCY }), 'Captured.');
    // A refused capture is a transaction of its own on the platform (an id, its code): the page shows it in the answer, not as a capture.
    if (answer.payment && answer.outcome !== 'invalid') reservation.captures.push(answer.payment);
    return { ...answer, reservation: this.reservation(reservationId) };
  }

  /** Refund a capture, in full or in part (paymentType RF on the payments endpoint). */
  async refund(
    gateway: GatewayClient,
    reservationId: string,
    captureId: string,
    amount: string,
  ): Promise<Outcome & { reservation: ReservationView }> {
    const reservation = this.#reservations.get(reservationId);
    const capture = reservation?.captures.find((candidate) => candidate.id === captureId);
    if (!reservation || !capture) throw new NotFound('no such capture of this preauthorisation');
    // Filed, like the capture, under the preauthorisation's merchantTransactionId.
    const { answer } = await settle(gateway.payments.refund(capture, { amount, currency: CURRENCY }), 'Refunded.');
    if (answer.payment && answer.outcome !== 'invalid') reservation.refunds.push(answer.payment);
    return { ...answer, reservation: this.reservation(reservationId) };
  }

  /** Releases a preauthorisation nothing was captured from (paymentType RV): the hold on the shopper's card ends. */
  async reverse(gateway: GatewayClient, reservationId: string): Promise<Outcome & { reservation: ReservationView }> {
    const reservation = this.#reservations.get(reservationId);
    if (!reservation) throw new NotFound('no such preauthorisation');
    const { answer } = await settle(
      gateway.payments.reverse(reservation.preauthorization),
      'Preauthorisation reversed: the hold is released.',
    );
    if (answer.payment && answer.outcome !== 'invalid') reservation.reversals.push(answer.payment);
    return { ...answer, reservation: this.reservation(reservationId) };
  }

  /**
   * Saves a card for payouts without a payment (the platform's
   * `POST /v1/registrations`): no money is held, nothing needs releasing.
   */
  async saveCard(gateway: GatewayClient, card: ShopperCard): Promise<Outcome & { savedCard?: SavedCardView }> {
    const paymentBrand = brandOf(card.number);
    let registration;
    try {
      registration = await gateway.registrations.create({ paymentBrand, card });
    } catch (error) {
      return refusal(error);
    }
    const last4 = registration.card?.last4Digits;
    const savedCard = {
      registrationId: registration.id,
      card: last4 ? `${registration.paymentBrand ?? paymentBrand} •••• ${last4}` : '',
      holder: card.holder,
    };
    this.#savedCards.unshift(savedCard);
    return { outcome: 'approved', message: 'Card saved.', savedCard };
  }

  savedCards(): readonly SavedCardView[] {
    return this.#savedCards;
  }

  /** 7. A basic credit (payout) to a saved card. */
  async payout(gateway: GatewayClient, registrationId: string, amount: string): Promise<Outcome> {
    if (!this.#savedCards.some((card) => card.registrationId === registrationId))
      throw new NotFound('no saved card with this registrationId');
    const merchantTransactionId = this.reference('payout', 'Payout to a saved card');
    const { answer } = await settle(
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

  /** 9. Every transaction with a merchantTransactionId. */
  async transactions(gateway: GatewayClient, merchantTransactionId: string): Promise<PaymentView[]> {
    const { payments } = await gateway.reports.findByMerchantTransactionId(merchantTransactionId);
    return payments.map(paymentView);
  }
}
