/**
 * The Redis store's TypeScript half against a scripted client: what it sends
 * (keys, prefix, arguments), how it reads each reply, the script cache after a
 * restart, time limits, and the local copy of final values. The Lua half runs
 * against a real redis-server in test/server/coordination/redis-status-store.test.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, mock, test } from 'node:test';
import {
  createRedisStatusStore,
  GatewayValidationError,
  STATUS_STORE_DEFAULTS,
  StatusStoreUnavailableError,
} from '../../../src/server/index.js';

type Reply = unknown | ((args: string[]) => unknown);

/** An ioredis-shaped client answering each command from `replies` in turn, recording every command. */
function scriptedClient(...replies: Reply[]) {
  const sent: string[][] = [];
  const client = {
    async call(command: string, ...args: string[]) {
      sent.push([command, ...args]);
      const reply = replies.length > 1 ? replies.shift() : replies[0];
      const value = typeof reply === 'function' ? (reply as (args: string[]) => unknown)([command, ...args]) : reply;
      if (value instanceof Error) throw value;
      return value;
    },
  };
  return { client, sent };
}

const claimRequest = (now = 1_000) => ({ token: 'token-1', now, until: now + 10_000 });
const failure = async (promise: unknown) =>
  Promise.resolve(promise).then(
    () => assert.fail('expected a failure'),
    (error: unknown) => error,
  );

afterEach(() => mock.timers.reset());

