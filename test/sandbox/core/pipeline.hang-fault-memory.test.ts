/**
 * A request the `hang` fault holds is let go once its caller has gone. The
 * pipeline answered every hung request with one promise that never settled,
 * so each one's socket, headers and frames stayed for the life of the process
 * (one fault covers up to 999,999 requests, and a page sets one without a
 * token): 2,000 callers that left held about 41 MB.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startSandbox } from '../../../src/sandbox/index.js';
import { heapAfterGc, megabytes } from '../../adversarial/sandbox-support.js';

test('requests hung by the hang fault are released once their clients have gone (heap stays bounded)', async () => {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  try {
    const port = Number(new URL(sandbox.url).port);
    sandbox.fault('/v1/hang', 'hang', 999_999);
    const pad = 'x'.repeat(14_000); // under node's 16 KB header limit
    const hangAndLeave = async () => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(`GET /v1/hang HTTP/1.1\r\nhost: sandbox\r\nx-pad: ${pad}\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      socket.destroy();
    };
    // Warm up, then measure.
    for (let index = 0; index < 2; index++) await Promise.all(Array.from({ length: 50 }, hangAndLeave));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = heapAfterGc();
    for (let round = 0; round < 40; round++) await Promise.all(Array.from({ length: 50 }, hangAndLeave));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const grown = heapAfterGc() - before;
    // 2000 clients that left: what they sent (28 MB of headers) must not stay. The request log is capped at 2 MB.
    assert.ok(grown < 10 * 1024 * 1024, `heap grew ${megabytes(grown)} after 2000 hung requests whose clients closed`);
  } finally {
    await sandbox.close();
  }
});
