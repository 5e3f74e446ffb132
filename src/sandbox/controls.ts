/** The `/__sandbox/` controls for tests: clock, reset, request log and faults, all behind the Bearer token. */
import { RESULT_CODES } from '../contract/result-codes.js';
import { envelope, failure, invalidParameters, result } from './results.js';
import { bearerAccepted, FAULT_MODES, json, reply, type FaultMode, type Handler, type Route, type SandboxState } from './state.js';

const controlResult = (state: SandboxState, body: Record<string, unknown>) =>
  json(200, envelope({ result: result(RESULT_CODES.approved), ...body }, state.store.clock.now(), state.store.ndc(undefined)));

const controlError = (state: SandboxState, name: string, value: string, message: string) => invalidParameters([{ name, value, message }], state.store.clock.now(), state.store.ndc(undefined));

function requireBearer(handler: Handler): Handler {
  return (state, request, match) =>
    bearerAccepted(state, request.authorization) ? handler(state, request, match) : reply(failure(401, RESULT_CODES.unauthorized, state.store.clock.now(), state.store.ndc(undefined)));
}

const clockReply = (state: SandboxState) => reply(controlResult(state, { now: state.store.clock.now().toISOString() }));

const readClock: Handler = (state) => clockReply(state);

const advanceClock: Handler = (state, request) => {
  const text = request.params.advance ?? '';
  const seconds = Number(text);
  const headroom = state.store.clock.headroomSeconds();
  if (!/^\d+(\.\d+)?$/.test(text) || !(seconds <= headroom)) return reply(controlError(state, 'advance', text, `must be a number of seconds from 0 to ${Math.floor(headroom)}`));
  state.store.clock.advance(seconds);
  state.store.sweep();
  return clockReply(state);
};

const resetState: Handler = (state) => {
  state.reset();
  return reply(controlResult(state, {}));
};

const readLog: Handler = (state) => reply(controlResult(state, { requests: state.log.entries() }));

const listFaults = (state: SandboxState) => [...state.faults.values()].map(({ path, mode, remaining }) => ({ path, mode, count: String(remaining) }));

const addFault: Handler = (state, request) => {
  const { path = '', mode = '', count = '1' } = request.params;
  if (!path.startsWith('/') || path.startsWith('/__sandbox/')) return reply(controlError(state, 'path', path, 'must be a gateway path such as /v1/payments'));
  if (!FAULT_MODES.includes(mode as FaultMode)) return reply(controlError(state, 'mode', mode, `must be one of ${FAULT_MODES.join(', ')}`));
  if (!/^\d{1,6}$/.test(count)) return reply(controlError(state, 'count', count, 'must be a whole number of requests'));
  if (count === '0') state.faults.delete(path);
  else state.faults.set(path, { path, mode: mode as FaultMode, remaining: Number(count) });
  return reply(controlResult(state, { faults: listFaults(state) }));
};

const readFaults: Handler = (state) => reply(controlResult(state, { faults: listFaults(state) }));

const notificationLog = (state: SandboxState) => ({ notifications: state.notifications.list(), ...(state.notifications.url ? { url: state.notifications.url } : {}) });

const readNotifications: Handler = (state) => reply(controlResult(state, notificationLog(state)));

const resendNotification: Handler = (state, _request, match) => {
  const id = match[1]!;
  if (!state.notifications.resend(id)) return reply(controlError(state, 'id', id.slice(0, 64), 'is not a notification the sandbox keeps'));
  return reply(controlResult(state, notificationLog(state)));
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
];
