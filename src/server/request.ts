/**
 * The transport every resource sends through: it owns the headers, the
 * pre-send validation, the timeout, GET retries, parsing and secret scrubbing.
 * It hands back any well-formed gateway answer with its HTTP status; what the
 * answer means is decided in `interpret.ts`, never here. POSTs are never retried
 * (the gateway has no idempotency key); payment POSTs are reconciled instead,
 * see `reconcile.ts`.
 */
import { isPaymentBrand, type PaymentBrand } from '../contract/brands.js';
import { checkField } from '../contract/formats.js';
import { amountTooLow } from '../contract/amount.js';
import { ANSWER_MAX_BYTES, ANSWER_MAX_DEPTH, nestsDeeperThan, TIMER_MAX_MS } from '../contract/limits.js';
import { createRedactor, otherSecretValues, REQUEST_IDENTIFIER_NAMES, type Redactor } from '../contract/redaction.js';
import { validateParameters, variantOf, type Operation, type Variant } from '../contract/rules.js';
import { readParameterErrors, type Answer } from './interpret.js';
import {
  GatewayError,
  GatewayNetworkError,
  GatewayTimeoutError,
  GatewayValidationError,
  isThenable,
  type GatewayParameterError,
} from './errors.js';
import type { GatewayResult, TestMode } from './types.js';

/**
 * Per-call options every resource method accepts last. They are the only way
 * a call changes what the client sends besides the request itself: request
 * data can never set a field the client owns (see `CLIENT_OWNED`).
 */
export interface RequestOptions {
  /** Cancels the request (combined with the timeout). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /**
   * The channel (AN32) this call is sent on instead of the client's `entityId`:
   * a merchant with one entity per brand group sends the payment on that
   * brand's entity, and reads its status, reports and captures on the same one.
   * Wins over `brands`.
   */
  entityId?: string;
  /**
   * The brands this call is for, sent on the entity the client's `entities`
   * map gives them (a checkout: the brands of its widget form; a read, capture
   * or refund: the brand of the payment). Brands on different entities are
   * refused before sending: one checkout per entity.
   */
  brands?: readonly PaymentBrand[];
}

/** Which entity (channel) each brand is sent on, besides the client's `entityId` (the rest). */
export type BrandEntities = Readonly<Partial<Record<PaymentBrand, string>>>;

export interface Call {
  /** DELETE sends its parameters in the query, like GET, and is never retried, like POST. */
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** The caller's options, kept apart so that nothing in them can replace what the resource set. */
  options?: RequestOptions | undefined;
  /** Form fields (POST) or query parameters (GET), flat, without entityId. */
  params?: Record<string, string>;
  /** Validate `params` against this operation's rules before sending (POST bodies). */
  operation?: Operation;
  /** The programme the caller's request type names; the fields must make the same one. */
  programme?: Variant | undefined;
  /** GET only: how many times a network failure or a 5xx may be retried. */
  retries?: number;
  /** The scrubber of the request this call is about (a look-up after a payment): it knows that payment's secrets. */
  redact?: Redactor | undefined;
  /** The most bytes of the answer read (a report page: what its page size can hold); `ANSWER_MAX_BYTES` by default. */
  maxBytes?: number | undefined;
}

export interface Transport {
  readonly entityId: string;
  /**
   * The options with the entity this call goes to written in `entityId`:
   * the options' own, else the one of their `brands`, else the one of the
   * request's `paymentBrand`, else the client's. A caller that must use the
   * same entity again (a look-up after a lost answer, a status read later)
   * resolves it once here. Throws `GatewayValidationError` for bad options.
   */
  onEntity(options: RequestOptions | undefined, paymentBrand?: string): RequestOptions & { entityId: string };
  /** Sent on POSTs here, by the resources on other methods that need it (DELETE). */
  readonly testMode: TestMode | undefined;
  readonly now: () => number;
  readonly reconcileDelaysMs: readonly number[];
  /** Throws the `GatewayValidationError` `send` would, without sending. */
  validate(call: Call): void;
  /** Scrubs the token and this call's card number and CVV from a text (or, deep, a value). */
  redactorFor(params: Readonly<Record<string, string>>): Redactor;
  /** The parsed answer (any result code) and its HTTP status; a failure to get one is thrown as a GatewayNetworkError. */
  send<T extends { result: GatewayResult }>(call: Call): Promise<Answer<T>>;
}

