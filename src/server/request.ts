/**
 * The one function every resource sends through: it owns the headers, the
 * pre-send validation, the timeout, GET retries, parsing and error mapping.
 * POSTs are never retried here (the gateway has no idempotency key); payment
 * POSTs are reconciled instead, see `reconcile.ts`.
 */
import { classifyResult, type ResultKind } from '../contract/result-codes.js';
import { validateParameters, variantOf, type Operation, type ParameterError, type Variant } from '../contract/rules.js';
import {
  GatewayAuthenticationError,
  GatewayError,
  GatewayNetworkError,
  GatewayNotFoundError,
  GatewayPermissionError,
  GatewayThrottledError,
  GatewayTimeoutError,
  GatewayValidationError,
  type GatewayErrorDetails,
} from './errors.js';
import type { GatewayResult, TestMode } from './types.js';

/** Per-call options every resource method accepts last. */
export interface RequestOptions {
  /** Cancels the request (combined with the timeout). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

export interface Call extends RequestOptions {
  /** DELETE sends its parameters in the query, like GET, and is never retried, like POST. */
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Form fields (POST) or query parameters (GET), flat, without entityId. */
  params?: Record<string, string>;
  /** Validate `params` against this operation's rules before sending (POST bodies). */
  operation?: Operation;
  /** The programme the caller's request type names; the fields must make the same one. */
  programme?: Variant | undefined;
  /** GET only: how many times a network failure or a 5xx may be retried. */
  retries?: number;
}

export interface Transport {
  readonly entityId: string;
  readonly testMode: TestMode | undefined;
  readonly now: () => number;
  readonly reconcileDelaysMs: readonly number[];
  /** The parsed answer and its HTTP status; request-level failures are thrown. */
  send<T extends { result: GatewayResult }>(call: Call): Promise<{ status: number; body: T }>;
}

export interface TransportConfig {
  baseUrl: string;
  accessToken: string;
  entityId: string;
  timeoutMs: number;
  fetch: typeof fetch;
  testMode: TestMode | undefined;
  userAgent: string;
  maxNetworkRetries: number;
  reconcileDelaysMs: readonly number[];
  now: () => number;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential backoff with jitter, so many clients retrying after one outage do not arrive together. */
export const backoffMs = (attempt: number) => Math.min(4000, 200 * 2 ** attempt) * (0.5 + Math.random() / 2);

/** Result kinds that mean the request itself failed, whatever the endpoint: they become errors here. */
const REQUEST_ERRORS: Partial<Record<ResultKind, new (message: string, details: GatewayErrorDetails) => GatewayError>> = {
  unauthorized: GatewayAuthenticationError,
  forbidden: GatewayPermissionError,
  throttled: GatewayThrottledError,
  not_found: GatewayNotFoundError,
  rejected_validation: GatewayValidationError,
};

/** What a gateway answer's error carries: its code, description and parameter errors. */
export const resultDetails = (result: GatewayResult) => ({
  resultCode: result.code,
  description: result.description,
  parameterErrors: result.parameterErrors,
});

/** The error for a gateway answer, named by its result code. */
export function resultError(Type: new (message: string, details: GatewayErrorDetails) => GatewayError, result: GatewayResult, details: GatewayErrorDetails = {}): GatewayError {
  return new Type(`${result.description} (${result.code})`, { ...resultDetails(result), ...details });
}

/** Raised before anything is sent: every bad field, masked. */
export function validationError(errors: readonly ParameterError[]): GatewayValidationError {
  const fields = errors.map((error) => `${error.name} ${error.message}`).join('; ');
  return new GatewayValidationError(`Invalid request, nothing was sent: ${fields}`, { parameterErrors: errors });
}

export function createTransport(config: TransportConfig): Transport {
  const base = config.baseUrl.replace(/\/+$/, '');
  const headers = {
    authorization: `Bearer ${config.accessToken}`,
    accept: 'application/json',
    'user-agent': config.userAgent,
  };

  async function attempt(call: Call, url: string, body: URLSearchParams | undefined) {
    const timeoutMs = call.timeoutMs ?? config.timeoutMs;
    // One controller for the timeout and the caller's signal: cheaper per request than AbortSignal.timeout/any.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const cancel = () => controller.abort(call.signal?.reason);
    if (call.signal?.aborted) cancel();
    call.signal?.addEventListener('abort', cancel);
    let response: Response;
    let text: string;
    try {
      response = await config.fetch(url, {
        method: call.method,
        headers: body ? { ...headers, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : headers,
        body,
        signal: controller.signal,
        redirect: 'error',
      });
      text = await response.text();
    } catch (failure) {
      // A custom fetch may put anything in its error; the token never leaves through it.
      const cause = failure instanceof Error ? Object.assign(new Error(failure.message.replaceAll(config.accessToken, '[access token]')), { name: failure.name }) : failure;
      if (timedOut) throw new GatewayTimeoutError(`No answer from the gateway within ${timeoutMs} ms (${call.method} ${call.path})`, { cause });
      throw new GatewayNetworkError(`The connection to the gateway failed (${call.method} ${call.path})`, { cause });
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', cancel);
    }
    try {
      const parsed = JSON.parse(text) as { result?: GatewayResult };
      if (typeof parsed.result?.code === 'string') return { status: response.status, body: parsed as { result: GatewayResult } };
    } catch {
      // Not JSON: a proxy's error page or a cut body, handled below.
    }
    throw new GatewayNetworkError(`The gateway answered HTTP ${response.status} without a result (${call.method} ${call.path})`, { httpStatus: response.status });
  }

  return {
    entityId: config.entityId,
    testMode: config.testMode,
    now: config.now,
    reconcileDelaysMs: config.reconcileDelaysMs,
    async send<T extends { result: GatewayResult }>(call: Call): Promise<{ status: number; body: T }> {
      const params: Record<string, string> = { entityId: config.entityId, ...call.params };
      let body: URLSearchParams | undefined;
      let url = base + call.path;
      if (call.method === 'POST') {
        if (config.testMode && params.testMode === undefined) params.testMode = config.testMode;
        if (call.operation) {
          const errors = validateParameters(call.operation, params);
          const variant = variantOf(call.operation, params);
          if (call.programme && call.programme !== variant) {
            errors.push({ name: 'programme', value: call.programme, message: `the fields sent make this a ${variant} (merchant.mcc 7995: winnings; MASTER: send payout; recipient data: funding or transfer)` });
          }
          if (errors.length) throw validationError(errors);
        }
        body = new URLSearchParams(params);
      } else {
        url += `?${new URLSearchParams(params)}`;
      }
      const retries = call.method === 'GET' ? (call.retries ?? config.maxNetworkRetries) : 0;
      for (let tries = 0; ; tries++) {
        try {
          const { status, body: answer } = await attempt(call, url, body);
          if (status >= 500 && tries < retries) throw new GatewayNetworkError(`HTTP ${status}`, { httpStatus: status });
          const Type = REQUEST_ERRORS[classifyResult(answer.result.code)];
          if (Type) throw resultError(Type, answer.result, { httpStatus: status });
          return { status, body: answer as T };
        } catch (error) {
          const retryable = error instanceof GatewayNetworkError && !call.signal?.aborted;
          if (!retryable || tries >= retries) throw error;
          await sleep(backoffMs(tries));
        }
      }
    },
  };
}
