/**
 * The sandbox's HTTP front: parses each request, injects a pending fault,
 * routes it, writes the answer and keeps a masked log line of it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESULT_CODES } from '../contract/result-codes.js';
import { maskParameter } from '../contract/rules.js';
import { failure } from './results.js';
import { isCorsPath, route } from './routes.js';
import { reply, type FaultMode, type LoggedRequest, type Routed, type SandboxState } from './state.js';
import { newId } from './store.js';
import { BodyTooLargeError, parseForm, readBody, sendPreflight, sendReply, type FlatParams, type Reply } from './wire.js';


const systemError = (state: SandboxState, description: string) =>
  failure(500, '800.800.800', state.store.clock.now(), newId(), description === '' ? {} : { description });

function takeFault(state: SandboxState, path: string): FaultMode | undefined {
  const fault = state.faults.get(path);
  if (!fault) return undefined;
  if (--fault.remaining <= 0) state.faults.delete(path);
  return fault.mode;
}

function record(state: SandboxState, entry: LoggedRequest): void {
  state.log.push(entry);
  if (state.log.length > state.logLimit) state.log.splice(0, state.log.length - state.logLimit);
}

function masked(params: FlatParams): Record<string, string> {
  // No prototype: a parameter named `__proto__` is logged like any other.
  const safe = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(params)) safe[name] = maskParameter(name, value);
  return safe;
}

const resultCodeOf = (answer: Reply): string | undefined => {
  if (answer.kind === 'json') return (answer.body.result as { code?: string } | undefined)?.code;
  if (answer.kind === 'redirect') return answer.resultCode;
  return undefined;
};

/** Serves one HTTP request. Never throws: a bug answers HTTP 500 in the gateway's shape. */
export async function handle(state: SandboxState, incoming: IncomingMessage, response: ServerResponse, onError: (error: unknown) => void): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://sandbox');
  const method = incoming.method ?? 'GET';
  const path = url.pathname;
  if (method === 'OPTIONS') {
    if (isCorsPath(path)) return sendPreflight(response);
    return sendReply(response, failure(405, RESULT_CODES.invalidParameter, state.store.clock.now(), newId(), { description: 'no preflight here' }));
  }
  let params: FlatParams;
  try {
    params = method === 'POST' ? parseForm(await readBody(incoming)) : parseForm(url.search.slice(1));
  } catch (error) {
    const description = error instanceof BodyTooLargeError ? 'request body too large' : 'unreadable request body';
    const answer = failure(400, RESULT_CODES.invalidParameter, state.store.clock.now(), newId(), { description });
    record(state, { at: state.store.clock.now().toISOString(), method, path, status: 400, resultCode: RESULT_CODES.invalidParameter, params: {} });
    if (!response.destroyed) sendReply(response, answer);
    return;
  }
  const at = state.store.clock.now().toISOString();
  const fault = path.startsWith('/__sandbox/') ? undefined : takeFault(state, path);
  const base = { at, method, path, params: masked(params), ...(fault ? { fault } : {}) };
  if (fault === 'hang') {
    record(state, { ...base, status: 0 });
    return;
  }
  if (fault === 'error') {
    const answer = systemError(state, 'The payment system is currently unavailable (fault injected by gw-sandbox).');
    record(state, { ...base, status: 500, resultCode: resultCodeOf(answer)! });
    return sendReply(response, answer);
  }
  let routed: Routed;
  try {
    routed = route(state, { method, path, params, authorization: incoming.headers.authorization });
  } catch (error) {
    onError(error);
    routed = reply(systemError(state, ''));
  }
  const status = fault === 'drop' ? 0 : routed.reply.kind === 'json' || routed.reply.kind === 'html' ? routed.reply.status : routed.reply.kind === 'redirect' ? 303 : 200;
  const resultCode = resultCodeOf(routed.reply);
  record(state, { ...base, status, ...(resultCode ? { resultCode } : {}), ...(routed.paymentId ? { paymentId: routed.paymentId } : {}) });
  if (fault === 'drop') {
    incoming.socket.destroy();
    return;
  }
  sendReply(response, routed.reply);
}