/**
 * One attempt of one gateway call, as the client's `onRequest` hook sees it
 * before sending: what a merchant's logging, tracing and metrics need, nothing
 * secret. The path holds ids only; `params` are the sent fields (the query of a
 * GET) with the card number masked to its first six and last four digits, the
 * security code `***`, and anything shaped like a card number or token masked
 * wherever it stands. The access token is never part of an event.
 */
export interface GatewayRequestEvent {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  /** 1 for the first attempt; a GET retried after a network failure or a 5xx counts on. POSTs always 1. */
  readonly attempt: number;
  readonly params: Readonly<Record<string, string>>;
}

/** The same attempt once it ended: with the gateway's answer, or with the failure that left none. */
export interface GatewayResponseEvent extends GatewayRequestEvent {
  /** From just before sending to the answer's body read (or the failure). */
  readonly durationMs: number;
  /** Absent when no HTTP answer arrived (connection failure, timeout). */
  readonly httpStatus?: number;
  /** The gateway's `result.code`; absent when the answer was not the gateway's (or none came). */
  readonly resultCode?: string;
  /** Why there is no readable answer: `GatewayNetworkError` or `GatewayTimeoutError`. */
  readonly failure?: string;
}

/** What the client calls around every attempt; see `GatewayClientOptions.onRequest`. */
export interface CallHooks {
  onRequest?: ((event: GatewayRequestEvent) => void) | undefined;
  onResponse?: ((event: GatewayResponseEvent) => void) | undefined;
}

/** Calls a merchant's hook; whatever it throws or rejects with is its own affair, never the payment's. */
function notify<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    const returned: unknown = hook(event);
    if (isThenable(returned)) returned.then(undefined, () => undefined);
  } catch {
    // Ignored on purpose: a logging bug must not change what happened to the money.
  }
}

/** The sent fields as an event may show them: secrets masked by name, by this request's known values, and by shape, except in identifiers (a merchantTransactionId stays as sent). */
const maskedParams = (params: Readonly<Record<string, string>>, redact: Redactor) =>
  Object.freeze(redact.deep({ ...params }, '', false, REQUEST_IDENTIFIER_NAMES));

export interface TransportConfig extends CallHooks {
  baseUrl: string;
  accessToken: string;
  entityId: string;
  /** The entity of each brand not on `entityId`. */
  entities?: BrandEntities | undefined;
  timeoutMs: number;
  fetch: typeof fetch;
  testMode: TestMode | undefined;
  userAgent: string;
  maxNetworkRetries: number;
  reconcileDelaysMs: readonly number[];
  now: () => number;
}

/** Waits `ms`, or until `signal` aborts (the caller gave up: nothing waits on its behalf). */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });

/** Exponential backoff with jitter, so many clients retrying after one outage do not arrive together. */
export const backoffMs = (attempt: number) => Math.min(4000, 200 * 2 ** attempt) * (0.5 + Math.random() / 2);

/** Raised before anything is sent: every bad field, masked. */
export function validationError(errors: readonly GatewayParameterError[], redact?: Redactor): GatewayValidationError {
  const fields = errors.map((error) => `${error.name} ${error.message}`).join('; ');
  return new GatewayValidationError(`Invalid request, nothing was sent: ${fields}`, { parameterErrors: errors, redact });
}

/**
 * Form names the client sets and request data must not: the channel, and the
 * platform's older credential parameters (`authentication.entityId`,
 * `.userId`, `.password`), which the gateway would read as the caller's.
 * A stray `entityId` (say, spread in from another object) would move a
 * payment to another channel while its look-ups stay on the configured one,
 * so it is refused, loudly and before sending, never silently dropped.
 */
