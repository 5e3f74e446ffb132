/** `createGatewayClient`: the resources over one transport, with the documented defaults. */
import { checkField } from '../contract/formats.js';
import { GatewayValidationError, readClock, type GatewayParameterError } from './errors.js';
import { isSecureEndpoint } from '../contract/endpoint.js';
import { isPaymentBrand } from '../contract/brands.js';
import {
  createTransport,
  isTimeout,
  TIMEOUT_MESSAGE,
  type BrandEntities,
  type GatewayRequestEvent,
  type GatewayResponseEvent,
} from './request.js';
import { checkouts, type CheckoutMade, type Checkouts } from './resources/checkouts.js';
import { payments, type Payments } from './resources/payments.js';
import { payouts, type Payouts } from './resources/payouts.js';
import { registrations, type Registrations } from './resources/registrations.js';
import { reports, type Reports } from './resources/reports.js';
import { createdCheckoutKey, createdCheckoutOf, shopperReturnHandler, type HandleShopperReturn } from './shopper-return.js';
import { createMemoryStatusStore } from './coordination/memory-status-store.js';
import { guarded, type StatusStore } from './coordination/status-store.js';
import type { TestMode } from './types.js';
import { verifyPayment } from './verify.js';

export const VERSION = '0.1.0';

/** The defaults the README documents; a test holds the two together. */
export const DEFAULTS = {
  /** Per request, through AbortSignal. */
  timeoutMs: 60_000,
  /** Extra attempts of a GET after a network failure or a 5xx; POSTs get none. */
  maxNetworkRetries: 2,
  /** Waits before each look-up of a payment whose outcome is uncertain. */
  reconcileDelaysMs: [500, 2000, 5000],
  userAgent: `gw-elements/${VERSION}`,
} as const;

export interface GatewayClientOptions {
  /** The gateway's base address, e.g. `https://eu-test.oppwa.com` or a gw-sandbox URL. */
  baseUrl: string;
  /** The Bearer access token. Server side only: never send it to a browser. */
  accessToken: string;
  /** The channel id (AN32) sent with every request whose brand has no entity of its own in `entities`. */
  entityId: string;
  /**
   * The entity (AN32) of each brand not on `entityId`, e.g. `{ MADA: '…',
   * APPLEPAY: '…' }` for a KSA merchant: a checkout, payment or registration
   * of that brand (its `paymentBrand`, or `options.brands`) is sent there, and
   * a checkout's status read follows the checkout. Never taken from request data.
   */
  entities?: BrandEntities;
  timeoutMs?: number;
  /** Any web-standard fetch; the global one by default. */
  fetch?: typeof fetch;
  /** Sent on every POST unless the request sets its own (test environment only). */
  testMode?: TestMode;
  userAgent?: string;
  maxNetworkRetries?: number;
  reconcileDelaysMs?: readonly number[];
  /** Where shopper returns are remembered; in memory by default. Share one between instances. */
  statusStore?: StatusStore;
  /** The clock of the status-call limit (ms since the epoch). */
  now?: () => number;
  /**
   * Called before every attempt of every gateway call (retried GETs and
   * reconciliation look-ups included) with its method, path, attempt number and
   * masked parameters: for logs and traces. Never holds the token, a card number
   * or a security code. Whatever it throws (or an async hook rejects with) is
   * ignored, and the event is frozen: the hook cannot change what is sent.
   */
  onRequest?: (event: GatewayRequestEvent) => void;
  /** Called when that attempt ended: the same fields plus `durationMs`, `httpStatus`, `resultCode` or `failure`. For logs and metrics; the same guarantees. */
  onResponse?: (event: GatewayResponseEvent) => void;
}

/** The client: one property per resource of the API reference, plus the shopper-return handler. */
export interface GatewayClient {
  readonly checkouts: Checkouts;
  readonly payments: Payments;
  readonly payouts: Payouts;
  readonly registrations: Registrations;
  readonly reports: Reports;
  /**
   * The payment a shopper's return (`?id=…&resourcePath=…`) is about: checks
   * resourcePath, reads the status at most as the gateway allows, remembers the
   * first approval in the status store. With `{ expect: 'registration' }`, the
   * card a registration-only checkout saved (`/v1/checkouts/{id}/registration`).
   */
  readonly handleShopperReturn: HandleShopperReturn;
  /** The API reference's merchant rule: throws `GatewayVerificationError` unless id, amount, currency, brand and type are as expected. */
  readonly verifyPayment: typeof verifyPayment;
}

