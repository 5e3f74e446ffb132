/**
 * The sandbox's notifications (webhooks), as the platform sends them: one per
 * payment created or changed and per registration created or deleted,
 * AES-256-GCM encrypted with the listener's secret (hex body, hex IV and tag
 * headers), POSTed to the merchant's URL and retried with backoff until it
 * answers 2xx. Retries are due on the sandbox clock, so a test moves the clock
 * instead of waiting. Memory is bounded: a fixed number of deliveries and of
 * payload bytes are kept, oldest dropped first.
 */
import { bytesOfHex, hexOf, sha256Hex, utf8Bytes } from '../bytes.js';
import type { Payment } from '../../contract/api-answers.js';
import type { PaymentNotification, PaymentNotificationFields, RegistrationNotification } from '../../contract/notification-payloads.js';
import { TIMER_MAX_MS } from '../../contract/limits.js';
import { redactByShape } from '../../contract/redaction.js';
import { approvalCode } from '../gateway/payments.js';
import { notificationFields, paymentBody } from './payment-answer.js';
import { registrationBody } from '../gateway/registrations.js';
import { envelope, withoutMilliseconds } from './envelope.js';
import { result } from '../gateway/store.js';
import { randomIds, type SandboxClock, type StoreChange } from '../gateway/store.js';

export interface NotificationOptions {
  /** Where the merchant listens (http or https). */
  url: string;
  /** The listener's secret: 64 hex characters. Generated when absent (read it from `sandbox.notifications.secret`). */
  secret?: string;
  /** How long one delivery attempt may take before it counts as failed (default 5000 ms). */
  timeoutMs?: number;
}

/** Waits after each failed attempt, in seconds of the sandbox clock: 8 attempts over about three hours, then the delivery has failed. */
export const NOTIFICATION_RETRY_DELAYS_SECONDS: readonly number[] = [10, 30, 60, 300, 900, 3600, 7200];
/** How many deliveries, and how many bytes of their payloads, are kept (pending ones included). */
export const NOTIFICATION_LIMITS = { deliveries: 1000, bytes: 8 * 1024 * 1024 } as const;
/** Attempts one delivery remembers for the log: a few resends' worth, the oldest dropped. */
const ATTEMPTS_KEPT = 32;

export interface NotificationAttempt {
  /** ISO time on the sandbox clock. */
  readonly at: string;
  /** The merchant's HTTP status; 0 when no answer came (connection failed, time-out). */
  readonly status: number;
  readonly error?: string;
}

/** One notification as the control log shows it: what it is about and how its delivery went, never its payload or the secret. */
export interface NotificationDelivery {
  readonly id: string;
  readonly type: 'PAYMENT' | 'REGISTRATION';
  readonly action?: 'CREATED' | 'DELETED';
  /** The payment or registration it is about. */
  readonly subjectId: string;
  /** The payment's result code when it was sent. */
  readonly resultCode?: string;
  /** The listener's URL, a credential in its query masked (it is sent as given). */
  readonly url: string;
  /** `pending` (due now or at `nextAttemptAt`), `delivered` (a 2xx came), `failed` (every retry failed: resend it from the control). */
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly createdAt: string;
  readonly nextAttemptAt?: string;
  readonly attempts: readonly NotificationAttempt[];
}

/** What the notifier keeps of a notification: what the log shows of it, its payload and its retry schedule. */
interface Delivery extends Pick<NotificationDelivery, 'id' | 'type' | 'action' | 'subjectId' | 'resultCode' | 'url'> {
  readonly plaintext: string;
  /** Its UTF-8 bytes, counted against the notifier's byte bound. */
  readonly bytes: number;
  /** The secret and timeout of the listener it was made for: a later `configure` names another listener. */
  readonly secret: string;
  readonly timeoutMs: number;
  /** Resent while an attempt was in flight: sent again once that attempt ends, whatever it gave. */
  again?: boolean;
  readonly createdAt: number;
  state: 'pending' | 'delivered' | 'failed';
  dueAt: number;
  /** Failures since it was created or last resent: the retry budget. */
  failures: number;
  readonly attempts: NotificationAttempt[];
}

