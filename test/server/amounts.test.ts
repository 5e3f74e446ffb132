/** `toCents` and `toAmount`: exact inverses on every amount the gateway accepts, typed errors for anything else. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { GatewayValidationError, toAmount, toCents } from '../../src/server/index.js';

const LARGEST_CENTS = 999_999_999_999_99;

test('whole cents and the amount text are exact inverses, up to the largest amount', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: LARGEST_CENTS }), (cents) => assert.equal(toCents(toAmount(cents)), cents)));
  assert.equal(toCents('12'), 1200, 'the gateway accepts an amount without decimals');
  assert.equal(toAmount(1234), '12.34');
});

test('anything that is not an amount, or not a whole number of cents in range, is a GatewayValidationError', () => {
  for (const bad of ['12.5', '-1.00', '1e3', '', ' 1.00', '1.000']) assert.throws(() => toCents(bad), GatewayValidationError, bad);
  for (const bad of [-1, 0.5, Number.NaN, Infinity, LARGEST_CENTS + 1])
    assert.throws(() => toAmount(bad), GatewayValidationError, String(bad));
  fc.assert(
    fc.property(fc.anything(), (value) => {
      for (const convert of [toCents, toAmount] as ((value: unknown) => unknown)[]) {
        try {
          convert(value);
        } catch (error) {
          assert.ok(error instanceof GatewayValidationError);
        }
      }
    }),
  );
});
