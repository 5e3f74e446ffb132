/**
 * A POST to the shop's server that calls the gateway, sent again with the same `Idempotency-Key` (the page's retry
 * after a lost answer, a request replayed by a proxy or a person), gets the first request's answer and never calls
 * the gateway again: the key is claimed on the status store every instance shares, as a payment API's idempotency
 * keys work. The same key with another request is refused (422); while its first request still runs, 409; after a
 * first request that never finished (its instance died mid-call), 409 too: what it did is unknown, so nothing is
 * sent again under that key, and the page looks the payment up before a new attempt.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { StatusStore } from 'gw-elements/server';
import { MONEY_CLAIM_MS } from './money-claims.js';

/** What the page generates: a UUID, or any 8 to 128 letters, digits, `-` or `_`. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

export interface RouteAnswer {
  readonly status: number;
  readonly body: object;
}

/** The answer of `run` for this request, or the one kept for its key; `replayed` when it is the kept one. */
export async function answerOnce(
  store: StatusStore,
  request: { readonly route: string; readonly key: string | undefined; readonly input: unknown },
  run: () => Promise<RouteAnswer>,
): Promise<RouteAnswer & { replayed?: boolean }> {
  const { route, key, input } = request;
  if (key === undefined) return run();
  if (!IDEMPOTENCY_KEY.test(key)) return { status: 400, body: { error: 'Idempotency-Key must be 8 to 128 letters, digits, - or _' } };
  const fingerprint = createHash('sha256').update(JSON.stringify(input)).digest('hex');
  const storeKey = `idempotency:${route}:${key}`;
  const token = randomUUID();
  const now = Date.now();
  const claim = await store.claim(storeKey, { token, now, until: now + MONEY_CLAIM_MS });
  if (claim.status === 'final') {
    const kept = JSON.parse(claim.value) as RouteAnswer & { fingerprint: string };
    if (kept.fingerprint !== fingerprint) return { status: 422, body: { error: 'this Idempotency-Key was sent with another request' } };
    return { status: kept.status, body: kept.body, replayed: true };
  }
  if (claim.status !== 'claimed')
    return { status: 409, body: { error: 'a request with this Idempotency-Key is still being handled: send it again shortly' } };
  if (claim.unanswered) {
    await store.settle(storeKey, token, { unanswered: true });
    return {
      status: 409,
      body: {
        error: 'an earlier request with this Idempotency-Key never finished, so what it did is unknown: look it up before a new attempt',
      },
    };
  }
  let answer: RouteAnswer | undefined;
  try {
    answer = await run();
    return answer;
  } finally {
    // Whatever the route answered is the key's answer for good; a route that threw (the shop's own bug) leaves the key
    // marked unanswered, since a gateway call may have gone out before it.
    await store.settle(storeKey, token, answer ? { value: JSON.stringify({ ...answer, fingerprint }), final: true } : { unanswered: true });
  }
}
