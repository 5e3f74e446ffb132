/**
 * How far a benchmark's ratio can be trusted: a percentile bootstrap of the
 * ratio of two medians (each side resampled on its own, as its loads are
 * independent), with a fixed seed so the same samples always give the same
 * interval. A page load on a shared 2-core machine moves by ±10%, so a median
 * of 15 loads moves by about ±3%: the interval says whether a run resolves a 2%
 * target at all, and more loads (BENCH_THROTTLED_RUNS) are the way to narrow it.
 */

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** mulberry32: a small seeded generator, so an interval is reproducible from its samples. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The 95% interval of median(subject) / median(baseline). */
export function ratioInterval(subject: readonly number[], baseline: readonly number[], resamples = 2000): { low: number; high: number } {
  const random = seeded(0x5eed);
  const resample = (values: readonly number[]) => values.map(() => values[Math.floor(random() * values.length)]!);
  const ratios = Array.from({ length: resamples }, () => median(resample(subject)) / median(resample(baseline))).sort((a, b) => a - b);
  return { low: ratios[Math.floor(resamples * 0.025)]!, high: ratios[Math.ceil(resamples * 0.975) - 1]! };
}
