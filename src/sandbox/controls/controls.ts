/**
 * The `/__sandbox/` controls for tests: clock, reset, request log, faults, and
 * the events a merchant needs to test (a notification, a late 3-D Secure
 * completion, an expiry), all behind the Bearer token. `gw-sandbox trigger` drives them.
 */
import { RESULT_CODES } from '../../contract/result-codes.js';
import { expireCheckout } from '../gateway/checkouts.js';
import { completeThreeDs } from '../gateway/three-d-secure.js';
import { envelope, failure, invalidParameters } from '../protocol/envelope.js';
import { result } from '../gateway/store.js';
import type { PaymentRecord } from '../gateway/store.js';
import type { SandboxState } from '../core/state.js';
import { bearerAccepted } from '../protocol/auth.js';
import { checkFault, isFaultRefusal, TOO_MANY_FAULTS } from './faults.js';
import { json, reply, type Handler, type Route, type Routed } from '../protocol/dispatch.js';

const controlResult = (state: SandboxState, body: object) =>
  json(200, envelope({ result: result(RESULT_CODES.approved), ...body }, state.store.clock.now(), state.store.ndc(undefined)));

const controlError = (state: SandboxState, name: string, value: string, message: string) =>
  invalidParameters([{ name, value, message }], state.store.clock.now(), state.store.ndc(undefined));

function requireBearer(handler: Handler): Handler {
  return (context, match) =>
    bearerAccepted(context.state, context.request.authorization)
      ? handler(context, match)
      : reply(failure(401, RESULT_CODES.unauthorized, context.now, context.state.store.ndc(undefined)));
}

const clockReply = (state: SandboxState) => reply(controlResult(state, { now: state.store.clock.now().toISOString() }));

const readClock: Handler = ({ state }) => clockReply(state);

const advanceClock: Handler = ({ state, request }) => {
  const text = request.params.advance ?? '';
  const seconds = Number(text);
  const headroom = state.store.clock.headroomSeconds();
  if (!/^\d+(\.\d+)?$/.test(text) || !(seconds <= headroom))
    return reply(controlError(state, 'advance', text, `must be a number of seconds from 0 to ${Math.floor(headroom)}`));
  state.store.clock.advance(seconds);
  state.store.sweep();
  return clockReply(state);
};

const resetState: Handler = ({ state }) => {
  state.reset();
  return reply(controlResult(state, {}));
};

const readLog: Handler = ({ state }) => reply(controlResult(state, { requests: state.log.entries() }));

const addFault: Handler = ({ state, request }) => {
  const { path = '', mode = '', count = '1' } = request.params;
  const fault = checkFault(path, mode, count);
  if (isFaultRefusal(fault)) return reply(controlError(state, fault.name, fault.value, fault.message));
  if (!state.faults.set(fault)) return reply(controlError(state, 'path', fault.path.slice(0, 64), TOO_MANY_FAULTS));
  return reply(controlResult(state, { faults: state.faults.list() }));
};

const readFaults: Handler = ({ state }) => reply(controlResult(state, { faults: state.faults.list() }));

const notificationLog = (state: SandboxState) => ({
  notifications: state.notifications.list(),
  ...(state.notifications.url ? { url: state.notifications.url } : {}),
});

const readNotifications: Handler = ({ state }) => reply(controlResult(state, notificationLog(state)));

const resendNotification: Handler = ({ state }, match) => {
  const id = match[1]!;
  if (!state.notifications.resend(id)) return reply(controlError(state, 'id', id.slice(0, 64), 'is not a notification the sandbox keeps'));
  return reply(controlResult(state, notificationLog(state)));
};

/** The payment a control names, or the refusal naming it. */
function namedPayment(state: SandboxState, id: string): PaymentRecord | Routed {
  return state.store.payment(id) ?? reply(controlError(state, 'id', id.slice(0, 64), 'is not a payment the sandbox keeps'));
}

const paymentState = (state: SandboxState, payment: PaymentRecord) =>
  controlResult(state, { id: payment.id, paymentResult: payment.result });

