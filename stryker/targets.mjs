/**
 * The money-critical modules under mutation testing, each with the focused
 * test files that guard it, fastest first (the command runner runs only these,
 * once per mutant, one after another until one fails). `npm run test:mutation` runs every target in this order;
 * `npm run test:mutation -- redaction` runs the named ones.
 */
export const TARGETS = {
  'result-codes': {
    mutate: ['src/contract/result-codes.ts'],
    tests: ['test/contract/result-codes.test.ts', 'test/contract/result-codes.published.test.ts'],
  },
  redaction: {
    mutate: ['src/contract/redaction.ts', 'src/contract/secrets.ts'],
    tests: [
      'test/contract/redaction.test.ts',
      'test/contract/secrets.test.ts',
      'test/server/errors.redaction.test.ts',
      'test/adversarial/sandbox-secret-names.test.ts',
      'test/adversarial/declared-secrets.test.ts',
    ],
  },
  // Whether an answer is its own request's: every field a request determines, and what proves nothing (absent, null,
  // empty, malformed, another case).
  binding: {
    mutate: ['src/server/binding.ts'],
    tests: ['test/server/binding.test.ts', 'test/server/reconcile.test.ts', 'test/server/shopper-return.expiry.test.ts'],
  },
  reconcile: {
    mutate: ['src/server/reconcile.ts'],
    tests: ['test/server/reconcile.test.ts', 'test/server/reconcile.reference.test.ts', 'test/adversarial/client-reconcile.test.ts'],
  },
  // Cards on file: what a saved card records, and the entity a call naming it goes to (its brand's, unless the call's
  // options choose), refused before sending when malformed; a registration's answer bound to the request.
  registrations: {
    mutate: ['src/server/resources/registrations.ts', 'src/server/standing-instructions.ts'],
    tests: [
      'test/server/resources/registrations.edges.test.ts',
      'test/server/resources/registrations.test.ts',
      'test/server/client.brand-entities.test.ts',
    ],
  },
  'status-store': {
    mutate: ['src/server/coordination/status-store.ts', 'src/server/coordination/memory-status-store.ts'],
    tests: [
      'test/server/coordination/status-store.lease.test.ts',
      'test/server/coordination/memory-status-store.test.ts',
      'test/server/coordination/status-store.test.ts',
      'test/server/coordination/status-store.options.test.ts',
    ],
  },
  'redis-status-store': {
    mutate: ['src/server/coordination/redis-status-store.ts'],
    tests: [
      'test/server/coordination/redis-status-store.client.test.ts',
      'test/server/coordination/status-store.options.test.ts',
      'test/server/coordination/redis-status-store.test.ts',
    ],
  },
  // A notification read only when the gateway sent it: every part refused before any work when malformed or oversized,
  // the secret never in an error, a payload of the platform's types only.
  notification: {
    mutate: ['src/server/decrypt-notification.ts'],
    tests: ['test/server/decrypt-notification.test.ts'],
  },
  fulfilment: {
    mutate: ['src/server/coordination/fulfilment.ts'],
    tests: [
      'test/server/coordination/status-store.options.test.ts',
      'test/server/coordination/fulfilment.edges.test.ts',
      'test/server/coordination/fulfilment.test.ts',
    ],
  },
  // The whole shopper return: every line that decides what an answer is (the resourcePath and the kind asked for,
  // the entity and the store key a read is remembered under, the answer's own type, which failed reads leave the
  // checkout unproven, "expired", "pending" and "unknown", which looked-up transaction is the checkout's), and the
  // sharing of one read among concurrent returns (participate, handleShopperReturn), which test/server/coordination/status-store
  // exercises.
  'shopper-return': {
    mutate: ['src/server/shopper-return.ts'],
    tests: [
      'test/server/shopper-return.expiry.test.ts',
      'test/server/shopper-return.test.ts',
      'test/server/resources/checkouts.test.ts',
      'test/server/coordination/status-store.test.ts',
    ],
  },
};

/** How a target's test files run, under Stryker and under the Lua mutator: node's test runner on the TypeScript sources. */
export const NODE_TEST_ARGS = ['--import', 'tsx', '--test', '--test-timeout=60000', '--test-reporter=dot'];
/** Property runs per property test under mutation (every mutant reruns them); fixed cases beside each money property guard its rule at any cap. */
export const PROPERTY_RUNS = '25';

/** Below this share of mutants caught (killed or timed out), a target's run fails. */
export const BREAK_THRESHOLD = 90;