/** Makes a delivery due at `now` with a fresh retry budget: what a resend does. */
function dueAgain(delivery: Delivery, now: number): void {
  Object.assign(delivery, { state: 'pending', dueAt: now, failures: 0 });
}

/** The AES-GCM tag's length: the platform's 128 bits, which Web Crypto appends to the ciphertext. */
const TAG_BYTES = 16;

/** The encrypted form the platform sends: hex body, hex IV and tag (Web Crypto, so it runs in every runtime). */
export async function encryptNotification(
  plaintext: string,
  secretHex: string,
  iv: Uint8Array,
): Promise<{ body: string; iv: string; tag: string }> {
  const key = await crypto.subtle.importKey('raw', bytesOfHex(secretHex) as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt']);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer> },
      key,
      utf8Bytes(plaintext) as Uint8Array<ArrayBuffer>,
    ),
  );
  // Upper-case hex, as the platform writes body, IV and tag.
  return {
    body: hexOf(sealed.subarray(0, -TAG_BYTES)).toUpperCase(),
    iv: hexOf(iv).toUpperCase(),
    tag: hexOf(sealed.subarray(-TAG_BYTES)).toUpperCase(),
  };
}

/** Checks notification options; answers them complete (a secret generated when absent) or throws a RangeError naming the option. */
export function checkNotificationOptions(
  options: NotificationOptions,
  randomBytes: (size: number) => Uint8Array,
): Required<NotificationOptions> {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new RangeError('notifications.url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RangeError('notifications.url must be an absolute http or https URL');
  // fetch refuses a URL with credentials, so none would be delivered; and the control log would show them.
  if (url.username || url.password) throw new RangeError('notifications.url must not hold a user name or password');
  const secret = options.secret ?? hexOf(randomBytes(32));
  if (!/^[0-9a-fA-F]{64}$/.test(secret)) throw new RangeError('notifications.secret must be 64 hex characters (a 256-bit key)');
  const timeoutMs = options.timeoutMs ?? 5000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 120_000)
    throw new RangeError('notifications.timeoutMs must be 1 to 120000');
  return { url: url.href, secret: secret.toLowerCase(), timeoutMs };
}

/** The named fields of `fields`, in the order named: the platform's notification lists the payment's identity first. */
const pick = <Fields extends object, Name extends keyof Fields>(fields: Fields, names: readonly Name[]): Pick<Fields, Name> =>
  Object.fromEntries(names.filter((name) => name in fields).map((name) => [name, fields[name]])) as Pick<Fields, Name>;

/** The 32 hex characters of a notification's `ndc`: the platform's request id, here derived from the payment and the time (so seeded runs repeat). */
const requestHex = (paymentId: string, now: Date) => sha256Hex(`${paymentId}@${now.getTime()}`).slice(0, 32);

/** The plaintext the platform encrypts: `{type, action?, payload}`, the payload shaped like the API's answer and scrubbed like one. */
function plaintextOf(change: StoreChange, now: Date): { text: string; subjectId: string; resultCode?: string } {
  if (change.type === 'PAYMENT') {
    const { payment } = change;
    // `ndc` is the checkout for a widget payment, else `<entityId>_<32 hex>`, never the payment id; a notification also
    // carries the presentation amount and currency, and the fields the API's answer leaves out.
    // The transaction's time to the second, as every recorded delivery writes it (a read-back writes milliseconds).
    const { amount, currency, timestamp, ...rest } = paymentBody(payment);
    const body: Payment & PaymentNotificationFields = {
      ...pick(rest, ['id', 'referencedId', 'registrationId', 'paymentType', 'paymentBrand']),
      amount,
      currency,
      presentationAmount: amount,
      presentationCurrency: currency,
      ...rest,
      ...notificationFields(payment),
      timestamp: withoutMilliseconds(timestamp),
    };
    const notification: PaymentNotification = {
      type: 'PAYMENT',
      payload: redactByShape.deep(envelope(body, now, payment.checkoutId ?? `${payment.entityId}_${requestHex(payment.id, now)}`)),
    };
    return { text: JSON.stringify(notification), subjectId: payment.id, resultCode: payment.result.code };
  }
  const { registration, action } = change;
  const notification: RegistrationNotification = {
    type: 'REGISTRATION',
    action,
    payload: redactByShape.deep(
      envelope(registrationBody(registration, result(approvalCode(registration.testMode))), now, registration.id),
    ),
  };
  return { text: JSON.stringify(notification), subjectId: registration.id };
}

