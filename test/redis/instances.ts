/** Starts merchant instances (test/redis/instance.ts) as child processes and asks them for shopper returns, for the tests and the benchmark. */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { FulfilRequest, ReturnOutcome, ReturnsRequest } from './instance.js';

export interface Instance {
  /** `bare`: a bare fetch of each status instead of a shopper return (the benchmark's baseline). */
  returns(checkouts: readonly string[], perCheckout: number, bare?: boolean): Promise<ReturnOutcome[]>;
  /** How often this instance's fulfilment handler ran for each payment id, and each call's outcome. */
  fulfil(paymentIds: readonly string[], perPayment: number): Promise<{ runs: Record<string, number>; outcomes: string[] }>;
  stop(): Promise<void>;
}

let sequence = 0;

export async function startInstance(
  sandbox: Sandbox,
  redis?: { url: string; client: 'redis' | 'ioredis'; prefix?: string },
): Promise<Instance> {
  const child: ChildProcess = fork(new URL('./instance.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      SANDBOX_URL: sandbox.url,
      SANDBOX_TOKEN: sandbox.tokens[0],
      SANDBOX_ENTITY: sandbox.entities[0],
      REDIS_URL: redis?.url ?? '',
      REDIS_CLIENT: redis?.client ?? '',
      REDIS_PREFIX: redis?.prefix ?? 'gw-elements:',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [first] = (await Promise.race([once(child, 'message'), once(child, 'exit').then(() => ['exited'])])) as unknown[];
  if (first !== 'ready') throw new Error('a merchant instance did not start');
  function ask<T>(request: ReturnsRequest | FulfilRequest): Promise<T> {
    const answered = new Promise<T>((resolve) => {
      const listen = (message: T & { id: number }) => {
        if (message.id !== request.id) return;
        child.off('message', listen);
        resolve(message);
      };
      child.on('message', listen);
    });
    child.send(request);
    return answered;
  }
  return {
    async returns(checkouts, perCheckout, bare = false) {
      const id = ++sequence;
      return (await ask<{ outcomes: ReturnOutcome[] }>({ id, checkouts, perCheckout, bare } satisfies ReturnsRequest)).outcomes;
    },
    async fulfil(paymentIds, perPayment) {
      const id = ++sequence;
      return ask({ id, fulfil: paymentIds, perPayment } satisfies FulfilRequest);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send('exit');
      await exited;
    },
  };
}
