/**
 * What the demo shop keeps, in one place: what a real shop keeps in its
 * database, its records' shapes included. Instances behind a load balancer
 * share one (the model tests start several merchants over the same object);
 * everything that must be decided by one instance only (a subscription month
 * charged, an order's kept payment) is decided on the shared status store,
 * not here.
 */
import type { SavedCard } from 'gw-elements/server';
import type { OrderLineView, OrderStatus, PaymentView, ReferenceView, SavedCardView, SubscriptionView } from './views.js';

export interface OrderRecord {
  /** Also the merchantTransactionId of each of its checkouts: the report by it lists every charge of the order. */
  readonly id: string;
  readonly lines: OrderLineView[];
  readonly amount: string;
  status: OrderStatus;
  checkoutId: string;
  integrity: string;
  checkoutExpiresAt: number;
  /** The open checkout's creation time as the gateway wrote it (`renderCheckout` takes its expiry from it). */
  checkoutTimestamp?: string;
  /** Every checkout opened for the order, oldest first: the shopper may come back from any of them ("start again" leaves the old one's 3-D Secure open). */
  readonly checkoutIds: string[];
  attempts: PaymentView[];
  /** The approved payment that pays the order: the first one any instance learned of. */
  paidBy?: string;
  /** Second approved charges for the order, each refunded (or reversed) once. */
  readonly refunds: PaymentView[];
}

export interface SubscriptionRecord {
  /** Its sign-up's merchantTransactionId. */
  readonly id: string;
  status: SubscriptionView['status'];
  card: string;
  saved?: SavedCard;
  /** When the sign-up paid the first month (gateway clock): month n falls due n months later. */
  startedAt: number;
  /** The months (1, 2, …) whose charge is decided: approved, or refused for good. */
  readonly settledMonths: number[];
  /** The months whose charge was sent (written before sending): its answer may have been lost, so it is looked up before any new one. */
  readonly sentMonths: number[];
  monthsFulfilled: number;
  readonly payments: PaymentView[];
}

/** A one-click checkout, with what its payment must be. */
export interface OneClickCheckoutRecord {
  readonly amount: string;
  readonly merchantTransactionId: string;
}

export interface SavedCardsRecord {
  /** By registration id: a second return of the same checkout stores the card once. */
  readonly cards: Map<string, SavedCardView>;
  /** By checkout id. */
  readonly oneClickCheckouts: Map<string, OneClickCheckoutRecord>;
}

export interface DemoDatabase {
  /** The last number given to a merchantTransactionId (`prefix-1001`, …). */
  sequence: number;
  /** Every merchantTransactionId the shop gave, newest first, for the transactions page. */
  readonly references: ReferenceView[];
  readonly orders: Map<string, OrderRecord>;
  readonly subscriptions: Map<string, SubscriptionRecord>;
  /** A subscription's payments (each merchantTransactionId and the sign-up's payment id) → its id. */
  readonly subscriptionOf: Map<string, string>;
  /** The shopper's saved cards for one-click, and the one-click checkouts opened with them. */
  readonly savedCards: SavedCardsRecord;
}

export function createDemoDatabase(): DemoDatabase {
  return {
    sequence: 1000,
    references: [],
    orders: new Map(),
    subscriptions: new Map(),
    subscriptionOf: new Map(),
    savedCards: { cards: new Map(), oneClickCheckouts: new Map() },
  };
}

/** A new merchantTransactionId (`prefix-1001`, unique per transaction as the platform recommends), listed for the transactions page. */
export function newReference(database: DemoDatabase, prefix: string, label: string): string {
  const merchantTransactionId = `${prefix}-${++database.sequence}`;
  listReference(database, merchantTransactionId, label);
  return merchantTransactionId;
}

/** Lists a merchantTransactionId made elsewhere (a subscription month's, a refund's) for the transactions page, once. */
export function listReference(database: DemoDatabase, merchantTransactionId: string, label: string): void {
  if (!database.references.some((known) => known.merchantTransactionId === merchantTransactionId))
    database.references.unshift({ merchantTransactionId, label });
}
