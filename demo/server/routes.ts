/**
 * The demo merchant's routes: each method and path, the input it accepts and
 * the named handler that answers, in the module of its area. A new page's
 * routes are new lines here and handlers beside their peers.
 */
import * as notifications from './handlers/notifications.js';
import * as sandbox from './handlers/sandbox.js';
import * as savedCards from './handlers/saved-cards.js';
import * as shop from './handlers/shop.js';
import * as subscriptions from './handlers/subscriptions.js';
import * as wallets from './handlers/wallets.js';
import { gatewayRoute, noInput, route, type Route } from './route.js';

export const ROUTES: Readonly<Record<`${'GET' | 'POST'} /api/${string}`, Route>> = {
  'GET /api/config': route(noInput, shop.config, { asIs: true }),

  'POST /api/orders': gatewayRoute(shop.createOrderInput, shop.createOrder),
  'GET /api/orders/:id': route(shop.getOrderInput, shop.getOrder),
  'POST /api/orders/:id/checkout': gatewayRoute(shop.restartCheckoutInput, shop.restartCheckout),
  'GET /api/orders/:id/payment': gatewayRoute(shop.orderReturnInput, shop.orderReturn),
  'POST /api/orders/:id/reconcile': gatewayRoute(shop.reconcileOrderInput, shop.reconcileOrder),
  'POST /api/sandbox/expire-checkouts': route(noInput, sandbox.expireCheckouts),

  'POST /api/card-payments': gatewayRoute(shop.payByCardInput, shop.payByCard),
  'GET /api/card-payments/return': gatewayRoute(shop.cardPaymentReturnInput, shop.cardPaymentReturn),

  'GET /api/reservations': route(noInput, shop.listReservations),
  'POST /api/reservations': gatewayRoute(shop.reserveInput, shop.reserve),
  'POST /api/reservations/:id/captures': gatewayRoute(shop.captureInput, shop.capture),
  'POST /api/reservations/:id/refunds': gatewayRoute(shop.refundInput, shop.refund),
  'POST /api/reservations/:id/reversal': gatewayRoute(shop.reverseInput, shop.reverse),

  'GET /api/saved-cards': route(noInput, shop.listSavedCards),
  'POST /api/saved-cards': gatewayRoute(shop.saveCardInput, shop.saveCard),

  'GET /api/wallet': route(noInput, savedCards.listCards),
  'POST /api/wallet/save-checkout': gatewayRoute(noInput, savedCards.saveCheckout),
  'GET /api/wallet/save-return': gatewayRoute(savedCards.saveReturnInput, savedCards.saveReturn),
  'POST /api/wallet/one-click-checkout': gatewayRoute(noInput, savedCards.oneClickCheckout),
  'GET /api/wallet/pay-return': gatewayRoute(savedCards.payReturnInput, savedCards.payReturn),
  'POST /api/wallet/:id/delete': gatewayRoute(savedCards.deleteCardInput, savedCards.deleteCard),

  'POST /api/wallets/checkout': gatewayRoute(wallets.checkoutInput, wallets.checkout),
  'GET /api/wallets/payment': gatewayRoute(wallets.paymentInput, wallets.payment),

  'POST /api/payouts': gatewayRoute(shop.payoutInput, shop.payout),

  'GET /api/subscriptions': route(noInput, subscriptions.listSubscriptions),
  'POST /api/subscriptions': gatewayRoute(subscriptions.signUpInput, subscriptions.signUp),
  'GET /api/subscriptions/return': gatewayRoute(subscriptions.signUpReturnInput, subscriptions.signUpReturn),
  'POST /api/subscriptions/next-month': gatewayRoute(noInput, subscriptions.nextMonth),
  'POST /api/subscriptions/:id/cancel': gatewayRoute(subscriptions.cancelInput, subscriptions.cancel),

  'GET /api/notifications': route(noInput, notifications.listNotifications),

  'GET /api/references': route(noInput, shop.listReferences),
  'GET /api/transactions': gatewayRoute(shop.transactionsInput, shop.transactions),
};
