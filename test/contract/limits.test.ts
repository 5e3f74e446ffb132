/** The shared limits' helpers (src/contract/limits.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ANSWER_MAX_DEPTH, nestsDeeperThan } from '../../src/contract/limits.js';
import { propertyRuns } from '../support/property-runs.js';

/** `levels` objects or lists, one inside the other. */
const nested = (levels: number, list: boolean): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = list ? [value] : { a: value };
  return value;
};

test('nestsDeeperThan counts the levels of objects and lists, at any depth without recursion', () => {
  assert.equal(nestsDeeperThan('text', 0), false);
  assert.equal(nestsDeeperThan({}, 0), true);
  assert.equal(nestsDeeperThan({}, 1), false);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 200 }), fc.boolean(), fc.integer({ min: 1, max: 200 }), (levels, list, bound) => {
      assert.equal(nestsDeeperThan(nested(levels, list), bound), levels > bound);
    }),
    { numRuns: propertyRuns(200) },
  );
  // Far deeper than the stack a recursive walk has.
  assert.equal(nestsDeeperThan(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), ANSWER_MAX_DEPTH), true);
});

test("the platform's deepest answers nest within the bound", () => {
  const report = {
    result: { code: '000.000.100' },
    payments: [{ threeDSecure: { authenticationInfo: { x: 1 } }, redirect: { parameters: [{ name: 'a' }] } }],
  };
  assert.equal(nestsDeeperThan(report, ANSWER_MAX_DEPTH), false);
});
