/**
 * Records what the merchant back end said to the gateway, so each demo page can
 * show the calls it caused: method, path, result code and the parameters sent,
 * scrubbed by the contract's one redaction (src/contract/redaction.ts): card
 * number and security code masked by name, the request's own token, card number
 * and security code by value wherever else they stand (a card number typed
 * into the holder field), any other card number by shape. The access token is
 * a header and is never recorded.
 */
import { createRedactor, type Redactor } from '../../src/contract/redaction.js';
import { classifyResult, type ResultKind } from '../../src/contract/result-codes.js';

/** One request to the gateway as the demo shows it. */
export interface GatewayCall {
  readonly method: string;
  /** Path and query without the host, e.g. `/v1/checkouts/{id}/payment?entityId=…`. */
  readonly path: string;
  /** The form fields (POST) or query parameters (GET), masked. */
  readonly params: Readonly<Record<string, string>>;
  readonly status: number;
  readonly resultCode: string;
  readonly resultDescription: string;
  readonly resultKind: ResultKind | 'no_answer';
  readonly ms: number;
}

function maskedParams(params: URLSearchParams, redact: Redactor): Record<string, string> {
  return redact.deep(Object.fromEntries(params));
}

/** The token of an `Authorization: Bearer …` header, however the headers were given. */
function bearerOf(headers: HeadersInit | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(new Headers(headers).get('authorization') ?? '')?.[1];
}

function formOf(body: unknown): URLSearchParams {
  if (body instanceof URLSearchParams) return body;
  if (typeof body === 'string') return new URLSearchParams(body);
  return new URLSearchParams();
}

/**
 * A `fetch` that forwards to `inner` and appends a {@link GatewayCall} to `calls`
 * for every request, answered or not. The answer is read from a clone, so the
 * caller still gets an unread response.
 */
export function recordingFetch(calls: GatewayCall[], inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const params = method === 'GET' ? url.searchParams : formOf(init?.body);
    const redact = createRedactor({ accessToken: bearerOf(init?.headers ?? (input instanceof Request ? input.headers : undefined)), cardNumber: params.get('card.number') ?? undefined, cvv: params.get('card.cvv') ?? undefined });
    const started = performance.now();
    const query = method === 'GET' && [...url.searchParams].length ? `?${new URLSearchParams(maskedParams(url.searchParams, redact))}` : '';
    const base = { method, path: `${redact(url.pathname)}${query}`, params: maskedParams(params, redact) };
    try {
      const response = await inner(input, init);
      const body = (await response.clone().json().catch(() => ({}))) as { result?: { code?: string; description?: string } };
      const resultCode = body.result?.code ?? '';
      calls.push({
        ...base,
        status: response.status,
        resultCode,
        resultDescription: redact(body.result?.description ?? ''),
        resultKind: resultCode ? classifyResult(resultCode) : 'no_answer',
        ms: Math.round(performance.now() - started),
      });
      return response;
    } catch (error) {
      calls.push({ ...base, status: 0, resultCode: '', resultDescription: 'no answer (network error or timeout)', resultKind: 'no_answer', ms: Math.round(performance.now() - started) });
      throw error;
    }
  };
}
