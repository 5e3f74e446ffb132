/** What every handler of the demo merchant may use: the shop's parts, made once per process (merchant.ts). */
import type { GatewayClient } from 'gw-elements/server';
import type { CardPayments } from './card-payments.js';
import type { NotificationInbox } from './notifications.js';
import type { Orders } from './orders.js';
import type { Payouts } from './payouts.js';
import type { Reservations } from './reservations.js';
import type { SavedCards } from './saved-cards.js';
import type { Subscriptions } from './subscriptions.js';
import type { DemoDatabase } from './database.js';
import type { WalletPayments } from './wallets.js';

export interface MerchantContext {
  readonly database: DemoDatabase;
  readonly orders: Orders;
  readonly cardPayments: CardPayments;
  readonly reservations: Reservations;
  readonly payouts: Payouts;
  /** The shopper's saved cards: save without paying, pay in one click, delete. */
  readonly savedCards: SavedCards;
  readonly subscriptions: Subscriptions;
  /** The wallets page's checkouts and their returns. */
  readonly wallets: WalletPayments;
  /** Absent when no notification secret was given. */
  readonly inbox: NotificationInbox | undefined;
  /** The one gateway client of the process (its status reads are shared between requests). */
  readonly gateway: GatewayClient;
  /** Where the widget script comes from. */
  readonly gatewayUrl: string;
  /** Moves the sandbox's clock; absent against a real gateway. */
  readonly advanceGatewayClock: ((seconds: number) => void) | undefined;
  /** The gateway's time, when subscription charges are due. */
  readonly gatewayNow: () => number;
}
