/**
 * How far a benchmark's ratio can be trusted: a percentile bootstrap of the
 * ratio of two medians (each side resampled on its own, as its loads are
 * independent), with a fixed seed so the same samples always give the same
 * interval. A page load on a shared 2-core machine moves by ±10%, so a median
 * of 15 loads moves by about ±3%: the interval says whether a run resolves a 2%
 * target at all, and more loads (BENCH_THROTTLED_RUNS) are the way to narrow it.
 * Where each round pairs a subject with its own baseline (the return path's
 * waves), the interval is of the median of those paired ratios.
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

/** A resampler drawing from the seeded generator: the same samples always give the same interval. */
function resampler(): (values: readonly number[]) => number[] {
  const random = seeded(0x5eed);
  return (values) => values.map(() => values[Math.floor(random() * values.length)]!);
}

/** The middle 95% of `estimate` over `resamples` draws. */
function percentileInterval(estimate: () => number, resamples: number): { low: number; high: number } {
  const estimates = Array.from({ length: resamples }, estimate).sort((a, b) => a - b);
  return { low: estimates[Math.floor(resamples * 0.025)]!, high: estimates[Math.ceil(resamples * 0.975) - 1]! };
}

/** The 95% interval of median(subject) / median(baseline). */
export function ratioInterval(subject: readonly number[], baseline: readonly number[], resamples = 2000): { low: number; high: number } {
  const resample = resampler();
  return percentileInterval(() => median(resample(subject)) / median(resample(baseline)), resamples);
}

/** The 95% interval of the median of `values`: for ratios already paired (each round's subject over its own baseline). */
export function medianInterval(values: readonly number[], resamples = 2000): { low: number; high: number } {
  const resample = resampler();
  return percentileInterval(() => median(resample(values)), resamples);
}
