/**
 * Browser-test helpers for 3-D Secure: a pending server-to-server payment from
 * the sandbox, and the test runner's commands of test/support/wtr-three-ds.ts.
 */
import { executeServerCommand } from '@web/test-runner-commands';
import { threeDsPayment } from '../../src/sandbox/fixtures.js';
import { merchantCall, sandboxUrl, shopperResultUrl, type GatewayAnswer } from './gateway.js';

/** A server-to-server debit that the sandbox answers with a 3DS redirect back to the same-origin result page. */
export function threeDsPaymentRequest(cardNumber: string, extra: Record<string, string> = {}): Record<string, string> {
  return threeDsPayment(cardNumber, shopperResultUrl, { amount: '12.50', ...extra });
}

/**
 * A sandbox URL of its own, for a test to post to: the sandbox answers it (404) and logs the request, parameters
 * included. Lower-case letters only: the log masks what looks like a card number or a security code in a path, and
 * a UUID's digit groups sometimes do (6 in 10,000), so a log lookup by a UUID path once found nothing in CI.
 */
export function echoUrl(): string {
  const letters = Array.from(crypto.getRandomValues(new Uint8Array(24)), (byte) => String.fromCharCode(97 + (byte % 26)));
  return `${sandboxUrl}/v1/threeDSecure/echo-${letters.join('')}`;
}

/** The parameters the sandbox logged of the request to `url`'s path (made by `method`), or undefined while there is none. */
export async function loggedParams(url: string, method = 'POST'): Promise<Record<string, string> | undefined> {
  const { pathname } = new URL(url);
  const { body } = await merchantCall('GET', '/__sandbox/requests');
  return (body.requests as { method: string; path: string; params: Record<string, string> }[]).find(
    (entry) => entry.method === method && entry.path === pathname,
  )?.params;
}

/** Creates a payment pending 3DS through the merchant proxy and returns the gateway's answer. */
export async function pendingThreeDsPayment(cardNumber: string, extra: Record<string, string> = {}): Promise<GatewayAnswer> {
  const answer = await merchantCall('POST', '/v1/payments', threeDsPaymentRequest(cardNumber, extra));
  if (answer.body.result?.code !== '000.200.000')
    throw new Error(`expected a pending 3DS payment, got ${JSON.stringify(answer.body.result)}`);
  return answer;
}

/**
 * Clicks a button by its text in the first frame whose URL starts with `urlPrefix` (cross-origin frames too),
 * or only in the frame named `frameName` when given.
 */
export function clickInFrame(urlPrefix: string, text: string, frameName?: string): Promise<boolean> {
  return executeServerCommand('gw-click-in-frame', { urlPrefix, text, frameName });
}

/**
 * Every iframe of the page, inside open shadow roots too (which `window.frames` leaves out): a frame out of the DOM
 * has no browsing context left. (The browser's own frame list, read over the DevTools protocol, lags the page: in a
 * loaded run it still listed a sandbox frame 3 s after the element's shadow root had none.)
 */
export function pageFrames(root: Document | ShadowRoot = document): HTMLIFrameElement[] {
  return [...root.querySelectorAll('*')].flatMap((node) => [
    ...(node instanceof HTMLIFrameElement ? [node] : []),
    ...(node.shadowRoot ? pageFrames(node.shadowRoot) : []),
  ]);
}

/** Creates (`request`) or reads (`id`) a payment, or handles the shopper's return (`query`), with the server helper on the test runner's side. */
export function serverPayment<T = Record<string, any>>(
  payload:
    | { action: 'create'; request: Record<string, unknown> }
    | { action: 'get'; id: string }
    | { action: 'return'; query: { id: string; resourcePath: string } },
): Promise<T> {
  return executeServerCommand('gw-server-payment', payload);
}

/** A shopper result page on another origin than the test page, which reports back with postThreeDsResult(). */
export const crossOriginResultUrl = `http://127.0.0.1:${location.port}/__gw/result-cross?checkoutOrigin=${encodeURIComponent(location.origin)}`;

/**
 * `redirect` with its first precondition pointed at a sandbox path that never answers (a `hang` fault).
 * The path is unique to the call, because faults are per path and shared by every test file running at once.
 */
export async function withHangingMethod<R extends { preconditions?: readonly { url: string }[] }>(redirect: R): Promise<R> {
  const [first, ...rest] = redirect.preconditions ?? [];
  if (!first) throw new Error('this redirect has no precondition');
  const url = new URL(first.url);
  url.pathname = `${url.pathname}/hang-${crypto.randomUUID()}`;
  const answer = await merchantCall('POST', '/__sandbox/faults', { path: url.pathname, mode: 'hang', count: '1' });
  if (answer.status !== 200) throw new Error(`fault not set: ${JSON.stringify(answer.body)}`);
  return { ...redirect, preconditions: [{ ...first, url: url.href }, ...rest] };
}