const describeFailure = (error: unknown, timedOut: boolean, timeoutMs: number): string => {
  if (timedOut) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  return `connection failed${typeof cause?.code === 'string' ? ` (${cause.code})` : ''}`;
};

/**
 * Delivers the store's changes to the configured URL, one at a time in the
 * order they happened. Unconfigured, it ignores them.
 */
export class Notifier {
  #options: Required<NotificationOptions> | undefined;
  readonly #deliveries: Delivery[] = [];
  #bytes = 0;
  #running: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: AbortController | undefined;
  /** The delivery whose attempt is in flight (`#inFlight` stops it). */
  #attempting: Delivery | undefined;
  #closed = false;

  readonly #randomId: () => string;

  constructor(
    private readonly clock: SandboxClock,
    private readonly randomBytes: (size: number) => Uint8Array,
    options?: NotificationOptions,
  ) {
    this.#randomId = randomIds(randomBytes);
    if (options) this.configure(options);
  }

  /** The listener's URL as it is shown (printed, answered by the control log): a credential in its query masked. */
  get url(): string | undefined {
    return this.#options && redactByShape(this.#options.url);
  }
  get secret(): string | undefined {
    return this.#options?.secret;
  }

  /** Where later notifications go, and with which secret; pending ones keep the address and secret they were made for. */
  configure(options: NotificationOptions): void {
    this.#options = checkNotificationOptions(options, this.randomBytes);
  }

