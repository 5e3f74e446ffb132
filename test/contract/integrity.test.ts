// The SRI rule both sides keep: <gw-checkout> refuses what it rejects, and the sandbox's checkouts answer what it accepts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { integrityProblem } from '../../src/contract/integrity.js';
import { DEFAULT_ENTITY_ID, DEFAULT_TOKEN, startSandbox } from '../../src/sandbox/index.js';

const digestOf = (algorithm: 'sha256' | 'sha384' | 'sha512', bytes: Uint8Array) =>
  `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;

describe('integrity: well-formed Subresource Integrity metadata', () => {
  it('accepts any sha256, sha384 or sha512 digest, and space-separated lists of them', () => {
    fc.assert(
      fc.property(fc.constantFrom('sha256', 'sha384', 'sha512'), fc.uint8Array(), fc.uint8Array(), (algorithm, first, second) => {
        assert.equal(integrityProblem(digestOf(algorithm, first)), undefined);
        assert.equal(integrityProblem(` ${digestOf(algorithm, first)}\t${digestOf('sha384', second)} `), undefined);
      }),
    );
  });

  it('refuses a digest of another length, an unknown algorithm, options and non-base64', () => {
    const digest = createHash('sha384').update('x').digest('base64');
    for (const value of [
      '',
      ' ',
      'undefined',
      'sha384-',
      `md5-${createHash('md5').update('x').digest('base64')}`,
      `sha256-${digest}`,
      `sha512-${digest}`,
      `SHA384-${digest}`,
      `sha384-${digest}?opt`,
      `sha384-${digest.replace(/.$/, '_')}`,
      `sha384-${digest}=`,
    ]) {
      assert.match(integrityProblem(value) ?? '', /integrity/, JSON.stringify(value));
    }
  });

  it('never throws on any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (value) => void integrityProblem(value)));
  });

  it('holds for the integrity the sandbox answers with a checkout', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    try {
      const response = await fetch(`${sandbox.url}/v1/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEFAULT_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ entityId: DEFAULT_ENTITY_ID, amount: '12.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }),
      });
      const body = (await response.json()) as { integrity?: string };
      assert.equal(typeof body.integrity, 'string');
      assert.equal(integrityProblem(body.integrity!), undefined);
    } finally {
      await sandbox.close();
    }
  });
});
