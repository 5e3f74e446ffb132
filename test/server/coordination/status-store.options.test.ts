/**
 * The options of the built-in status stores and of fulfilment, checked before
 * anything is stored: every duration a positive, finite number of
 * milliseconds, a clock a function, a store an object with the contract's
 * three operations. A mistake is a GatewayValidationError naming the option.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createFulfilment,
  createMemoryStatusStore,
  createRedisStatusStore,
  GatewayValidationError,
  type StatusStore,
} from '../../../src/server/index.js';

const client = { call: async () => null };
const STORES: [string, readonly string[], (options: unknown) => unknown][] = [
  [
    'createMemoryStatusStore(options)',
    ['ttlMs', 'maxBytes', 'transientMs', 'claimMs', 'waitMs'],
    (options) => createMemoryStatusStore(options as never),
  ],
  [
    'createRedisStatusStore(options)',
    ['ttlMs', 'transientMs', 'claimMs', 'waitMs', 'timeoutMs'],
    (options) => createRedisStatusStore({ client, ...(options as object) }),
  ],
];

/** The one parameter error `make(options)` throws. */
function refusal(make: () => unknown) {
  try {
    make();
  } catch (error) {
    assert.ok(error instanceof GatewayValidationError, String(error));
    assert.equal(error.parameterErrors.length, 1);
    return error.parameterErrors[0]!;
  }
  return assert.fail('expected a GatewayValidationError');
}

describe("the status stores' options", () => {
  for (const [what, durations, make] of STORES) {
    test(`${what}: each duration is a positive, finite number of milliseconds`, () => {
      for (const name of durations) {
        for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5000', null]) {
          assert.deepEqual(
            refusal(() => make({ [name]: bad })),
            { name: `${what}.${name}`, message: 'must be a positive number of milliseconds' },
            `${name}: ${String(bad)}`,
          );
        }
        assert.doesNotThrow(() => make({ [name]: 0.5 }), name);
        assert.doesNotThrow(() => make({ [name]: undefined }), name);
      }
    });
  }

  test("the memory store's clock is a function; its options an object", () => {
    assert.deepEqual(
      refusal(() => createMemoryStatusStore({ now: 5 as never })),
      { name: 'createMemoryStatusStore(options).now', message: 'must be a function' },
    );
    for (const options of [null, 5, 'options', [1]]) {
      assert.deepEqual(
        refusal(() => createMemoryStatusStore(options as never)),
        { name: 'createMemoryStatusStore(options)', message: 'must be an object of options' },
        String(options),
      );
    }
    assert.equal(createMemoryStatusStore({ now: () => 1 }).usage.records, 0);
  });
});

describe("what counts as a status store (fulfilment's store)", () => {
  const store = createMemoryStatusStore();
  const operations = { claim: store.claim, settle: store.settle, renew: store.renew };

  test('an object with claim, settle and renew is one', () => {
    assert.doesNotThrow(() => createFulfilment({ store: operations as StatusStore }));
    assert.doesNotThrow(() => createFulfilment({ store }));
  });

  test('anything missing one of them, or not an object, is refused before anything is stored', () => {
    const notStores: unknown[] = [undefined, null, 5, 'store', () => undefined, {}];
    for (const missing of Object.keys(operations))
      notStores.push({ ...operations, [missing]: undefined }, { ...operations, [missing]: 'yes' });
    const refused = { name: 'createFulfilment(options)', message: 'must be { store, now? } with the status store the client shares' };
    for (const notStore of notStores)
      assert.deepEqual(
        refusal(() => createFulfilment({ store: notStore as StatusStore })),
        refused,
        String(notStore),
      );
    for (const notOptions of [null, 5, 'options'])
      assert.deepEqual(
        refusal(() => createFulfilment(notOptions as never)),
        refused,
        String(notOptions),
      );
  });

  test("fulfilment's clock is a function", () => {
    assert.deepEqual(
      refusal(() => createFulfilment({ store, now: 5 as never })),
      { name: 'createFulfilment(options).now', message: 'must be a function' },
    );
    assert.doesNotThrow(() => createFulfilment({ store, now: () => 1 }));
  });
});