const CLIENT_OWNED = /^(entityId|authentication\..*)$/i;
const OWNED_MESSAGE =
  'is set by the client (createGatewayClient({ entityId, entities }), or per call: options.entityId or options.brands), never by request data';

/** The options' own mistakes, found before sending: each would otherwise fail deep in fetch or a timer, untyped. */
function checkOptions(options: unknown): GatewayParameterError[] {
  if (options === undefined) return [];
  if (typeof options !== 'object' || options === null)
    return [{ name: 'options', message: 'must be an object ({ signal?, timeoutMs?, entityId?, brands? })' }];
  const { signal, timeoutMs, entityId, brands } = options as Record<string, unknown>;
  const errors: GatewayParameterError[] = [];
  if (signal !== undefined && !isSignal(signal)) errors.push({ name: 'options.signal', message: 'must be an AbortSignal' });
  if (timeoutMs !== undefined && !isTimeout(timeoutMs)) errors.push({ name: 'options.timeoutMs', message: TIMEOUT_MESSAGE });
  if (entityId !== undefined) {
    const problem = typeof entityId === 'string' ? checkField('entityId', entityId) : 'must be a string';
    if (problem)
      errors.push({ name: 'options.entityId', value: typeof entityId === 'string' ? entityId.slice(0, 64) : '', message: problem });
  }
  if (brands !== undefined && !(Array.isArray(brands) && brands.length > 0 && brands.every(isPaymentBrand))) {
    errors.push({ name: 'options.brands', message: 'must be a list of the brands the gateway names (VISA, MASTER, MADA, APPLEPAY, …)' });
  }
  return errors;
}

/**
 * Refuses malformed options before any work, for callers that use them before
 * a request is built (the shopper return shares a read and waits on its signal).
 */
export function checkRequestOptions(options: unknown, redact: Redactor): void {
  const problems = checkOptions(options);
  // Scrubbed of the token too: a caller's mix-up (the token passed as `entityId`) must not print it.
  if (problems.length) throw validationError(problems, redact);
}

/** Read by shape, not by class: a signal from another realm or a polyfill is as good. */
const isSignal = (value: unknown) => {
  const signal = value as Partial<AbortSignal> | null;
  return (
    typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
};

/** A timeout the client takes: whole milliseconds, at most what a timer holds. */
export const isTimeout = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= TIMER_MAX_MS;
export const TIMEOUT_MESSAGE = `must be a whole number of milliseconds from 1 to ${TIMER_MAX_MS}`;

const MAX_DEPTH = 8;

/**
 * What `read` reads from a caller's object, or a validation error naming `name` when a getter or a proxy throws: the
 * caller's own error would say nothing of the request, and could hold anything.
 */
export function readable<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch {
    throw validationError([{ name, message: 'could not be read (a getter or proxy threw)' }]);
  }
}

/** Nested request objects to the API reference's flat form names: `billing.city`, `customParameters[OrderID]`. */
export function flatten(source: unknown, prefix = '', into: Record<string, string> = {}, depth = 0): Record<string, string> {
  // A request is data: anything else (or a cycle) is refused before it can crash the walk.
  if (typeof source !== 'object' || source === null || depth > MAX_DEPTH) {
    throw validationError([
      { name: prefix || 'request', message: depth > MAX_DEPTH ? `nests deeper than ${MAX_DEPTH} levels` : 'must be an object' },
    ]);
  }
  for (const [key, value] of readable(prefix || 'request', () => Object.entries(source))) {
    // `programme` selects a request type in TypeScript only; the gateway reads the programme from the fields.
    if (value === undefined || value === null || (!prefix && key === 'programme')) continue;
    // Lists are the platform's indexed names (`registrations[0].id`).
    const name = prefix === 'customParameters' || Array.isArray(source) ? `${prefix}[${key}]` : prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object') flatten(value, name, into, depth + 1);
    // A function or a symbol is no field's value: sent as text it would be its source or `Symbol(…)`.
    else if (typeof value === 'function' || typeof value === 'symbol')
      throw validationError([{ name, message: 'must be a string, a number or a boolean' }]);
    else into[name] = String(value);
  }
  return into;
}

