/**
 * The service worker's stand-ins for node:crypto and Buffer (node-shims.ts)
 * against Node's own, on arbitrary input: the sandbox's core must compute the
 * same ids, hashes, lengths and encodings in a browser as on a server.
 */
import assert from 'node:assert/strict';
import { createHash as nodeHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Buffer as Shim, createCipheriv, createHash, randomBytes } from '../../../src/sandbox/service-worker/node-shims.js';

const RUNS = 2000;
/** Strings of any code points, lone surrogates included (Node and TextEncoder both write them as U+FFFD). */
const text = fc.string({ unit: 'binary', maxLength: 300 });

describe('service worker node shims', () => {
  test('createHash: SHA-1 and SHA-256 equal node:crypto on any text and bytes, across block boundaries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('sha1', 'sha256'),
        fc.oneof(text, fc.uint8Array({ maxLength: 300 })),
        fc.oneof(text, fc.uint8Array({ maxLength: 200 })),
        (algorithm, first, second) => {
          const expected = nodeHash(algorithm).update(first).update(second);
          const actual = createHash(algorithm).update(first).update(second);
          assert.equal(actual.digest('hex'), expected.digest('hex'));
        },
      ),
      { numRuns: RUNS },
    );
    // The padding's edge: messages of 55, 56 and 64 bytes end their length in the same block, the next, or a fresh one.
    for (const size of [0, 55, 56, 63, 64, 65, 119, 120])
      assert.equal(
        createHash('sha256').update('a'.repeat(size)).digest('base64'),
        nodeHash('sha256').update('a'.repeat(size)).digest('base64'),
      );
  });

  test('createHash refuses an algorithm it does not carry, and encrypted notifications are refused', () => {
    assert.throws(() => createHash('md5'), /md5 is not available/);
    assert.throws(() => createCipheriv(), /not available/);
  });

  test('Buffer: byte lengths, utf8, hex and base64(url) round trips and ranges equal Node', () => {
    fc.assert(
      fc.property(text, fc.uint8Array({ maxLength: 200 }), fc.nat(220), fc.nat(220), (value, bytes, start, end) => {
        assert.equal(Shim.byteLength(value), Buffer.byteLength(value));
        assert.equal(Shim.from(value).toString('utf8'), Buffer.from(value).toString('utf8'));
        assert.equal(Shim.from(bytes).toString('utf8', start, end), Buffer.from(bytes).toString('utf8', start, end));
        assert.equal(Shim.from(bytes).toString('hex', start, end), Buffer.from(bytes).toString('hex', start, end));
        for (const encoding of ['hex', 'base64', 'base64url'] as const) {
          const encoded = Buffer.from(bytes).toString(encoding);
          assert.equal(Shim.from(bytes).toString(encoding), encoded);
          assert.deepEqual([...Shim.from(encoded, encoding)], [...bytes]);
        }
        assert.deepEqual([...Shim.concat([Shim.from(value), bytes])], [...Buffer.concat([Buffer.from(value), bytes])]);
        assert.equal(Shim.from(value).subarray(0, start).toString(), Buffer.from(value).subarray(0, start).toString());
      }),
      { numRuns: RUNS },
    );
  });

  test('randomBytes fills the whole size asked for, beyond one getRandomValues call', () => {
    const bytes = randomBytes(70_000);
    assert.equal(bytes.length, 70_000);
    // All-zero 16-byte runs at the start and the end would mean a part left unfilled (chance 2^-128 each).
    assert.notEqual(bytes.toString('hex', 0, 16), '0'.repeat(32));
    assert.notEqual(bytes.toString('hex', 69_984), '0'.repeat(32));
  });
});