describe('the Redis store over any client', () => {
  test('claim sends one EVALSHA on the prefixed key and the epoch marker, with every argument in its place', async () => {
    const { client, sent } = scriptedClient(['claimed', '900', '0']);
    const store = createRedisStatusStore({ client, prefix: 'shop:', ttlMs: 5_000, transientMs: 7_000 });
    assert.deepEqual(await store.claim('k', { ...claimRequest(), limit: { count: 2, windowMs: 60_000 }, answerOf: 'other' }), {
      status: 'claimed',
      since: 900,
    });
    assert.equal(sent.length, 1);
    const [command, sha, keyCount, key, epoch, ...args] = sent[0]!;
    assert.deepEqual([command, keyCount, key, epoch], ['EVALSHA', '2', 'shop:k', 'shop:epoch']);
    assert.match(sha!, /^[0-9a-f]{40}$/);
    assert.deepEqual(args, ['token-1', '1000', '11000', '2', '60000', 'other', '5000', '7000']);
  });

  test('without a limit, answerOf or options: empty arguments, the default prefix and lifetimes', async () => {
    const { client, sent } = scriptedClient(['claimed', '900', '1']);
    const store = createRedisStatusStore({ client });
    assert.deepEqual(await store.claim('k', claimRequest()), { status: 'claimed', since: 900, unanswered: true });
    assert.deepEqual(sent[0]!.slice(3), [
      'gw-elements:k',
      'gw-elements:epoch',
      'token-1',
      '1000',
      '11000',
      '',
      '',
      '',
      String(STATUS_STORE_DEFAULTS.ttlMs),
      String(STATUS_STORE_DEFAULTS.transientMs),
    ]);
  });

  test('each reply of the claim script is read into its answer; Buffers read as strings', async () => {
    const cases: [unknown[], unknown][] = [
      [['final', '1', 'value-f'], { status: 'final', value: 'value-f' }],
      [['answer', '1', 'value-a'], { status: 'answer', value: 'value-a' }],
      [['busy', '1', 'holder-token', '12345'], { status: 'busy', holder: 'holder-token', until: 12345 }],
      [['limited', '1', '61000'], { status: 'limited', retryAt: 61000 }],
      [[Buffer.from('claimed'), Buffer.from('42'), Buffer.from('0')], { status: 'claimed', since: 42 }],
    ];
    for (const [reply, answer] of cases)
      assert.deepEqual(await createRedisStatusStore({ client: scriptedClient(reply).client }).claim('k', claimRequest()), answer);
  });

  test('a reply of no known shape is StatusStoreUnavailableError naming it, never a claim', async () => {
    for (const reply of [['granted', '1'], 'OK', null]) {
      const error = await failure(createRedisStatusStore({ client: scriptedClient(reply).client }).claim('k', claimRequest()));
      assert.ok(error instanceof StatusStoreUnavailableError, String(error));
      assert.match((error as Error).message, /Redis answered the claim with/);
    }
    const long = await failure(createRedisStatusStore({ client: scriptedClient(['x'.repeat(500)]).client }).claim('k', claimRequest()));
    assert.equal(
      (long as Error).message,
      `Redis answered the claim with ${JSON.stringify(['x'.repeat(500)]).slice(0, 100)}`,
      'at most 100 characters of it',
    );
  });

  test('a Redis that lost its script cache gets the script itself once (EVAL), with the same keys and arguments', async () => {
    const { client, sent } = scriptedClient(new Error('NOSCRIPT No matching script. Please use EVAL.'), ['claimed', '5', '0']);
    assert.equal((await createRedisStatusStore({ client }).claim('k', claimRequest())).status, 'claimed');
    assert.deepEqual(
      sent.map(([command]) => command),
      ['EVALSHA', 'EVAL'],
    );
    assert.match(sent[1]![1]!, /redis\.call\('HMGET'/);
    assert.deepEqual(sent[1]!.slice(2), sent[0]!.slice(2));
  });

  test('any other client failure is StatusStoreUnavailableError with the failure as cause and a retry hint, and no second try', async () => {
    const cause = new Error('ECONNRESET');
    const { client, sent } = scriptedClient(cause);
    const error = await failure(createRedisStatusStore({ client }).claim('k', claimRequest()));
    assert.ok(error instanceof StatusStoreUnavailableError);
    assert.equal(error.message, 'Redis could not be reached');
    assert.equal(((error as StatusStoreUnavailableError).cause as Error).message, cause.message);
    assert.equal((error as StatusStoreUnavailableError).retryAfterSeconds, 1);
    assert.equal(sent.length, 1);
  });

  test('an error reply of Redis is named by its kind (a full Redis under noeviction: OOM), its text kept in the cause', async () => {
    const full = Object.assign(new Error("OOM command not allowed when used memory > 'maxmemory'."), { name: 'ReplyError' });
    const error = await failure(createRedisStatusStore({ client: scriptedClient(full).client }).claim('k', claimRequest()));
    assert.ok(error instanceof StatusStoreUnavailableError);
    assert.equal(error.message, 'Redis refused the operation (OOM)');
    assert.equal(((error as StatusStoreUnavailableError).cause as Error).message, full.message);
  });

  test('a client that rejects with nothing (null) is StatusStoreUnavailableError without a cause, not a TypeError of ours', async () => {
    const error = await failure(createRedisStatusStore({ client: { call: () => Promise.reject(null) } }).renew('k', 't', 1));
    assert.ok(error instanceof StatusStoreUnavailableError, String(error));
    assert.equal(error.cause, undefined);
  });

  test('an operation that outlasts timeoutMs is StatusStoreUnavailableError at timeoutMs, not before', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { client } = scriptedClient(() => new Promise(() => undefined));
    const store = createRedisStatusStore({ client, timeoutMs: 300 });
    let settled: unknown;
    const pending = Promise.resolve(store.renew('k', 'token', 1)).then(
      (value) => (settled = value),
      (error: unknown) => (settled = error),
    );
    await new Promise((resolve) => setImmediate(resolve));
    mock.timers.tick(299);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, undefined, 'still waiting at 299 ms');
    mock.timers.tick(1);
    const error = await pending;
    assert.ok(error instanceof StatusStoreUnavailableError, String(error));
    assert.match(error.message, /within 300 ms/);
    assert.equal(error.retryAfterSeconds, 1);
  });

  test('renew sends the token, the new until and both lifetimes; true only for a reply of 1', async () => {
    const { client, sent } = scriptedClient(1, 0);
    const store = createRedisStatusStore({ client, ttlMs: 5_000, transientMs: 7_000, claimMs: 3_000 });
    assert.equal(await store.renew('k', 'token-1', 99), true);
    assert.equal(await store.renew('k', 'token-1', 99), false);
    assert.deepEqual(sent[0]!.slice(2), ['1', 'gw-elements:k', 'token-1', '99', '5000', '8000']);
  });

  test('settle sends the value, its flags and the time of an unanswered mark; the final value comes back', async () => {
    const now = mock.method(Date, 'now', () => 1_234);
    try {
      const { client, sent } = scriptedClient(['0', ''], ['1', 'first'], ['0', '']);
      const store = createRedisStatusStore({ client, ttlMs: 5_000, transientMs: 7_000 });
      assert.equal(await store.settle('k', 'token-1', { value: 'pending', final: false }), undefined);
      assert.equal(await store.settle('k', 'token-2', { value: 'approved', final: true }), 'first');
      assert.equal(await store.settle('k', 'token-3', { unanswered: true }), undefined);
      assert.deepEqual(
        sent.map((command) => command.slice(4)),
        [
          ['token-1', 'pending', '1', '0', '5000', '0', '1234', '7000'],
          ['token-2', 'approved', '1', '1', '5000', '0', '1234', '7000'],
          ['token-3', '', '0', '0', '5000', '1', '1234', '7000'],
        ],
      );
    } finally {
      now.mock.restore();
    }
  });

  test('an operation that ends leaves no timer behind (its time limit is cleared)', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const store = createRedisStatusStore({ client: scriptedClient(1).client, timeoutMs: 60_000 });
    const before = timers();
    await store.renew('k', 'token', 1);
    assert.equal(timers(), before);
  });

  test('read sends the prefixed key alone', async () => {
    const { client, sent } = scriptedClient(null);
    await createRedisStatusStore({ client, prefix: 'shop:' }).read!('k');
    assert.deepEqual(sent[0]!.slice(2), ['1', 'shop:k']);
  });

  test('read returns the final value or undefined', async () => {
    assert.equal(await createRedisStatusStore({ client: scriptedClient('approved').client }).read!('k'), 'approved');
    assert.equal(await createRedisStatusStore({ client: scriptedClient(null).client }).read!('k'), undefined);
    assert.equal(await createRedisStatusStore({ client: scriptedClient(undefined).client }).read!('k'), undefined);
  });
});