/** Sends a notification of the payment as it stands now, as the platform does on each change. */
const notifyPayment: Handler = ({ state }, match) => {
  const payment = namedPayment(state, match[1]!);
  if ('reply' in payment) return payment;
  if (!state.notifications.url)
    return reply(controlError(state, 'id', payment.id, 'cannot be notified: the sandbox has no notification URL (start it with one)'));
  if (payment.refused)
    return reply(
      controlError(
        state,
        'id',
        payment.id,
        'cannot be notified: it was refused before any bank saw it, and the platform notifies nothing of such a transaction',
      ),
    );
  state.store.paymentChanged(payment);
  return reply(controlResult(state, { notification: state.notifications.list().at(-1) }), payment.id);
};

const waitingForThreeDs = (payment: PaymentRecord) => payment.threeDs !== undefined && !payment.threeDs.finished;

/**
 * Finishes a payment's 3DS step as the shopper's bank would, whenever the test
 * says (a completion after the checkout's 30 minutes included): `outcome=approved`
 * (then the card's own trigger decides) or `failed`.
 */
const threeDsCompletion: Handler = ({ state, request }, match) => {
  const outcome = request.params.outcome ?? 'approved';
  if (outcome !== 'approved' && outcome !== 'failed')
    return reply(controlError(state, 'outcome', outcome.slice(0, 64), 'must be approved or failed'));
  const payment = namedPayment(state, match[1]!);
  if ('reply' in payment) return payment;
  if (!waitingForThreeDs(payment))
    return reply(controlError(state, 'id', payment.id, `has no 3-D Secure step waiting (result ${payment.result.code})`));
  completeThreeDs(state.store, payment, outcome === 'approved');
  return reply(paymentState(state, payment), payment.id);
};

/** Times a pending payment's 3DS step out now, as its 30 minutes passing would. */
const expirePayment: Handler = ({ state }, match) => {
  const payment = namedPayment(state, match[1]!);
  if ('reply' in payment) return payment;
  if (!waitingForThreeDs(payment))
    return reply(controlError(state, 'id', payment.id, `has no 3-D Secure step waiting to expire (result ${payment.result.code})`));
  state.store.timeOutThreeDs(payment);
  return reply(paymentState(state, payment), payment.id);
};

/** Ends a checkout's life now, as its 30 minutes passing would; attempts still in 3DS keep their own time. */
const checkoutExpiry: Handler = ({ state }, match) => {
  const id = match[1]!;
  const checkout = state.store.checkouts.get(id);
  if (!checkout) return reply(controlError(state, 'id', id.slice(0, 64), 'is not a checkout the sandbox keeps'));
  expireCheckout(state.store, checkout);
  return reply(controlResult(state, { id, expiresAt: new Date(checkout.expiresAt).toISOString() }));
};

export const CONTROL_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/__sandbox\/clock$/, handler: requireBearer(readClock) },
  { method: 'POST', pattern: /^\/__sandbox\/clock$/, handler: requireBearer(advanceClock) },
  { method: 'POST', pattern: /^\/__sandbox\/reset$/, handler: requireBearer(resetState) },
  { method: 'GET', pattern: /^\/__sandbox\/requests$/, handler: requireBearer(readLog) },
  { method: 'GET', pattern: /^\/__sandbox\/faults$/, handler: requireBearer(readFaults) },
  { method: 'POST', pattern: /^\/__sandbox\/faults$/, handler: requireBearer(addFault) },
  { method: 'GET', pattern: /^\/__sandbox\/notifications$/, handler: requireBearer(readNotifications) },
  { method: 'POST', pattern: /^\/__sandbox\/notifications\/([^/]+)\/resend$/, handler: requireBearer(resendNotification) },
  { method: 'POST', pattern: /^\/__sandbox\/payments\/([^/]+)\/notify$/, handler: requireBearer(notifyPayment) },
  { method: 'POST', pattern: /^\/__sandbox\/payments\/([^/]+)\/three-d-secure$/, handler: requireBearer(threeDsCompletion) },
  { method: 'POST', pattern: /^\/__sandbox\/payments\/([^/]+)\/expire$/, handler: requireBearer(expirePayment) },
  { method: 'POST', pattern: /^\/__sandbox\/checkouts\/([^/]+)\/expire$/, handler: requireBearer(checkoutExpiry) },
];
