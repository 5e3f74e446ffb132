/**
 * A gateway client over a stub fetch, the server's unit tests' stand-in for the
 * gateway (the adversarial suites use it too): the stub sees every call (method,
 * URL, form, headers) and answers whatever the test says — any status, any
 * body, a thrown value — with no network and no sleeps.
 */
import { createGatewayClient, type GatewayClientOptions } from '../../src/server/index.js';

export const TOKEN = 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c2VjcmV0LWNhbmFyeQ==';
export const ENTITY = '8a8294174b7ecb28014b9699220015ca';
export const PAYMENT_ID = '8ac7a4a17000000000000000000000aa';

export interface StubCall {
  readonly method: string;
  readonly url: URL;
  readonly form: URLSearchParams;
  readonly body: string;
  readonly authorization: string;
  /** The request's signal (its time limit and the caller's abort), for a stub that hangs until it fires. */
  readonly signal?: AbortSignal | undefined;
}

export type StubAnswer = Response | { status: number; body: unknown } | { raw: string; status: number };
export type StubHandler = (call: StubCall, index: number) => StubAnswer | Promise<StubAnswer>;

const toResponse = (answer: StubAnswer): Response => {
  if (answer instanceof Response) return answer;
  if ('raw' in answer) return new Response(answer.raw, { status: answer.status });
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
};

/** A client whose every request goes to `handler`; `calls` lists them, `posts()` the POSTs. */
export function stubClient(handler: StubHandler, options: Partial<GatewayClientOptions> = {}) {
  const calls: StubCall[] = [];
  const stub: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const body = init?.body ? String(init.body) : '';
    const headers = new Headers(init?.headers);
    const call = {
      method: init?.method ?? 'GET',
      url,
      body,
      form: new URLSearchParams(body),
      authorization: headers.get('authorization') ?? '',
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    return toResponse(await handler(call, calls.length - 1));
  };
  const client = createGatewayClient({
    baseUrl: 'https://gateway.test',
    accessToken: TOKEN,
    entityId: ENTITY,
    fetch: stub,
    timeoutMs: 2000,
    maxNetworkRetries: 0,
    reconcileDelaysMs: [0, 0],
    ...options,
  });
  return { client, calls, posts: () => calls.filter((call) => call.method === 'POST') };
}

/** A gateway envelope around `fields`. */
export const answer = (code: string, fields: Record<string, unknown> = {}, description = 'stub') => ({
  result: { code, description },
  buildNumber: 'stub',
  timestamp: '2026-11-23 10:00:00+0000',
  ndc: 'stub',
  ...fields,
});
