/**
 * The demo merchant as its model tests run it: one real sandbox on loopback,
 * and any number of merchant instances over one shop database and one status
 * store, as instances behind a load balancer share them. An instance can be
 * restarted (a new process over the same database and store) at any time.
 */
import { createMemoryStatusStore, isApproved, type StatusStore } from '../../src/server/index.js';
import { createDemoDatabase, type DemoDatabase } from '../../demo/server/database.js';
import { startMerchant, type RunningMerchant } from '../../demo/server/merchant.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/**
 * Short waits: a lost answer costs a second or two, not a minute. The models inject errors, never hangs, so the time
 * limit is only a guard; 400 ms was once reached by a real answer on a loaded 2-core machine.
 */
export const PATIENCE = { timeoutMs: 5000, maxNetworkRetries: 0, reconcileDelaysMs: [20, 40] } as const;

export interface Answer {
  readonly status: number;
  readonly body: Record<string, any>;
}

export class Shop {
  readonly database: DemoDatabase = createDemoDatabase();
  readonly store: StatusStore;
  readonly notificationSecret: string | undefined;
  readonly instances: RunningMerchant[] = [];

  constructor(
    readonly sandbox: Sandbox,
    /** The status store the instances share (a new memory store unless given: Redis in the Redis runs). */
    options: { store?: StatusStore; notificationSecret?: string } = {},
  ) {
    this.store = options.store ?? createMemoryStatusStore();
    this.notificationSecret = options.notificationSecret;
  }

  async #start(): Promise<RunningMerchant> {
    return startMerchant({
      port: 0,
      gateway: { baseUrl: this.sandbox.url, accessToken: this.sandbox.tokens[0]!, entityId: this.sandbox.entities[0]! },
      advanceGatewayClock: (seconds) => this.sandbox.clock.advance(seconds),
      gatewayNow: () => this.sandbox.clock.now().getTime(),
      statusStore: this.store,
      database: this.database,
      client: PATIENCE,
      ...(this.notificationSecret ? { notificationSecret: this.notificationSecret } : {}),
    });
  }

  /** Starts `count` instances; notifications go to the first. */
  async open(count: number): Promise<this> {
    for (let index = 0; index < count; index++) this.instances.push(await this.#start());
    if (this.notificationSecret)
      this.sandbox.notifications.configure({ url: `${this.instances[0]!.url}/api/notifications`, secret: this.notificationSecret });
    return this;
  }

  /** Instance `index` stops (its connections cut) and a new process takes its place over the same database and store. */
  async restart(index: number): Promise<void> {
    await this.instances[index]!.close();
    this.instances[index] = await this.#start();
    if (index === 0 && this.notificationSecret)
      this.sandbox.notifications.configure({ url: `${this.instances[0]!.url}/api/notifications`, secret: this.notificationSecret });
  }

  async close(): Promise<void> {
    for (const instance of this.instances.splice(0)) await instance.close();
  }

  /** A request to instance `index`, as a page sends it; with `idempotencyKey`, under that key. */
  async call(index: number, method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<Answer> {
    const response = await fetch(`${this.instances[index % this.instances.length]!.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }
}

/** A call to the sandbox as the merchant's server makes it (Bearer token, entityId). */
export async function gatewayCall(
  sandbox: Sandbox,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string> = {},
): Promise<Answer> {
  const form = new URLSearchParams({ entityId: sandbox.entities[0]!, ...params });
  const response = await fetch(method === 'GET' ? `${sandbox.url}${path}?${form}` : `${sandbox.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.tokens[0]}`,
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(method === 'POST' ? { body: form } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** Every payment the gateway holds under `merchantTransactionId` (none: an empty list). */
export async function paymentsOf(sandbox: Sandbox, merchantTransactionId: string): Promise<Record<string, any>[]> {
  const { body } = await gatewayCall(sandbox, 'GET', '/v3/query', { merchantTransactionId });
  return (body.payments as Record<string, any>[] | undefined) ?? [];
}

export const approved = (payment: { result?: { code?: string } }) => isApproved(payment.result?.code ?? '');

/** The same day `months` later (the last day of a shorter month), in UTC: when a subscription's months fall due. */
export function monthsLater(ms: number, months: number): number {
  const date = new Date(ms);
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target.getTime();
}