/** A client for every endpoint of the gateway. Throws in a browser: the access token must never reach one. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  if (typeof globalThis.window !== 'undefined' || typeof globalThis.document !== 'undefined') {
    // One of the kit's errors, as every failure is; it names no option (the token given is never repeated).
    throw new GatewayValidationError('gw-elements/server runs on a server only: the access token must never reach a browser', {});
  }
  checkClientOptions(options);
  const { baseUrl, accessToken, entityId, testMode, entities } = options;
  // Every reading checked: a clock answering NaN or a string would otherwise pass every lifetime and limit it is compared with.
  const clock = options.now ?? Date.now;
  const now = () => readClock(clock, 'now');
  const transport = createTransport({
    baseUrl,
    accessToken,
    entityId,
    entities,
    testMode,
    now,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
    maxNetworkRetries: options.maxNetworkRetries ?? DEFAULTS.maxNetworkRetries,
    reconcileDelaysMs: options.reconcileDelaysMs ?? DEFAULTS.reconcileDelaysMs,
    onRequest: options.onRequest,
    onResponse: options.onResponse,
  });
  const statusStore = options.statusStore ?? createMemoryStatusStore({ now });
  const memory = {
    remember: (checkoutId: string, made: CheckoutMade) =>
      guarded(() =>
        statusStore.settle(createdCheckoutKey(checkoutId), 'created', {
          value: JSON.stringify({ ...made, createdAt: now() }),
          final: true,
          // Without it a "no session" reads as unknown, never as expired: the first thing a full store may drop.
          hint: true,
        }),
      ),
    createdOf: (checkoutId: string) => createdCheckoutOf(statusStore, checkoutId),
  };
  const resources = { checkouts: checkouts(transport, memory), payments: payments(transport), reports: reports(transport) };
  return {
    ...resources,
    payouts: payouts(transport),
    registrations: registrations(transport),
    handleShopperReturn: shopperReturnHandler(transport, statusStore, resources),
    verifyPayment,
  };
}

/** Header-safe visible ASCII: what a Bearer token and a User-Agent may hold (a line break would split the header). */
const HEADER_TEXT = /^[\x20-\x7e]+$/;
/** https, or plain http to this machine only (a local sandbox), as the elements require: the token is never sent in clear over a network. */
const isSecureBaseUrl = (value: unknown) => {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  return isSecureEndpoint(new URL(value));
};
const isCount = (value: unknown, max: number) => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;

/** Every wrong option at once, as a GatewayValidationError: the client is never built half-configured. Never echoes the token. */
function checkClientOptions(options: GatewayClientOptions): void {
  const given = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>;
  const errors: GatewayParameterError[] = [];
  const refuse = (name: string, message: string) => errors.push({ name, message });
  const optional = (name: string, valid: (value: unknown) => boolean, message: string) => {
    if (given[name] !== undefined && !valid(given[name])) refuse(name, message);
  };
  const { baseUrl, accessToken, entityId } = given;
  if (!isSecureBaseUrl(baseUrl))
    refuse('baseUrl', 'must be an https URL (or http to localhost, 127.0.0.1 or [::1], a local sandbox), without credentials');
  if (typeof accessToken !== 'string' || !HEADER_TEXT.test(accessToken))
    refuse('accessToken', 'must be the access token: printable ASCII, not empty');
  const entityProblem = typeof entityId === 'string' ? checkField('entityId', entityId) : 'is required';
  if (entityProblem) refuse('entityId', entityProblem);
  optional(
    'entities',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.entries(value).every(([brand, id]) => isPaymentBrand(brand) && typeof id === 'string' && !checkField('entityId', id)),
    'must map brands the gateway names (MADA, APPLEPAY, …) to entity ids (AN32)',
  );
  optional('testMode', (value) => typeof value === 'string' && !checkField('testMode', value), 'must be EXTERNAL or INTERNAL');
  optional('timeoutMs', isTimeout, TIMEOUT_MESSAGE);
  optional('fetch', (value) => typeof value === 'function', 'must be a fetch function');
  optional('userAgent', (value) => typeof value === 'string' && HEADER_TEXT.test(value), 'must be printable ASCII');
  optional('maxNetworkRetries', (value) => isCount(value, 10), 'must be a whole number from 0 to 10');
  optional(
    'reconcileDelaysMs',
    (value) => Array.isArray(value) && value.every((delay) => delay === 0 || isTimeout(delay)),
    `must be a list of waits, each 0 or ${TIMEOUT_MESSAGE.replace('must be ', '')}`,
  );
  optional('now', (value) => typeof value === 'function', 'must be a function answering ms since the epoch');
  optional('onRequest', (value) => typeof value === 'function', 'must be a function');
  optional('onResponse', (value) => typeof value === 'function', 'must be a function');
  optional('statusStore', (value) => typeof value === 'object' && value !== null, 'must be a status store');
  if (errors.length)
    throw new GatewayValidationError(`Invalid client options: ${errors.map((error) => `${error.name} ${error.message}`).join('; ')}`, {
      parameterErrors: errors,
    });
}