/**
 * The gateway's answer, told from anything else (a proxy's page, a cut body): a
 * `result` object with a string `code`, which is all a decision needs. Every
 * other field may be null, absent or new (the platform adds fields to `result`
 * without notice, and writes `"value": null` for a missing parameter); they are
 * read leniently where they are used, never a reason to discard the answer.
 */
export function isGatewayAnswer(value: unknown): value is { result: GatewayResult } {
  const result = (value as { result?: unknown } | null)?.result as { code?: unknown } | null | undefined;
  return typeof result === 'object' && result !== null && !Array.isArray(result) && typeof result.code === 'string';
}

/** The text each answer that needed no scrubbing was parsed from (see `answerText`). */
const answerTexts = new WeakMap<object, string>();

/**
 * The gateway's text of an answer `send` returned, when the answer is that
 * text parsed (it held nothing to scrub): a caller that keeps the answer (the
 * shopper return's status store) stores it without serialising it again.
 * Undefined for a scrubbed copy, or any other value.
 */
export const answerText = (body: object): string | undefined => answerTexts.get(body);

/** Used whole, never in stream mode, so one of each serves every request. */
const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** A body's chunks as one source, whatever kind of stream it is, and how to end it early. */
interface ChunkSource {
  next(): Promise<IteratorResult<Uint8Array | string>>;
  stop(): void;
}

function webStream(body: ReadableStream<Uint8Array>): ChunkSource {
  const reader = body.getReader();
  return { next: () => reader.read(), stop: () => void reader.cancel().catch(() => undefined) };
}

function nodeStream(body: AsyncIterable<Uint8Array | string>): ChunkSource {
  const stream = body[Symbol.asyncIterator]();
  return { next: () => stream.next(), stop: () => void Promise.resolve(stream.return?.()).catch(() => undefined) };
}

/** An answer read up to its bound: past it, the rest is not read and the answer is refused. */
class AnswerTooLarge extends Error {}
/**
 * Errors after which a GET is not sent again by the client: an answer too large (the same gateway would send the same
 * answer), and one that named a time to wait (`Retry-After`: sending again at once only prolongs the throttle).
 */
const notResent = new WeakSet<Error>();

/** The longest wait a `Retry-After` may name that is taken as said: a day. Longer is a day. */
const RETRY_AFTER_MAX_SECONDS = 86_400;

/**
 * The seconds a response's `Retry-After` names (a number of seconds or an HTTP date), or undefined when it has none
 * or none readable. A custom fetch's response may have no readable headers: that is "none".
 */
