/**
 * Issue 12, class 7: a bug left in the sandbox costs one answer, never the
 * process. Bugs are planted in a running sandbox's state; each request that
 * meets one gets HTTP 500 `800.800.800` in the gateway's shape (or, when even
 * that cannot be built, a fixed one), and the next request is served.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { cardPayment } from '../../src/sandbox/fixtures.js';
import { createSandboxServer } from '../../src/sandbox/node/server.js';
import { createSandboxState, type SandboxState } from '../../src/sandbox/core/state.js';
import { NODE_RUNTIME } from '../../src/sandbox/node/runtime.js';
import { assertWellFormed, rawExchange } from './sandbox-support.js';

const TOKEN = 'guard-test-token';
const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
let state: SandboxState;
let port: number;
const errors: unknown[] = [];
let close: () => void;

before(async () => {
  state = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME });
  const server = createSandboxServer(state, (error) => errors.push(error));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  state.base = `http://127.0.0.1:${port}`;
  close = () => {
    server.closeAllConnections();
    server.close();
  };
});
after(() => close());

const pay = () =>
  fetch(`${state.base}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: new URLSearchParams({ entityId: ENTITY, ...cardPayment() }),
  });

/** Replaces `object[name]` by a function that throws, for one test. */
function plantBug<T extends object>(object: T, name: keyof T): () => void {
  const original = object[name];
  Object.defineProperty(object, name, {
    configurable: true,
    value: () => {
      throw new TypeError('planted bug');
    },
  });
  return () => Object.defineProperty(object, name, { configurable: true, writable: true, value: original });
}

describe('a bug answers HTTP 500 and the sandbox keeps serving (issue 12, class 7)', () => {
  it('a bug in a route answers 500 800.800.800 and is reported', async () => {
    const restore = plantBug(state.store, 'addPayment');
    try {
      const answer = await pay();
      assert.equal(answer.status, 500);
      assert.equal(((await answer.json()) as { result: { code: string } }).result.code, '800.800.800');
    } finally {
      restore();
    }
    assert.ok(errors.some((error) => (error as Error).message === 'planted bug'));
    assert.equal((await pay()).status, 200);
  });

  it('a bug while building even the error answer still answers 500 with a fixed body', async () => {
    const restore = plantBug(state.store.clock, 'now');
    try {
      const { responses } = await rawExchange(
        port,
        `GET /v1/payments/x?entityId=${ENTITY} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
      );
      assert.equal(responses[0]?.status, 500);
      assert.equal(assertWellFormed(responses[0], 'GET', 'clock bug'), '800.800.800');
    } finally {
      restore();
    }
    assert.equal((await pay()).status, 200);
  });

  it('a bug in the log answers 500 and the next request is logged again', async () => {
    const restore = plantBug(state.log, 'add');
    try {
      assert.equal((await pay()).status, 500);
    } finally {
      restore();
    }
    assert.equal((await pay()).status, 200);
    assert.equal(state.log.entries().at(-1)?.status, 200);
  });

  it('requests the HTTP parser refuses answer in the gateway shape and close only their connection', async () => {
    for (const [request, status] of [
      ['FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(20_000)}\r\n\r\n`, 431],
      ['GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 400],
      ['GET /\u0000 HTTP/1.1\r\n\r\n', 400],
    ] as const) {
      const { responses } = await rawExchange(port, request);
      assert.equal(responses[0]?.status, status, JSON.stringify(request.slice(0, 40)));
      assertWellFormed(responses[0], 'GET', JSON.stringify(request.slice(0, 40)));
    }
    assert.equal((await pay()).status, 200);
  });
});
