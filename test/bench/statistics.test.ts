/** The page benchmark's interval of a ratio of medians (bench/statistics.ts): what a run can resolve. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median, medianInterval, ratioInterval } from '../../bench/statistics.js';

test('median: the middle value, or the mean of the two middle ones', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('the interval holds the ratio of the medians and is the same for the same samples', () => {
  const baseline = [280, 300, 320, 290, 310, 305, 295, 285, 315, 300, 298, 302, 290, 310, 300];
  const subject = baseline.map((value) => value * 1.1);
  const { low, high } = ratioInterval(subject, baseline);
  assert.ok(low <= 1.1 && 1.1 <= high, `${low}–${high}`);
  assert.deepEqual(ratioInterval(subject, baseline), { low, high });
});

test('more loads narrow the interval; a 10% gap over a ±5% spread is resolved, a 1% gap is not', () => {
  // A fixed, spread-out sample: every value of 270–330 in steps, in an order unrelated to its size.
  const spread = (count: number) => Array.from({ length: count }, (_, index) => 270 + ((index * 37) % 61));
  const width = (count: number) => {
    const { low, high } = ratioInterval(spread(count), spread(count));
    return high - low;
  };
  assert.ok(width(60) < width(15), `${width(60)} < ${width(15)}`);
  assert.ok(
    ratioInterval(
      spread(15).map((value) => value * 1.1),
      spread(15),
    ).low > 1,
  );
  const close = ratioInterval(
    spread(15).map((value) => value * 1.01),
    spread(15),
  );
  assert.ok(close.low < 1 && close.high > 1.02, `${close.low}–${close.high}`);
});

test('the interval of a median holds it, narrows with more rounds and tells a 10% gap from none', () => {
  const spread = (count: number, around: number) => Array.from({ length: count }, (_, index) => around * (0.9 + ((index * 37) % 61) / 300));
  const { low, high } = medianInterval(spread(30, 1.1));
  assert.ok(low <= median(spread(30, 1.1)) && median(spread(30, 1.1)) <= high, `${low}–${high}`);
  assert.ok(low > 1, `a 10% gap is resolved: ${low}–${high}`);
  const width = (count: number) => {
    const interval = medianInterval(spread(count, 1));
    return interval.high - interval.low;
  };
  assert.ok(width(120) < width(12), `${width(120)} < ${width(12)}`);
  assert.deepEqual(medianInterval(spread(30, 1.1)), { low, high });
});
