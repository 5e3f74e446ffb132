/**
 * The demo merchant's notification listener: decrypts what the gateway pushes
 * (`decryptNotification`), keeps the last ones for the Notifications page, and
 * hands approved payments of the shop's subscriptions to their fulfilment,
 * which runs once per payment however many times it is reported, and an
 * order's charges to the order (a second charge for a paid order is refunded).
 */
import {
  decryptNotification,
  GatewayError,
  type EncryptedNotification,
  type FulfilmentOutcome,
  type GatewayClient,
} from 'gw-elements/server';
import type { Orders } from './orders.js';
import type { Subscriptions } from './subscriptions.js';

/** What the Notifications page shows of one notification: never the payload as a whole. */
export interface NotificationView {
  readonly receivedAt: string;
  readonly type: string;
  readonly action: string;
  /** The payment or registration it is about. */
  readonly subjectId: string;
  readonly paymentType: string;
  readonly amount: string;
  readonly resultCode: string;
  /** What the shop did with it. */
  readonly fulfilment:
    | 'fulfilled now'
    | 'already fulfilled'
    | 'in progress elsewhere'
    | 'not approved'
    | 'nothing to fulfil'
    | 'not a purchase'
    | 'order paid'
    | 'second charge refunded'
    | 'not settled yet';
}

const FULFILMENT = {
  fulfilled: 'fulfilled now',
  'already-fulfilled': 'already fulfilled',
  'in-progress': 'in progress elsewhere',
  'not-approved': 'not approved',
  'not-a-purchase': 'not a purchase',
  none: 'nothing to fulfil',
} as const satisfies Record<FulfilmentOutcome<void>['status'] | 'none', NotificationView['fulfilment']>;

/** How many notifications the page can show; older ones are dropped. */
const KEPT = 200;

export class NotificationInbox {
  readonly #received: NotificationView[] = [];

  constructor(
    private readonly secret: string,
    private readonly subscriptions: Subscriptions,
    private readonly orders: Orders,
    /** A client for what a notification makes the shop do (an order's report look-up and refund). */
    private readonly gateway: GatewayClient,
  ) {}

  list(): readonly NotificationView[] {
    return this.#received;
  }

  /**
   * One POST from the gateway; throws `NotificationError` for anything that is
   * not an authentic notification. `fulfilment` 'in progress elsewhere' means
   * another report of the payment is still being fulfilled, 'not settled yet'
   * that the order's charges could not be looked up: answer non-2xx so the
   * gateway sends it again.
   */
  async receive(request: EncryptedNotification): Promise<NotificationView> {
    const notification = await decryptNotification(request, this.secret);
    const base = {
      receivedAt: new Date().toISOString(),
      type: notification.type,
      action: notification.action ?? '',
      subjectId: notification.payload.id ?? '',
    };
    let view: NotificationView;
    if (notification.type === 'PAYMENT') {
      const payment = notification.payload;
      // A charge of an order reconciles the order's charges (a second one is refunded); a failure there answers non-2xx, so it comes again.
      const order = await this.orders.charged(this.gateway, payment).catch((error: unknown) => {
        if (error instanceof GatewayError) return 'not settled yet' as const;
        throw error;
      });
      const fulfilment = order ?? FULFILMENT[(await this.subscriptions.fulfil(payment))?.status ?? 'none'];
      view = { ...base, paymentType: payment.paymentType, amount: payment.amount ?? '', resultCode: payment.result.code, fulfilment };
    } else {
      view = { ...base, paymentType: '', amount: '', resultCode: notification.payload.result?.code ?? '', fulfilment: 'nothing to fulfil' };
    }
    this.#received.unshift(view);
    this.#received.splice(KEPT);
    return view;
  }
}
