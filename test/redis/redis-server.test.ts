/** Issue 19, class 8: the Redis tests' helper never installs and never waits forever; a missing redis-server is a clear failure. */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { redisServerPath, startRedisServer } from './redis-server.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-redis-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('test/redis/redis-server.ts', () => {
  test('REDIS_SERVER_PATH at nothing: an error naming it and what to do, at once', () => {
    const missing = join(dir, 'no-such-redis-server');
    assert.throws(
      () => redisServerPath({ REDIS_SERVER_PATH: missing, PATH: '/usr/bin:/bin' }),
      (error: Error) => error.message.includes(missing) && /scripts\/ensure-redis/.test(error.message),
    );
  });

  test('no REDIS_SERVER_PATH and none on PATH: an error that says tests never install it', () => {
    assert.throws(() => redisServerPath({ PATH: dir }), /REDIS_SERVER_PATH.*never install/);
  });

  test('REDIS_SERVER_PATH is used as given', () => {
    const fake = join(dir, 'fake-redis-server');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n');
    chmodSync(fake, 0o755);
    assert.equal(redisServerPath({ REDIS_SERVER_PATH: fake, PATH: '' }), fake);
  });

  test('a binary that cannot start rejects, never waits', async () => {
    await assert.rejects(startRedisServer({ binary: join(dir, 'absent'), startTimeoutMs: 60_000 }), /could not start/);
  });

  test('a binary that starts but never accepts connections rejects after the start limit, and is stopped', async () => {
    const mute = join(dir, 'mute-redis-server');
    writeFileSync(mute, '#!/bin/sh\nexec sleep 600\n');
    chmodSync(mute, 0o755);
    await assert.rejects(startRedisServer({ binary: mute, startTimeoutMs: 500 }), /did not accept connections within 500 ms/);
  });

  test('the real one starts and answers', async () => {
    const server = await startRedisServer();
    try {
      assert.match(server.url, /^redis:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await server.stop();
    }
  });
});
