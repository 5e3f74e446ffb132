/**
 * What a story needs from a merchant back end, through the sandbox's merchant
 * proxy (`createMerchantProxy`, mounted by .storybook/main.ts; in a static
 * build the sandbox's service worker answers the same routes), which adds the
 * access token out of the page's reach. Its routes are relative to the page,
 * so a static build works under any path of a host:
 * a fresh checkout, a server-to-server payment that needs 3-D Secure, and a
 * request the sandbox holds back (to show a waiting state).
 */
import type { ChallengeWindow } from 'gw-elements/server';
import { CARDS, threeDsPayment } from 'gw-elements/sandbox/test-cards';

export interface StoryGatewayConfig {
  readonly sandboxUrl: string;
  readonly entityId: string;
}

let config: Promise<StoryGatewayConfig> | undefined;

/** The sandbox URL and entity id, fetched once. */
export function gatewayConfig(): Promise<StoryGatewayConfig> {
  config ??= fetch(new URL('__gw/config.json', document.baseURI)).then((response) => {
    if (!response.ok) throw new Error(`the merchant proxy answered ${response.status}`);
    return response.json() as Promise<StoryGatewayConfig>;
  });
  return config;
}

/** A same-origin page standing for the merchant's shopper result URL. */
export const shopperResultUrl = () => new URL('__gw/result', document.baseURI).href;

async function merchantPost(path: string, params: Record<string, string>): Promise<Record<string, any>> {
  const { entityId } = await gatewayConfig();
  const response = await fetch(new URL(`__gw/api${path}`, document.baseURI), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: new URLSearchParams({ entityId, ...params }),
  });
  return (await response.json()) as Record<string, any>;
}

export interface StoryCheckout {
  readonly id: string;
  readonly integrity: string;
  readonly baseUrl: string;
}

/** The sandbox's default MADA entity (MADA, APPLEPAY, APPLEPAYTKN, STC_PAY), in the dev server's sandbox and the static build's worker alike. */
export { DEFAULT_MADA_ENTITY_ID as MADA_ENTITY_ID } from 'gw-elements/sandbox/test-cards';

/** Creates a checkout as the merchant's server would (POST /v1/checkouts), on the card entity unless `entityId` names another. */
export async function createCheckout(amount = '24.90', entityId?: string): Promise<StoryCheckout> {
  const { sandboxUrl } = await gatewayConfig();
  const body = await merchantPost('/v1/checkouts', {
    amount,
    currency: entityId ? 'SAR' : 'EUR',
    paymentType: 'DB',
    integrity: 'true',
    ...(entityId ? { entityId } : {}),
  });
  if (body.result?.code !== '000.200.100') throw new Error(`checkout not created: ${body.result?.code} ${body.result?.description}`);
  return { id: String(body.id), integrity: String(body.integrity), baseUrl: sandboxUrl };
}

/**
 * A one-click checkout (`registrations[n].id`) offering two saved cards, each
 * stored server to server (POST /v1/registrations) as a shop that already holds
 * the shopper's cards has them.
 */
export async function createOneClickCheckout(amount = '24.90'): Promise<StoryCheckout> {
  const { sandboxUrl } = await gatewayConfig();
  const expiryYear = String(new Date().getFullYear() + 3);
  const save = async (number: string, paymentBrand: string, expiryMonth: string) => {
    const body = await merchantPost('/v1/registrations', {
      paymentBrand,
      'card.number': number,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': expiryMonth,
      'card.expiryYear': expiryYear,
      'card.cvv': '123',
    });
    if (typeof body.id !== 'string') throw new Error(`card not saved: ${body.result?.code} ${body.result?.description}`);
    return body.id;
  };
  const saved = [await save(CARDS.approved, 'VISA', '05'), await save(CARDS.approvedMaster, 'MASTER', '11')];
  const registrations = Object.fromEntries(saved.map((id, index) => [`registrations[${index}].id`, id]));
  const body = await merchantPost('/v1/checkouts', { amount, currency: 'EUR', paymentType: 'DB', integrity: 'true', ...registrations });
  if (body.result?.code !== '000.200.100') throw new Error(`checkout not created: ${body.result?.code} ${body.result?.description}`);
  return { id: String(body.id), integrity: String(body.integrity), baseUrl: sandboxUrl };
}

/** The redirect object of a pending server-to-server payment for a 3DS test card. */
export async function createThreeDsRedirect(cardNumber: string, challengeWindow: ChallengeWindow = '02'): Promise<Record<string, any>> {
  const body = await merchantPost(
    '/v1/payments',
    threeDsPayment(cardNumber, shopperResultUrl(), {
      amount: '24.90',
      'customer.browser.challengeWindow': challengeWindow,
      'customer.browser.language': navigator.language,
      'customer.browser.screenHeight': String(screen.height),
      'customer.browser.screenWidth': String(screen.width),
      'customer.browser.timezone': String(new Date().getTimezoneOffset()),
      'customer.browser.userAgent': navigator.userAgent,
      'customer.browser.javaEnabled': 'false',
      'customer.browser.screenColorDepth': String(screen.colorDepth),
      'customer.browser.acceptHeader': 'text/html',
    }),
  );
  if (!body.redirect) throw new Error(`no 3DS redirect for this card: ${body.result?.code} ${body.result?.description}`);
  return body.redirect as Record<string, any>;
}

/** Makes the sandbox's next request to `path` (e.g. `/v1/paymentWidgets.js`) hang, so a story can show the waiting state. */
export async function hangNextRequest(path: string): Promise<void> {
  const response = await fetch(new URL(`__gw/fault?${new URLSearchParams({ path, mode: 'hang' })}`, document.baseURI), { method: 'POST' });
  if (!response.ok) throw new Error(`the merchant proxy could not hold ${path}: ${response.status}`);
}

/**
 * Resolves when `element` reflects `state`; rejects after `timeoutMs` naming the state it is in. The default leaves
 * room for a loaded machine (the service worker, the checkout and the widget script come first) within the 20 s a
 * test of the stories waits, so a story that fails says why.
 */
export async function untilState(element: Element | null, state: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (element?.getAttribute('state') !== state) {
    if (Date.now() > deadline)
      throw new Error(`expected state "${state}", still "${element?.getAttribute('state')}" after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
