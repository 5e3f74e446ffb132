/**
 * What the demo shop keeps, in one place: what a real shop keeps in its
 * database. Instances behind a load balancer share one (the model tests start
 * several merchants over the same object); everything that must be decided by
 * one instance only (a subscription month charged, an order's kept payment)
 * is decided on the shared status store, not here.
 */
import type { OrderRecord } from './shop.js';
import type { SubscriptionRecord } from './subscriptions.js';
import type { ReferenceView } from './views.js';
import type { WalletRecord } from './wallet.js';

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
  readonly wallet: WalletRecord;
}

export function createDemoDatabase(): DemoDatabase {
  return {
    sequence: 1000,
    references: [],
    orders: new Map(),
    subscriptions: new Map(),
    subscriptionOf: new Map(),
    wallet: { cards: new Map(), checkouts: new Map() },
  };
}