function retryAfterOf(response: Response, now: number): number | undefined {
  let value: unknown;
  try {
    value = response.headers?.get('retry-after');
  } catch {
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // An HTTP date starts with its day's name (`Sun, 06 Nov 1994 08:49:37 GMT`); anything else is no date.
  const seconds = /^\d{1,10}$/.test(text) ? Number(text) : /^[A-Za-z]/.test(text) ? Math.ceil((Date.parse(text) - now) / 1000) : NaN;
  if (Number.isNaN(seconds)) return undefined;
  return Math.min(Math.max(seconds, 0), RETRY_AFTER_MAX_SECONDS);
}

/**
 * The answer's text, read as it streams and refused as soon as it passes
 * `maxBytes` (or announces more in Content-Length), so no gateway, proxy or
 * man in the middle can make the client hold more than the bound: an endless
 * body is cut there too. A custom fetch whose body is not a web stream is read
 * as a Node stream, or whole as a last resort, and refused alike.
 */
async function readBounded(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  const announced = Number(response.headers?.get?.('content-length'));
  const body = response.body as (ReadableStream<Uint8Array> & AsyncIterable<Uint8Array>) | null | undefined;
  if (announced > maxBytes) {
    await Promise.resolve(body?.cancel?.()).catch(() => undefined);
    throw new AnswerTooLarge();
  }
  // The bytes are kept (never more than `maxBytes`) and decoded once at the end, by a decoder shared by every
  // request: a decoder made per answer and fed in stream mode cost a few µs of every status read.
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const take = (chunk: Uint8Array | string) => {
    const bytesOf = typeof chunk === 'string' ? utf8Encoder.encode(chunk) : chunk;
    bytes += bytesOf.byteLength;
    if (bytes > maxBytes) throw new AnswerTooLarge();
    chunks.push(bytesOf);
  };
  // A custom fetch may not tie its body to the signal: the timeout and the caller's abort stop the read here too, a web
  // stream cancelled, a Node stream (node-fetch) ended, so an endless body is not read on after the call gave up.
  const source =
    typeof body?.getReader === 'function'
      ? webStream(body)
      : typeof body?.[Symbol.asyncIterator] === 'function'
        ? nodeStream(body)
        : undefined;
  if (source) {
    signal.addEventListener('abort', source.stop);
    try {
      for (let chunk = await source.next(); !chunk.done; chunk = await source.next()) take(chunk.value);
      signal.throwIfAborted();
    } catch (error) {
      source.stop();
      throw error;
    } finally {
      signal.removeEventListener('abort', source.stop);
    }
  } else {
    take(await response.text());
  }
  if (chunks.length === 1) return utf8Decoder.decode(chunks[0]);
  const whole = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return utf8Decoder.decode(whole);
}

/**
 * `work`, or its end as soon as `signal` aborts: a custom fetch that ignores the signal, or a body whose `text()` never
 * settles, cannot outlast the timeout or the caller's abort.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop);
    work.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
  });
}

export function createTransport(config: TransportConfig): Transport {
  const base = config.baseUrl.replace(/\/+$/, '');
  const headers = {
    authorization: `Bearer ${config.accessToken}`,
    accept: 'application/json',
    'user-agent': config.userAgent,
  };
  const tokenOnly = createRedactor({ accessToken: config.accessToken });
  const redactorFor = (params: Readonly<Record<string, string>>) => {
    const others = otherSecretValues(params);
    return params['card.number'] || params['card.cvv'] || params.merchantTransactionId || others.length
      ? createRedactor({
          accessToken: config.accessToken,
          cardNumber: params['card.number'],
          cvv: params['card.cvv'],
          others,
          keep: [params.merchantTransactionId],
        })
      : tokenOnly;
  };

  // Own keys only: a brand spelled `constructor` names no entity.
  const entityOfBrand = (brand: string | undefined) =>
    (brand === undefined || config.entities === undefined || !Object.hasOwn(config.entities, brand)
      ? undefined
      : (config.entities as Readonly<Record<string, string | undefined>>)[brand]) ?? config.entityId;

  /** The entity of a call's options and brand (see `Transport.onEntity`), or the problems with the options. */
  function entityOf(options: RequestOptions | undefined, paymentBrand: string | undefined): string | GatewayParameterError[] {
    const problems = checkOptions(options);
    if (problems.length) return problems;
    if (options?.entityId !== undefined) return options.entityId;
    const brands = options?.brands;
    if (!brands) return entityOfBrand(paymentBrand);
    const entities = new Set(brands.map(entityOfBrand));
    if (entities.size > 1)
      return [
        {
          name: 'options.brands',
          value: brands.join(' '),
          message: `are on ${entities.size} different entities (createGatewayClient({ entities })): a checkout is on one entity, so make one per entity`,
        },
      ];
    const [entity] = entities;
    if (paymentBrand !== undefined && entityOfBrand(paymentBrand) !== entity)
      return [{ name: 'paymentBrand', value: paymentBrand, message: `is on another entity than options.brands (${brands.join(' ')})` }];
    return entity!;
  }

  function prepare(call: Call) {
    const redact = call.redact ?? redactorFor(call.params ?? {});
    const owned = Object.keys(call.params ?? {}).filter((name) => CLIENT_OWNED.test(name));
    const entityId = entityOf(call.options, call.method === 'POST' ? call.params?.paymentBrand : undefined);
    const refused = [...(typeof entityId === 'string' ? [] : entityId), ...owned.map((name) => ({ name, message: OWNED_MESSAGE }))];
    if (refused.length) throw validationError(refused, redact);
    const params: Record<string, string> = { ...call.params, entityId: entityId as string };
    if (call.method === 'POST' && config.testMode && params.testMode === undefined) params.testMode = config.testMode;
    if (call.operation) {
      // A missing field is `value: null` in the shared rules, as the platform writes it; here it has no value.
      const errors: GatewayParameterError[] = readParameterErrors(validateParameters(call.operation, params));
      const variant = variantOf(call.operation, params);
      if (call.programme && call.programme !== variant) {
        errors.push({
          name: 'programme',
          value: call.programme,
          message: `the fields sent make this a ${variant} (merchant.mcc 7995: winnings; MASTER: send payout; recipient data: funding or transfer)`,
        });
      }
      // Money moves only in amounts above 0.00: the gateway refuses a well-formed 0.00 after a round trip (`100.550.300`).
      const { amount, paymentType } = params;
      if (!errors.length && amount !== undefined && amountTooLow(paymentType, amount))
        errors.push({ name: 'amount', value: amount, message: `must be above 0.00 for a ${paymentType}: no money moves in 0.00` });
      if (errors.length) throw validationError(errors, redact);
    }
    return { params, redact };
  }

  async function attempt(
    call: Call,
    url: string,
    body: URLSearchParams | undefined,
    redact: Redactor,
    merchantTransactionId: string | undefined,
  ) {
    const signal = call.options?.signal;
    const timeoutMs = call.options?.timeoutMs ?? config.timeoutMs;
    const maxBytes = call.maxBytes ?? ANSWER_MAX_BYTES;
    const where = `${call.method} ${call.path}`;
    // One controller for the timeout and the caller's signal: cheaper per request than AbortSignal.timeout/any.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const cancel = signal && (() => controller.abort(signal.reason));
    if (cancel) {
      if (signal.aborted) cancel();
      signal.addEventListener('abort', cancel);
    }
    let status = 0;
    let retryAfterSeconds: number | undefined;
    let text: string;
    try {
      const exchange = async () => {
        const response = await config.fetch(url, {
          method: call.method,
          headers: body ? { ...headers, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : headers,
          body,
          signal: controller.signal,
          redirect: 'error',
        });
        status = response.status;
        retryAfterSeconds = retryAfterOf(response, config.now());
        return readBounded(response, maxBytes, controller.signal);
      };
      text = await untilAborted(exchange(), controller.signal);
    } catch (failure) {
      if (failure instanceof AnswerTooLarge) {
        // A payment POST whose answer is refused is reconciled like any lost answer: the payment may exist.
        const error = new GatewayNetworkError(
          `The gateway's answer is larger than the ${maxBytes} bytes such an answer can take; it was not read (${where})`,
          { httpStatus: status, redact, merchantTransactionId },
        );
        notResent.add(error);
        throw error;
      }
      // A custom fetch may put anything in its error; the error scrubs it with this request's secrets.
      const details = { cause: failure, redact, merchantTransactionId };
      if (timedOut) throw new GatewayTimeoutError(`No answer from the gateway within ${timeoutMs} ms (${where})`, details);
      throw new GatewayNetworkError(`The connection to the gateway failed (${where})`, details);
    } finally {
      clearTimeout(timer);
      if (cancel) signal.removeEventListener('abort', cancel);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: a proxy's error page or a cut body, handled below.
    }
    // This request's own secrets are scrubbed from every string (a copy only when the text holds one), so nothing built from the
    // answer can hold them. Secrets recognised by shape are masked in errors only: a returned payment keeps the merchant's references.
    // Nested deeper than any answer of the platform: not read further (every walk over it would overflow the stack).
    const tooDeep = nestsDeeperThan(parsed, ANSWER_MAX_DEPTH);
    const waited = retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
    if (isGatewayAnswer(parsed) && !tooDeep) {
      if (redact.mayHold(text)) return { status, body: redact.deep(parsed, '', true), ...waited };
      answerTexts.set(parsed, text);
      return { status, body: parsed, ...waited };
    }
    const unreadable = tooDeep ? `with an answer nested deeper than ${ANSWER_MAX_DEPTH} levels` : 'without a readable result';
    const error = new GatewayNetworkError(`The gateway answered HTTP ${status} ${unreadable} (${where})`, {
      httpStatus: status,
      redact,
      merchantTransactionId,
    });
    if (retryAfterSeconds !== undefined) notResent.add(error);
    throw error;
  }

  /** `attempt`, reported to the hooks when the client has any (nothing is masked otherwise). */
  async function observed(
    call: Call,
    url: string,
    body: URLSearchParams | undefined,
    redact: Redactor,
    params: Readonly<Record<string, string>>,
    number: number,
  ) {
    const { onRequest, onResponse } = config;
    if (!onRequest && !onResponse) return attempt(call, url, body, redact, params.merchantTransactionId);
    const request: GatewayRequestEvent = Object.freeze({
      method: call.method,
      path: redact(call.path),
      attempt: number,
      params: maskedParams(params, redact),
    });
    notify(onRequest, request);
    const started = performance.now();
    const ended = (fields: Omit<GatewayResponseEvent, keyof GatewayRequestEvent | 'durationMs'>) =>
      notify(onResponse, Object.freeze({ ...request, durationMs: performance.now() - started, ...fields }));
    try {
      const answer = await attempt(call, url, body, redact, params.merchantTransactionId);
      ended({ httpStatus: answer.status, resultCode: answer.body.result.code });
      return answer;
    } catch (error) {
      const { httpStatus, name } = error as Partial<GatewayError>;
      ended({
        ...(typeof httpStatus === 'number' ? { httpStatus } : {}),
        failure: error instanceof GatewayError ? name : 'GatewayNetworkError',
      });
      throw error;
    }
  }

  return {
    entityId: config.entityId,
    onEntity(options, paymentBrand) {
      const entityId = entityOf(options, paymentBrand);
      if (typeof entityId !== 'string') throw validationError(entityId, tokenOnly);
      return { ...options, entityId };
    },
    testMode: config.testMode,
    now: config.now,
    reconcileDelaysMs: config.reconcileDelaysMs,
    redactorFor,
    validate: (call) => void prepare(call),
    async send<T extends { result: GatewayResult }>(call: Call): Promise<Answer<T>> {
      const { params, redact } = prepare(call);
      let body: URLSearchParams | undefined;
      let url = base + call.path;
      if (call.method === 'POST') body = new URLSearchParams(params);
      else url += `?${new URLSearchParams(params)}`;
      const retries = call.method === 'GET' ? (call.retries ?? config.maxNetworkRetries) : 0;
      for (let tries = 0; ; tries++) {
        try {
          const answer = await observed(call, url, body, redact, params, tries + 1);
          // A 5xx that names a time to wait is the caller's to send again, then.
          if (answer.status >= 500 && tries < retries && answer.retryAfterSeconds === undefined)
            throw new GatewayNetworkError(`HTTP ${answer.status}`, { httpStatus: answer.status });
          return answer as Answer<T>;
        } catch (error) {
          const retryable = error instanceof GatewayNetworkError && !notResent.has(error) && !call.options?.signal?.aborted;
          if (!retryable || tries >= retries)
            throw error instanceof GatewayError
              ? error
              : new GatewayNetworkError(`Unexpected failure (${call.method} ${call.path})`, { cause: error, redact });
          await sleep(backoffMs(tries), call.options?.signal);
        }
      }
    },
  };
}