describe('final values kept in this process', () => {
  test('a final value seen (claimed, settled or read) is answered without Redis, also when Redis is down', async () => {
    type Store = ReturnType<typeof createRedisStatusStore>;
    const ways: [string, unknown, (store: Store) => unknown][] = [
      ['claimed', ['final', '1', 'approved'], (store) => store.claim('k', claimRequest())],
      ['settled', ['1', 'approved'], (store) => store.settle('k', 't', { value: 'approved', final: true })],
      ['read', 'approved', (store) => store.read!('k')],
    ];
    for (const [way, reply, learn] of ways) {
      let down = false;
      const { client, sent } = scriptedClient(() => (down ? new Error('down') : reply));
      const store = createRedisStatusStore({ client });
      await learn(store);
      down = true;
      assert.deepEqual(await store.claim('k', claimRequest()), { status: 'final', value: 'approved' }, way);
      assert.equal(await store.read!('k'), 'approved', way);
      assert.equal(sent.length, 1, `${way}: nothing more was sent`);
      assert.ok(
        (await failure(store.claim('other', claimRequest()))) instanceof StatusStoreUnavailableError,
        'another key still asks Redis',
      );
    }
  });

  test("hints (the checkouts the client created) are not copied with the finals: a thousand page loads and returns keep a paid shopper's answer", async () => {
    let down = false;
    // The settle script answers ['1', final]; the read script (two arguments fewer) the record's value.
    const { client } = scriptedClient((sent: string[]) => (down ? new Error('down') : sent.length === 4 ? '{}' : ['1', 'approved']));
    const store = createRedisStatusStore({ client });
    await store.settle('paid', 't', { value: 'approved', final: true });
    for (let index = 0; index < 1000; index++) {
      await store.settle(`checkout:c${index}`, 'created', { value: '{}', final: true, hint: true });
      // What every shopper return reads first: the memory of its checkout's creation.
      assert.equal(await store.read!(`checkout:c${index}`), '{}');
    }
    await store.settle('checkout:unread', 'created', { value: '{}', final: true, hint: true });
    down = true;
    assert.deepEqual(await store.claim('paid', claimRequest()), { status: 'final', value: 'approved' }, 'answered through the outage');
    assert.equal(await store.read!('checkout:c999'), '{}', 'a memory a return read is at hand through the outage too');
    assert.ok(
      (await failure(store.read!('checkout:unread'))) instanceof StatusStoreUnavailableError,
      'a hint settled is not copied: it is asked of Redis',
    );
  });

  test('a final value settled while Redis is down is still answered here; an earlier one seen here is not replaced', async () => {
    const { client, sent } = scriptedClient(new Error('down'));
    const store = createRedisStatusStore({ client });
    assert.ok((await failure(store.settle('k', 't', { value: 'approved', final: true }))) instanceof StatusStoreUnavailableError);
    assert.deepEqual(await store.claim('k', claimRequest()), { status: 'final', value: 'approved' });
    assert.ok((await failure(store.settle('k', 't', { value: 'other', final: true }))) instanceof StatusStoreUnavailableError);
    assert.equal(await store.read!('k'), 'approved', 'the first final value stays');
    assert.ok((await failure(store.settle('p', 't', { value: 'pending', final: false }))) instanceof StatusStoreUnavailableError);
    assert.ok((await failure(store.settle('u', 't', { unanswered: true, final: true }))) instanceof StatusStoreUnavailableError);
    const asked = sent.length;
    for (const key of ['p', 'u'])
      assert.ok((await failure(store.read!(key))) instanceof StatusStoreUnavailableError, `${key}: nothing final kept, Redis asked`);
    assert.equal(sent.length, asked + 2);
  });

  test('a final value settled here is kept even when Redis answers with an earlier final value, which wins', async () => {
    const { client } = scriptedClient(['1', 'first'], new Error('down'));
    const store = createRedisStatusStore({ client });
    assert.equal(await store.settle('k', 't', { value: 'second', final: true }), 'first');
    assert.equal(await store.read!('k'), 'first');
  });

  test('the local copy lives ttlMs, then Redis is asked again', async () => {
    let time = 10_000;
    const now = mock.method(Date, 'now', () => time);
    try {
      const { client, sent } = scriptedClient('approved');
      const store = createRedisStatusStore({ client, ttlMs: 1_000 });
      await store.read!('k');
      time += 999;
      await store.read!('k');
      assert.equal(sent.length, 1);
      time += 1;
      await store.read!('k');
      assert.equal(sent.length, 2);
    } finally {
      now.mock.restore();
    }
  });

  test('at most 1000 values are kept: the oldest is asked of Redis again', async () => {
    const { client, sent } = scriptedClient((args: string[]) => `value of ${args.at(-1)}`);
    const store = createRedisStatusStore({ client });
    for (let index = 0; index <= 1000; index++) await store.read!(`k${index}`);
    assert.equal(sent.length, 1001);
    await store.read!('k1000');
    await store.read!('k1');
    assert.equal(sent.length, 1001, 'the newest 1000 are kept');
    await store.read!('k0');
    assert.equal(sent.length, 1002, 'the oldest was dropped');
  });

  test('and at most 8 Mi code units of them: large answers push the oldest out sooner', async () => {
    const large = 'x'.repeat(1024 * 1024);
    const { client, sent } = scriptedClient((args: string[]) => `${args.at(-1)}${large}`);
    const store = createRedisStatusStore({ client });
    for (let index = 0; index < 10; index++) await store.read!(`k${index}`);
    assert.equal(sent.length, 10);
    await store.read!('k9');
    await store.read!('k3');
    assert.equal(sent.length, 10, 'the newest ones that fit are kept');
    await store.read!('k0');
    assert.equal(sent.length, 11, 'the oldest went for room');
  });
});

