/**
 * The `resourcePath` the gateway appends to the shopper result URL, and the
 * gateway id inside it: one pattern for the server helper (before it calls the
 * path) and the 3-D Secure element (before it reports a result).
 */

/** Gateway ids are letters and digits with `.`, `_` or `-` inside (`8ac7…ce.uat01-vm-tx03`); never `..` or `/`. */
export const GATEWAY_ID_PATTERN = '[A-Za-z0-9][A-Za-z0-9._-]{0,127}';

const GATEWAY_ID = new RegExp(`^${GATEWAY_ID_PATTERN}$`);
const PAYMENT_PATH = new RegExp(`^/v1/payments/(${GATEWAY_ID_PATTERN})$`);
const CHECKOUT_PATH = new RegExp(`^/v1/checkouts/(${GATEWAY_ID_PATTERN})/(payment|registration)$`);

/** True when `value` is a gateway id that is safe inside a request path. */
export function isGatewayId(value: string): boolean {
  return GATEWAY_ID.test(value) && !value.includes('..');
}

const REGISTRATION_SUFFIX = '/registration';

/**
 * What the widget script's `checkoutId` names: a checkout, or its
 * registration-only form (`{id}/registration`: it saves a card and charges
 * nothing). One rule for the widget, the server's preload and rendered page.
 */
export function widgetCheckoutOf(value: string): { checkoutId: string; registration: boolean } | undefined {
  const registration = value.endsWith(REGISTRATION_SUFFIX);
  const checkoutId = registration ? value.slice(0, -REGISTRATION_SUFFIX.length) : value;
  return isGatewayId(checkoutId) ? { checkoutId, registration } : undefined;
}

/**
 * One parameter of a shopper result URL, given once or as the list of its values (`URLSearchParams.getAll`, Express):
 * the gateway appends its `id` and `resourcePath` to the URL as the shop gave it, which may hold an `id` of its own,
 * so the gateway's is the last.
 */
export const appendedParameter = (values: unknown): unknown => (Array.isArray(values) ? values[values.length - 1] : values);

/** What a valid `resourcePath` points at. */
export interface ResourcePath {
  /**
   * `payment` for `/v1/payments/{id}` (server-to-server 3DS), `checkout` for
   * `/v1/checkouts/{id}/payment` (widget), `registration` for
   * `/v1/checkouts/{id}/registration` (the widget of a registration-only
   * checkout: a card saved without a payment).
   */
  readonly kind: 'payment' | 'checkout' | 'registration';
  readonly id: string;
}

/**
 * Parses a `resourcePath` from a shopper result URL; `undefined` unless it is
 * exactly one of the three shapes the gateway sends, with a safe id.
 */
export function parseResourcePath(resourcePath: string): ResourcePath | undefined {
  const payment = PAYMENT_PATH.exec(resourcePath);
  const checkout = payment ? undefined : CHECKOUT_PATH.exec(resourcePath);
  const kind = payment ? 'payment' : checkout ? (checkout[2] === 'registration' ? 'registration' : 'checkout') : undefined;
  const id = (payment ?? checkout)?.[1];
  return kind && id !== undefined && isGatewayId(id) ? { kind, id } : undefined;
}

/** The `resourcePath` the gateway sends the shopper back with: `/v1/payments/{id}`, or `/v1/checkouts/{id}/payment` (`/registration`) for a widget checkout. */
export function resourcePathOf({ kind, id }: ResourcePath): string {
  return kind === 'payment' ? `/v1/payments/${id}` : `/v1/checkouts/${id}/${kind === 'checkout' ? 'payment' : 'registration'}`;
}
