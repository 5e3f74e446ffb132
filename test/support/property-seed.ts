/**
 * Loaded before every node:test file by scripts/test-run.mjs: every fast-check
 * property of a stage runs from the seed the stage printed (GW_PROPERTY_SEED),
 * so a failure, a hang or a crash that leaves no fast-check report can be
 * replayed with `GW_PROPERTY_SEED=<seed> node scripts/test.mjs node`. A
 * property that names its own seed keeps it.
 */
import fc from 'fast-check';

const seed = Number(process.env.GW_PROPERTY_SEED);
if (Number.isSafeInteger(seed)) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
