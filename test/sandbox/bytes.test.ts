/**
 * The sandbox's byte helpers (src/sandbox/bytes.ts, web platform only, so the
 * same core runs in Node and in a service worker) against Node's own Buffer
 * and node:crypto, on arbitrary input: the same lengths, cuts, encodings and
 * hashes in a browser as on a server. The runtime's randomness and the
 * notifications' Web Crypto encryption are checked here too.
 */
import assert from 'node:assert/strict';
import { createDecipheriv, createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { base64Of, base64urlOf, bytesOfHex, hexOf, sha256Hex, textOfBase64url, utf8Length, utf8Prefix } from '../../src/sandbox/bytes.js';
import { webRandomBytes } from '../../src/sandbox/core/runtime.js';
import { encryptNotification } from '../../src/sandbox/protocol/notifier.js';

const RUNS = Number(process.env.GW_PROPERTY_RUNS ?? 2000);
/** Strings of any code points, lone surrogates included (Node and TextEncoder both write them as U+FFFD). */
const text = fc.string({ unit: 'binary', maxLength: 300 });

describe('sandbox bytes', () => {
  test('utf8Length and utf8Prefix equal Buffer.byteLength and a cut Buffer, lone surrogates included', () => {
    fc.assert(
      fc.property(text, fc.nat(320), (value, bytes) => {
        assert.equal(utf8Length(value), Buffer.byteLength(value));
        assert.equal(utf8Prefix(value, bytes), Buffer.from(value).subarray(0, bytes).toString('utf8'));
      }),
      { numRuns: RUNS },
    );
    // Each width once, a pair and the two lone halves: fixed cases beside the property.
    for (const value of ['a', 'é', '€', '😀', '\ud83d', '\ude00', 'a\ud83dz'])
      assert.equal(utf8Length(value), Buffer.byteLength(value), value);
    // Found by the property (seed 1313770107): a leading U+FEFF was dropped as a byte-order mark.
    assert.equal(utf8Prefix('\ufeffa', 4), '\ufeffa');
    assert.equal(textOfBase64url(base64urlOf('\ufeff')), '\ufeff');
  });

  test('hex, base64 and base64url round trips equal Node', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), text, (bytes, value) => {
        assert.equal(hexOf(bytes), Buffer.from(bytes).toString('hex'));
        assert.deepEqual([...bytesOfHex(hexOf(bytes))], [...bytes]);
        assert.equal(base64Of(bytes), Buffer.from(bytes).toString('base64'));
        assert.equal(base64urlOf(value), Buffer.from(value).toString('base64url'));
        assert.equal(textOfBase64url(base64urlOf(value)), Buffer.from(value).toString('utf8'));
      }),
      { numRuns: RUNS },
    );
    assert.equal(textOfBase64url('not base64!'), undefined);
  });

  test('sha256Hex equals node:crypto on any text, across block boundaries', () => {
    fc.assert(
      fc.property(text, (value) => assert.equal(sha256Hex(value), createHash('sha256').update(value).digest('hex'))),
      { numRuns: RUNS },
    );
    // The padding's edge: messages of 55, 56 and 64 bytes end their length in the same block, the next, or a fresh one.
    for (const size of [0, 55, 56, 63, 64, 65, 119, 120])
      assert.equal(sha256Hex('a'.repeat(size)), createHash('sha256').update('a'.repeat(size)).digest('hex'));
  });

  test('webRandomBytes fills the whole size asked for, beyond one getRandomValues call', () => {
    const bytes = webRandomBytes(70_000);
    assert.equal(bytes.length, 70_000);
    // All-zero 16-byte runs at the start and the end would mean a part left unfilled (chance 2^-128 each).
    assert.notEqual(hexOf(bytes.subarray(0, 16)), '0'.repeat(32));
    assert.notEqual(hexOf(bytes.subarray(69_984)), '0'.repeat(32));
  });

  test("a notification's Web Crypto encryption opens with node:crypto's AES-256-GCM, its tag checked", async () => {
    const secret = hexOf(webRandomBytes(32));
    for (const plaintext of ['', '{"type":"PAYMENT"}', 'é€😀'.repeat(100)]) {
      const { body, iv, tag } = await encryptNotification(plaintext, secret, webRandomBytes(12));
      assert.match(`${body}${iv}${tag}`, /^[0-9A-F]*$/);
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(secret, 'hex'), Buffer.from(iv, 'hex'));
      decipher.setAuthTag(Buffer.from(tag, 'hex'));
      assert.equal(Buffer.concat([decipher.update(Buffer.from(body, 'hex')), decipher.final()]).toString('utf8'), plaintext);
    }
  });
});
