/**
 * The demo pages' only way to reach their back end (`/api`, the merchant
 * server). Every answer carries the gateway calls it caused; they are added to
 * the page's call log before the caller sees the data.
 */
import type { GatewayCall } from '../server/call-recorder.js';
import { logCalls } from './call-log.js';

/** The merchant server refused or failed: `message` is safe to show. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Calls the merchant back end; `label` names the step in the call log. A POST carries an `Idempotency-Key`, so when
 * its answer is lost on the way (the connection dropped) it is sent once more with the same key: the shop's server
 * answers what it answered the first time and never calls the gateway twice for it.
 */
export async function api<Answer>(method: 'GET' | 'POST', path: string, label: string, body?: unknown): Promise<Answer> {
  const init = {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  const response = await fetch(`/api${path}`, init).catch(async (lost: unknown) => {
    if (method !== 'POST') throw lost;
    await new Promise((resolve) => setTimeout(resolve, 500));
    return fetch(`/api${path}`, init);
  });
  const answer = (await response.json().catch(() => ({}))) as { calls?: GatewayCall[]; error?: string };
  if (answer.calls?.length) logCalls(label, answer.calls);
  if (!response.ok) throw new ApiError(answer.error ?? `the shop's server answered ${response.status}`, response.status);
  return answer as Answer;
}
