/**
 * The hostile-peer stage, the sandbox's side (issue 29): control inputs no
 * real request can carry, and a burst of connections.
 *
 * - Faults (classes 3): fast-check generates fault paths of any size and
 *   characters, modes and counts, sent to the `/__sandbox/faults` control as
 *   many times as it likes; a fault is taken only for a path a request can
 *   have (visible ASCII, at most `MAX_FAULT_PATH_BYTES`), at most
 *   `MAX_PENDING_FAULTS` are pending, so listing them stays a small answer
 *   whatever was sent, and every refusal is the gateway's parameter error.
 * - Load (class 8): a burst of concurrent connections, half of them kept
 *   alive and reused, each gets an answer; none is reset.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_FAULT_PATH_BYTES, MAX_PENDING_FAULTS } from '../../src/sandbox/controls/faults.js';
import { route } from '../../src/sandbox/core/pipeline.js';
import { NODE_RUNTIME } from '../../src/sandbox/node/runtime.js';
import { createSandboxState } from '../../src/sandbox/core/state.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { propertyRuns } from '../support/property-runs.js';

const ENTITY = '8ac7a4c79394bdc801939736f17e063d';
const TOKEN = 'token-hostile-1234';

/** The largest answer listing faults can be: every pending path at its longest, with its mode, count and the envelope. */
const FAULT_LIST_MAX_BYTES = MAX_PENDING_FAULTS * (MAX_FAULT_PATH_BYTES + 64) + 1024;

const path = fc.oneof(
  fc.constantFrom('/v1/payments', '/v1/checkouts', '/v3/query', '/'),
  fc.string({ unit: 'binary', maxLength: 40 }).map((rest) => `/${rest}`),
  fc.stringMatching(/^\/[a-z0-9/]{0,40}$/),
  fc.integer({ min: 1, max: 200_000 }).map((length) => `/v1/${'a'.repeat(length)}`),
  fc.string({ maxLength: 20 }),
);
const fault = fc.record({
  path,
  mode: fc.oneof(fc.constantFrom('hang', 'error', 'drop'), fc.string({ maxLength: 8 })),
  count: fc.oneof(fc.constantFrom('1', '0', '999999'), fc.string({ maxLength: 8 })),
});

describe('hostile peer: sandbox controls', () => {
  it('the fault control takes only faults a request can meet, keeps at most MAX_PENDING_FAULTS, and answers every input', async () => {
    await fc.assert(
      fc.property(
        fc.array(fault, { minLength: 1, maxLength: 60 }),
        // Sometimes more distinct valid paths than may be pending, so the limit is met.
        fc.oneof(
          fc.constant([]),
          fc.uniqueArray(
            fc.nat().map((n) => ({ path: `/v1/payments/${n}`, mode: 'hang', count: '1' })),
            {
              minLength: MAX_PENDING_FAULTS + 1,
              maxLength: MAX_PENDING_FAULTS + 30,
              selector: (generated) => generated.path,
            },
          ),
        ),
        (hostile, many) => {
          const faults = [...hostile, ...many];
          const state = createSandboxState({ tokens: [TOKEN], entities: [ENTITY], runtime: NODE_RUNTIME });
          const control = (method: 'GET' | 'POST', params: Record<string, string>) => {
            const routed = route(state, { method, path: '/__sandbox/faults', params, authorization: `Bearer ${TOKEN}` }).reply;
            assert.equal(routed.kind, 'json');
            return routed as { status: number; body: { result: { code: string }; faults?: { path: string }[] } };
          };
          for (const sent of faults) {
            const answer = control('POST', sent);
            const taken = answer.status === 200;
            if (taken) {
              assert.match(sent.path, /^\/[\x21-\x7e]*$/, 'a fault is set only for a path of visible ASCII');
              assert.ok(Buffer.byteLength(sent.path) <= MAX_FAULT_PATH_BYTES, `a ${sent.path.length}-character path was taken`);
            } else assert.equal(answer.body.result.code, '200.300.404', 'a refusal is the parameter error');
          }
          const listed = control('GET', {});
          assert.ok((listed.body.faults ?? []).length <= MAX_PENDING_FAULTS);
          assert.ok(JSON.stringify(listed.body).length <= FAULT_LIST_MAX_BYTES, 'the list of faults stays small');
        },
      ),
      { numRuns: propertyRuns(40) },
    );
  });
});

describe('hostile peer: sandbox load', () => {
  it('a burst of 1,000 concurrent connections, half reusing kept-alive sockets, is answered in full', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    const { port } = new URL(sandbox.url);
    const agents = [new http.Agent({ keepAlive: true, maxSockets: 250 }), new http.Agent({ keepAlive: false, maxSockets: Infinity })];
    const failures: string[] = [];
    let answered = 0;
    const one = (index: number) =>
      new Promise<void>((resolve) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            path: `/v1/payments/${'0'.repeat(32)}?entityId=${sandbox.entities[0]}`,
            agent: agents[index % 2],
            headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
          },
          (response) => {
            response.resume();
            response.on('end', () => {
              answered++;
              resolve();
            });
          },
        );
        request.on('error', (error: NodeJS.ErrnoException) => {
          failures.push(error.code ?? error.message);
          resolve();
        });
        request.end();
      });
    try {
      // Two bursts: the second reuses the sockets the first left alive.
      for (const burst of [0, 1]) await Promise.all(Array.from({ length: 500 }, (_, index) => one(burst * 500 + index)));
    } finally {
      for (const agent of agents) agent.destroy();
      await sandbox.close();
    }
    assert.deepEqual(failures, [], `${failures.length} connections failed`);
    assert.equal(answered, 1000);
  });
});
