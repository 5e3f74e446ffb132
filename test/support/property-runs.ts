/**
 * A property's run count, capped by `GW_PROPERTY_RUNS` when it is set: the
 * mutation runs (stryker.config.mjs) set it, since they rerun a module's
 * focused tests once per mutant. Fixed cases beside each money property keep
 * its rule guarded at any cap.
 */
export const propertyRuns = (runs: number): number => {
  const cap = Number(process.env.GW_PROPERTY_RUNS);
  return Number.isInteger(cap) && cap > 0 ? Math.min(runs, cap) : runs;
};