describe('options', () => {
  test('a client of neither shape, or a prefix that is not a string, is refused at once, naming the option', () => {
    const refused = (options: unknown) => {
      try {
        createRedisStatusStore(options as never);
      } catch (error) {
        assert.ok(error instanceof GatewayValidationError, String(error));
        return error.parameterErrors;
      }
      return assert.fail('expected a GatewayValidationError');
    };
    const client = [
      {
        name: 'createRedisStatusStore(options).client',
        message: 'must be a connected node-redis or ioredis client (an object with call() or sendCommand())',
      },
    ];
    for (const notClient of [{}, null, undefined, () => undefined, { call: 'yes' }, { sendCommand: 1 }, [1]])
      assert.deepEqual(refused({ client: notClient }), client, String(notClient));
    assert.deepEqual(refused({ client: scriptedClient().client, prefix: 5 }), [
      { name: 'createRedisStatusStore(options).prefix', message: 'must be a string' },
    ]);
  });

  test('a node-redis client (sendCommand) gets the same command as one array', async () => {
    const sent: string[][] = [];
    const client = { sendCommand: async (args: string[]) => (sent.push(args), 1) };
    assert.equal(await createRedisStatusStore({ client }).renew('k', 't', 5), true);
    assert.equal(sent[0]![0], 'EVALSHA');
  });

  test('the timing options are handed to the callers that wait', () => {
    assert.deepEqual(createRedisStatusStore({ client: scriptedClient().client, claimMs: 3_000, waitMs: 4_000 }).timing, {
      claimMs: 3_000,
      waitMs: 4_000,
    });
  });
});
