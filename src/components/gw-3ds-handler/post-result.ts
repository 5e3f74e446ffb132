/**
 * The shopper result page's side of `<gw-3ds-handler>`: reading `id` and
 * `resourcePath` from the page's query, and, when the result page is on another
 * origin than the checkout page, posting them to the parent. Defines no element.
 */
import { appendedParameter, parseResourcePath } from '../../contract/resource-path.js';
import type { ThreeDsCompleteDetail } from './events.js';

/** The `type` of the message `postThreeDsResult` sends and `<gw-3ds-handler>` accepts. */
export const THREE_DS_RESULT_MESSAGE = 'gw-3ds-result';

/**
 * @internal
 * The result a shopper result URL carries, or `undefined` unless it has an `id`
 * and a `resourcePath` of exactly `/v1/payments/{id}` with that same id.
 */
export function threeDsResultOf(url: string): ThreeDsCompleteDetail | undefined {
  const query = new URL(url).searchParams;
  return checkedResult(appendedParameter(query.getAll('id')), appendedParameter(query.getAll('resourcePath')), url);
}

/** @internal The result inside a `postThreeDsResult` message, checked as strictly as the query it came from. */
export function threeDsResultOfMessage(data: unknown): ThreeDsCompleteDetail | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { type, id, resourcePath, url } = data as Record<string, unknown>;
  if (type !== THREE_DS_RESULT_MESSAGE || typeof url !== 'string') return undefined;
  return checkedResult(id, resourcePath, url);
}

function checkedResult(id: unknown, resourcePath: unknown, url: string): ThreeDsCompleteDetail | undefined {
  if (typeof id !== 'string' || typeof resourcePath !== 'string') return undefined;
  const path = parseResourcePath(resourcePath);
  return path?.kind === 'payment' && path.id === id ? { id, resourcePath, url } : undefined;
}

/**
 * Call this on a shopper result page that is on another origin than the page
 * holding `<gw-3ds-handler>` (give that page's origin to the element's
 * `result-origin` attribute). It posts `{type: 'gw-3ds-result', id,
 * resourcePath, url}` to the parent window, addressed to exactly
 * `checkoutOrigin`, so no other page can read it.
 *
 * @param checkoutOrigin The origin of the checkout page, e.g. `https://shop.example`; `*` is refused.
 * @returns true when a result was posted; false when the page is not in a frame or its query carries no valid result.
 */
export function postThreeDsResult(checkoutOrigin: string, page: Window = globalThis.window): boolean {
  const origin = new URL(checkoutOrigin).origin;
  if (origin === 'null' || origin !== checkoutOrigin.replace(/\/$/, '')) {
    throw new TypeError(
      `postThreeDsResult needs the exact origin of the checkout page (scheme://host[:port]), not ${JSON.stringify(checkoutOrigin)}`,
    );
  }
  const result = threeDsResultOf(page.location.href);
  if (!result || page.parent === page) return false;
  page.parent.postMessage({ type: THREE_DS_RESULT_MESSAGE, ...result }, origin);
  return true;
}
