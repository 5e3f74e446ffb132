/**
 * The demo merchant's routes: each method and path, the input it accepts and
 * the named handler that answers, in the module of its area. A new page's
 * routes are new lines here and handlers beside their peers.
 */
import * as cardPayments from './handlers/card-payments.js';
import * as config from './handlers/config.js';
import * as notifications from './handlers/notifications.js';
import * as orders from './handlers/orders.js';
import * as payouts from './handlers/payouts.js';
import * as reservations from './handlers/reservations.js';
import * as sandbox from './handlers/sandbox.js';
import * as savedCards from './handlers/saved-cards.js';
import * as subscriptions from './handlers/subscriptions.js';
import * as transactions from './handlers/transactions.js';
import * as wallets from './handlers/wallets.js';
import { payArabicPage, payArabicPageInput } from './payment-pages/pay-arabic.js';
import { payPage, payPageInput } from './payment-pages/pay.js';
import { walletsPage, walletsPageInput } from './payment-pages/wallets.js';
import { gatewayRoute, noInput, pageRoute, route, type PageRoute, type Route } from './route-definition.js';

export const ROUTES: Readonly<Record<`${'GET' | 'POST'} /api/${string}`, Route>> = {
  'GET /api/config': route(noInput, config.config, { asIs: true }),

  'POST /api/orders': gatewayRoute(orders.createOrderInput, orders.createOrder),
  'GET /api/orders/:id': route(orders.getOrderInput, orders.getOrder),
  'POST /api/orders/:id/checkout': gatewayRoute(orders.restartCheckoutInput, orders.restartCheckout),
  'GET /api/orders/:id/payment': gatewayRoute(orders.orderReturnInput, orders.orderReturn),
  'POST /api/orders/:id/reconcile': gatewayRoute(orders.reconcileOrderInput, orders.reconcileOrder),
  'POST /api/sandbox/expire-checkouts': route(noInput, sandbox.expireCheckouts),

  'POST /api/card-payments': gatewayRoute(cardPayments.payByCardInput, cardPayments.payByCard),
  'GET /api/card-payments/return': gatewayRoute(cardPayments.cardPaymentReturnInput, cardPayments.cardPaymentReturn),
  'GET /api/card-payments/status': gatewayRoute(cardPayments.cardPaymentStatusInput, cardPayments.cardPaymentStatus),

  'GET /api/reservations': route(noInput, reservations.listReservations),
  'POST /api/reservations': gatewayRoute(reservations.reserveInput, reservations.reserve),
  'POST /api/reservations/:id/captures': gatewayRoute(reservations.captureInput, reservations.capture),
  'POST /api/reservations/:id/refunds': gatewayRoute(reservations.refundInput, reservations.refund),
  'POST /api/reservations/:id/reversal': gatewayRoute(reservations.reverseInput, reservations.reverse),

  'GET /api/payout-cards': route(noInput, payouts.listPayoutCards),
  'POST /api/payout-cards': gatewayRoute(payouts.registerCardInput, payouts.registerCard),

  'GET /api/saved-cards': route(noInput, savedCards.listCards),
  'POST /api/saved-cards/save-checkout': gatewayRoute(noInput, savedCards.saveCheckout),
  'GET /api/saved-cards/save-return': gatewayRoute(savedCards.saveReturnInput, savedCards.saveReturn),
  'POST /api/saved-cards/one-click-checkout': gatewayRoute(noInput, savedCards.oneClickCheckout),
  'GET /api/saved-cards/pay-return': gatewayRoute(savedCards.payReturnInput, savedCards.payReturn),
  'POST /api/saved-cards/:id/delete': gatewayRoute(savedCards.deleteCardInput, savedCards.deleteCard),

  'GET /api/wallets/payment': gatewayRoute(wallets.paymentInput, wallets.payment),

  'POST /api/payouts': gatewayRoute(payouts.payoutInput, payouts.payout),

  'GET /api/subscriptions': route(noInput, subscriptions.listSubscriptions),
  'POST /api/subscriptions': gatewayRoute(subscriptions.signUpInput, subscriptions.signUp),
  'GET /api/subscriptions/return': gatewayRoute(subscriptions.signUpReturnInput, subscriptions.signUpReturn),
  'POST /api/subscriptions/next-month': gatewayRoute(noInput, subscriptions.nextMonth),
  'POST /api/subscriptions/:id/cancel': gatewayRoute(subscriptions.cancelInput, subscriptions.cancel),

  'GET /api/notifications': route(noInput, notifications.listNotifications),

  'GET /api/references': route(noInput, transactions.listReferences),
  'GET /api/transactions': gatewayRoute(transactions.transactionsInput, transactions.transactions),
};

/** The pages the shop's server renders, each with its checkout in the HTML; the demo's other pages are static. */
export const PAGES: Readonly<Record<`/${string}.html`, PageRoute>> = {
  '/pay.html': pageRoute(payPageInput, payPage),
  '/pay-ar.html': pageRoute(payArabicPageInput, payArabicPage),
  '/wallets.html': pageRoute(walletsPageInput, walletsPage),
};
