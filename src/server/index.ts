/** gw-elements/server: the typed, money-safe client for the gateway (server side only). */
export { classifyResult, isApproved, resultGroup, RESULT_CODES, type ResultKind } from '../contract/result-codes.js';
export { OPERATIONS, validateParameters, type ParameterError, type Operation } from '../contract/rules.js';
export { maskParameter } from '../contract/redaction.js';
export {
  brandOfCard,
  isMadaNumber,
  MADA_BINS,
  PAYMENT_BRANDS,
  CARD_PAYMENT_BRANDS,
  WALLET_BRANDS,
  type CardPaymentBrand,
  type WalletBrand,
} from '../contract/brands.js';
export { createGatewayClient, DEFAULTS, VERSION, type GatewayClient, type GatewayClientOptions } from './client.js';
export {
  GatewayError,
  GatewayAuthenticationError,
  GatewayPermissionError,
  GatewayValidationError,
  GatewayDeclinedError,
  GatewayThrottledError,
  GatewayNotFoundError,
  GatewayNetworkError,
  GatewayTimeoutError,
  UncertainOutcomeError,
  StatusUnknownError,
  CheckoutPendingError,
  StrandedPaymentError,
  GatewayVerificationError,
  type GatewayErrorDetails,
  type GatewayParameterError,
  type OutcomeKind,
  type VerificationMismatch,
} from './errors.js';
export { outcomeOf, toOutcome, type Outcome } from './outcome.js';
export type { BrandEntities, GatewayRequestEvent, GatewayResponseEvent, RequestOptions } from './request.js';
export type { Checkouts } from './resources/checkouts.js';
export type { Payments } from './resources/payments.js';
export type { Payouts } from './resources/payouts.js';
export type { Registrations, SavedCardReference } from './resources/registrations.js';
export type { Reports } from './resources/reports.js';
export { REPORT_PAGE_SIZE_MAX, REPORT_PAYMENT_TYPES, type ReportPaymentType, type ReportSearch } from '../contract/report-filters.js';
export {
  type HandleShopperReturn,
  type RegistrationReturnOptions,
  type ShopperReturn,
  type ShopperReturnOptions,
} from './shopper-return.js';
export { CHECKOUT_LIFETIME_MS, STATUS_CALLS_PER_MINUTE } from '../contract/limits.js';
export { toAmount, toCents } from './amounts.js';
export { CHALLENGE_WINDOWS, type ChallengeWindow } from '../contract/challenge-window.js';
export {
  StatusStoreUnavailableError,
  STATUS_STORE_DEFAULTS,
  type StatusStore,
  type ClaimRequest,
  type ClaimAnswer,
} from './coordination/status-store.js';
export { createMemoryStatusStore, type MemoryStatusStoreOptions, type MemoryStoreUsage } from './coordination/memory-status-store.js';
export {
  createFulfilment,
  type Fulfilment,
  type FulfilmentOptions,
  type FulfilmentHandler,
  type FulfilmentOutcome,
  type FulfillablePayment,
} from './coordination/fulfilment.js';
export { createRedisStatusStore, type RedisClientLike, type RedisStatusStoreOptions } from './coordination/redis-status-store.js';
export { verifyPayment, type ExpectedPayment } from './verify.js';
export { widgetPreload, type ResourceHint, type WidgetPreload, type WidgetPreloadOptions } from './widget-preload.js';
export { renderCheckout, type JsonValue, type RenderCheckoutOptions, type RenderedCheckoutHtml } from './render-checkout.js';
export {
  decryptNotification,
  MAX_NOTIFICATION_BODY_CHARACTERS,
  NotificationError,
  type EncryptedNotification,
  type Notification,
  type NotificationErrorReason,
  type NotificationFreshness,
  type NotificationSubject,
  type PaymentNotification,
  type RegistrationAction,
  type RegistrationNotification,
  type RiskNotification,
  type TestNotification,
} from './decrypt-notification.js';
export { instalments, repeatOf, saveForLater, savedCardOf, subscription, type SavedCard } from './standing-instructions.js';
export type * from './types.js';