  /** Called by the store for every change (payment created or changed, registration created or deleted). */
  notify(change: StoreChange): void {
    if (!this.#options || this.#closed) return;
    const now = this.clock.nowMs();
    const { text, subjectId, resultCode } = plaintextOf(change, new Date(now));
    const bytes = utf8Bytes(text).length;
    this.#deliveries.push({
      id: this.#randomId(),
      type: change.type,
      ...(change.type === 'REGISTRATION' ? { action: change.action } : {}),
      subjectId,
      ...(resultCode ? { resultCode } : {}),
      url: this.#options.url,
      secret: this.#options.secret,
      timeoutMs: this.#options.timeoutMs,
      plaintext: text,
      bytes,
      createdAt: now,
      state: 'pending',
      dueAt: now,
      failures: 0,
      attempts: [],
    });
    this.#bytes += bytes;
    this.#bound();
    this.pump();
  }

  /** The deliveries, oldest first, as the control log shows them. */
  list(): NotificationDelivery[] {
    return this.#deliveries.map((delivery) => ({
      id: delivery.id,
      type: delivery.type,
      ...(delivery.action ? { action: delivery.action } : {}),
      subjectId: delivery.subjectId,
      ...(delivery.resultCode ? { resultCode: delivery.resultCode } : {}),
      url: redactByShape(delivery.url),
      state: delivery.state,
      createdAt: new Date(delivery.createdAt).toISOString(),
      ...(delivery.state === 'pending' ? { nextAttemptAt: new Date(delivery.dueAt).toISOString() } : {}),
      attempts: delivery.attempts.map((attempt) => ({ ...attempt })),
    }));
  }

  /** Sends one again now, whatever its state, with a fresh retry budget; false when no delivery has this id. */
  resend(id: string): boolean {
    const delivery = this.#deliveries.find((candidate) => candidate.id === id);
    if (!delivery || this.#closed) return false;
    if (delivery === this.#attempting) {
      delivery.again = true;
      return true;
    }
    dueAgain(delivery, this.clock.nowMs());
    this.pump();
    return true;
  }

  /** Resolves once every delivery due now has been attempted (those due later wait for the clock). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Starts the deliveries that are due; called on every change, on clock moves and by a timer for the next due one. */
  pump(): void {
    if (this.#running || this.#closed) return;
    this.#running = this.#run().finally(() => {
      this.#running = undefined;
      this.#schedule();
    });
  }

  /** Forgets every delivery (the sandbox's reset); the configuration stays. */
  clear(): void {
    this.#inFlight?.abort();
    this.#deliveries.length = 0;
    this.#bytes = 0;
  }

  /** Stops for good: the timer and any attempt in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#inFlight?.abort();
    await this.idle();
  }

  #due(): Delivery | undefined {
    const now = this.clock.nowMs();
    let next: Delivery | undefined;
    for (const delivery of this.#deliveries) {
      if (delivery.state === 'pending' && delivery.dueAt <= now && (!next || delivery.dueAt < next.dueAt)) next = delivery;
    }
    return next;
  }

  async #run(): Promise<void> {
    for (let delivery = this.#due(); delivery && !this.#closed; delivery = this.#due()) await this.#attempt(delivery);
  }

  async #attempt(delivery: Delivery): Promise<void> {
    const { secret, timeoutMs } = delivery;
    // Set before encrypting, so a reset or close meanwhile stops this attempt before anything is sent.
    const controller = new AbortController();
    this.#inFlight = controller;
    this.#attempting = delivery;
    const { body, iv, tag } = await encryptNotification(delivery.plaintext, secret, this.randomBytes(12));
    if (controller.signal.aborted) {
      this.#inFlight = this.#attempting = undefined;
      return;
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let status = 0;
    let error: string | undefined;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-initialization-vector': iv, 'x-authentication-tag': tag },
        body,
        signal: controller.signal,
        redirect: 'manual',
      });
      status = response.status;
      // The merchant's answer body means nothing here; not reading it frees the connection.
      await response.body?.cancel().catch(() => {});
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (failure) {
      error = describeFailure(failure, timedOut, timeoutMs);
    } finally {
      clearTimeout(timer);
      this.#inFlight = this.#attempting = undefined;
    }
    const now = this.clock.nowMs();
    delivery.attempts.push({ at: new Date(now).toISOString(), status, ...(error ? { error } : {}) });
    if (delivery.attempts.length > ATTEMPTS_KEPT) delivery.attempts.splice(0, delivery.attempts.length - ATTEMPTS_KEPT);
    if (delivery.again) {
      delete delivery.again;
      return dueAgain(delivery, now);
    }
    if (delivery.state !== 'pending') return;
    if (!error) {
      delivery.state = 'delivered';
      return;
    }
    const wait = NOTIFICATION_RETRY_DELAYS_SECONDS[delivery.failures++];
    if (wait === undefined) delivery.state = 'failed';
    else delivery.dueAt = now + wait * 1000;
  }

  /** A real timer for the next delivery due later, so retries also happen while nobody moves the clock. */
  #schedule(): void {
    clearTimeout(this.#timer);
    if (this.#closed) return;
    const pending = this.#deliveries.filter((delivery) => delivery.state === 'pending');
    if (!pending.length) return;
    const wait = Math.max(0, Math.min(...pending.map((delivery) => delivery.dueAt)) - this.clock.nowMs());
    this.#timer = setTimeout(() => this.pump(), Math.min(wait, TIMER_MAX_MS));
    this.#timer.unref?.();
  }

  /** Drops the oldest deliveries, finished ones first, until both limits hold. */
  #bound(): void {
    const over = () => this.#deliveries.length > NOTIFICATION_LIMITS.deliveries || this.#bytes > NOTIFICATION_LIMITS.bytes;
    for (const finishedOnly of [true, false]) {
      for (let index = 0; index < this.#deliveries.length && over();) {
        const delivery = this.#deliveries[index]!;
        if (finishedOnly && delivery.state === 'pending') {
          index++;
          continue;
        }
        this.#deliveries.splice(index, 1);
        this.#bytes -= delivery.bytes;
      }
    }
  }
}
