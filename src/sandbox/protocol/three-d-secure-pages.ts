/**
 * The sandbox's 3-D Secure: the `redirect` object of a pending payment, the
 * hidden 3DS method page, and the ACS page where the cardholder completes or
 * fails the challenge. Pages are plain HTML with no script, so they work in
 * iframes and under any page's Content Security Policy.
 */
import { challengeWindowOf } from '../../contract/challenge-window.js';
import type { ThreeDsRedirect } from '../../contract/redirect.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import { base64urlOf, textOfBase64url } from '../bytes.js';
import { shopperReturnUrl } from '../gateway/payments.js';
import { completeThreeDs, executeThreeDs, paymentOfSession, receiveMethodData } from '../gateway/three-d-secure.js';
import type { PaymentRecord, SandboxStore } from '../gateway/store.js';
import { escapeHtml, type Reply } from './wire.js';
import type { FlatParams } from '../gateway/store.js';

/** The platform's shape, shared with the server helper and `<gw-3ds-handler>`. */
export type Redirect = ThreeDsRedirect;

const base64url = (value: unknown) => base64urlOf(JSON.stringify(value));

/** The 3DS method data names the session by its threeDSServerTransID, a UUID as EMVCo defines it. */
function methodData(base: string, token: string): string {
  return base64url({ threeDSServerTransID: token, threeDSMethodNotificationURL: `${base}/v1/threeDSecure/method` });
}

/** The `redirect` object of a pending payment, in the platform's shape. */
export function redirectOf(payment: PaymentRecord, base: string): Redirect {
  const session = payment.threeDs!;
  const redirect: Redirect = {
    url: `${base}/v1/threeDSecure/execute`,
    parameters: [
      { name: 'threeDSSessionData', value: session.token },
      {
        name: 'creq',
        value: base64url({
          threeDSServerTransID: session.token,
          messageType: 'CReq',
          messageVersion: '2.2.0',
          challengeWindowSize: challengeWindowOf(payment.echo['customer.browser.challengeWindow'] ?? '') ?? '05',
        }),
      },
    ],
  };
  if (!session.methodData) return redirect;
  return {
    ...redirect,
    preconditions: [
      {
        origin: 'iframe#hidden',
        waitUntil: 'iframe#onload',
        description: 'Hidden iframe post for 3D Secure 2.0',
        method: 'POST',
        url: `${base}/v1/threeDSecure/method`,
        parameters: [{ name: 'threeDSMethodData', value: methodData(base, session.token) }],
      },
    ],
  };
}

function page(title: string, body: string, status = 200): Reply {
  return {
    kind: 'html',
    status,
    html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 1.5rem; color: #1a1a1a; background: #fff; }
  main { max-width: 28rem; margin: 0 auto; }
  h1 { font-size: 1.25rem; }
  .actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1rem; border-radius: .375rem; border: 2px solid #1a4fa0; cursor: pointer; }
  button[value="complete"] { background: #1a4fa0; color: #fff; }
  button[value="fail"] { background: #fff; color: #1a4fa0; }
  button:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
  /* The smallest challenge windows (01: 250 × 400, 02: 390 × 400) hold the whole page, buttons included. */
  @media (max-width: 400px), (max-height: 420px) {
    body { font-size: 14px; line-height: 1.4; padding: .75rem; }
    h1 { font-size: 1.05rem; margin: 0 0 .5rem; }
    p { margin: .5rem 0; }
    .actions { gap: .5rem; margin-top: .75rem; }
    button { padding: .4rem .7rem; }
  }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`,
  };
}

const sessionNotFound = () =>
  page(
    '3-D Secure session not found',
    '<h1>3-D Secure session not found</h1>\n<p>This authentication session is unknown or has ended.</p>',
    400,
  );

/** `POST /v1/threeDSecure/method`: the browser posted the method data (which names the session). */
export function methodPage(store: SandboxStore, params: Readonly<FlatParams>): { reply: Reply; paymentId?: string } {
  let token: string | undefined;
  try {
    const decoded = JSON.parse(textOfBase64url(params.threeDSMethodData ?? '') ?? '') as { threeDSServerTransID?: unknown };
    if (typeof decoded.threeDSServerTransID === 'string') token = decoded.threeDSServerTransID;
  } catch {
    token = undefined;
  }
  const payment = receiveMethodData(store, token);
  if (!payment) return { reply: sessionNotFound() };
  return { reply: page('3-D Secure method', '<p>3-D Secure method data received.</p>'), paymentId: payment.id };
}

/**
 * `POST /v1/threeDSecure/execute`: a frictionless step finishes here and sends
 * the browser on; a challenge shows the ACS page.
 */
export function executePage(store: SandboxStore, params: Readonly<FlatParams>): { reply: Reply; paymentId?: string } {
  const executed = executeThreeDs(store, params.threeDSSessionData);
  if (!executed) return { reply: sessionNotFound() };
  const { payment } = executed;
  if (!executed.challenge)
    return { reply: { kind: 'redirect', location: shopperReturnUrl(payment), resultCode: payment.result.code }, paymentId: payment.id };
  const amount = `${escapeHtml(payment.amount)} ${escapeHtml(payment.currency)}`;
  const card = payment.card ? ` with the card ending ${escapeHtml(payment.card.last4Digits)}` : '';
  // The action is relative to this page (`…/v1/threeDSecure/execute`): under a service worker's scope the sandbox lives below a path prefix.
  const body = `<h1>Confirm your payment</h1>
<p>gw-sandbox test ACS: authenticate the payment of <strong>${amount}</strong>${card}.</p>
<p>This page stands for the card issuer's 3-D Secure challenge. Nothing is charged: it is a sandbox.</p>
<form method="post" action="challenge">
<input type="hidden" name="threeDSSessionData" value="${escapeHtml(payment.threeDs!.token)}">
<div class="actions">
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</div>
</form>`;
  return { reply: page('3-D Secure challenge', body), paymentId: payment.id };
}

/** `POST /v1/threeDSecure/challenge`: the ACS page's answer; finishes the payment and sends the browser to the shop. */
export function challengeAnswer(store: SandboxStore, params: Readonly<FlatParams>): { reply: Reply; paymentId?: string } {
  const payment = paymentOfSession(store, params.threeDSSessionData);
  if (!payment || (params.outcome !== 'complete' && params.outcome !== 'fail')) return { reply: sessionNotFound() };
  completeThreeDs(store, payment, params.outcome === 'complete');
  const code = payment.result.code === RESULT_CODES.pending ? undefined : payment.result.code;
  return { reply: { kind: 'redirect', location: shopperReturnUrl(payment), ...(code ? { resultCode: code } : {}) }, paymentId: payment.id };
}
