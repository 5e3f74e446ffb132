import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { DEFAULT_ENTITY_ID, DEFAULT_TOKEN } from '../../src/sandbox/index.js';

/** Starts the CLI from source and resolves to its first stdout lines. */
async function startCli(args: string[]): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    reader.on('line', (line) => {
      lines.push(line);
      if (lines.length === 4) resolve();
    });
    child.once('exit', (code) => reject(new Error(`gw-sandbox exited with ${code}`)));
  });
  return { child, lines };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  if (child.exitCode === null) await once(child, 'exit');
}

describe('gw-sandbox CLI', () => {
  it('--port 0 prints the URL first, then the credentials, and serves requests', async () => {
    const entity = '0123456789abcdef0123456789abcdef';
    const { child, lines } = await startCli(['--port', '0', '--token', 'cli-token', '--entity', DEFAULT_ENTITY_ID, '--entity', entity]);
    try {
      const match = /^gw-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0]!);
      assert.ok(match, lines[0]);
      // A token of the caller's own is a credential: named, never printed.
      assert.match(lines.join('\n'), /Bearer \[access token\]/);
      assert.doesNotMatch(lines.join('\n'), /cli-token/);
      assert.match(lines.join('\n'), new RegExp(entity));
      assert.match(lines.join('\n'), /tests and demos/);
      const answer = await fetch(`${match[1]}/v1/checkouts`, {
        method: 'POST',
        headers: { authorization: 'Bearer cli-token' },
        body: new URLSearchParams({ entityId: entity, amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }),
      });
      assert.equal((await answer.json()).result.code, '000.200.100');
    } finally {
      await stop(child);
    }
  });

  it('--entity ID:BRAND,BRAND configures the entity for those brands only; the others answer 600.200.201', async () => {
    const entity = '0123456789abcdef0123456789abcdef';
    const { child, lines } = await startCli(['--port', '0', '--entity', `${entity}:MADA,APPLEPAY`]);
    try {
      const base = /listening on (\S+)$/.exec(lines[0]!)![1];
      assert.match(lines.join('\n'), new RegExp(`${entity} \\(MADA APPLEPAY\\)`));
      const create = (paymentBrand: string) =>
        fetch(`${base}/v1/checkouts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
          body: new URLSearchParams({
            entityId: entity,
            amount: '1.00',
            currency: 'SAR',
            paymentType: 'DB',
            integrity: 'true',
            paymentBrand,
          }),
        }).then(async (answer) => [answer.status, (await answer.json()).result.code]);
      assert.deepEqual(await create('MADA'), [200, '000.200.100']);
      assert.deepEqual(await create('VISA'), [400, '600.200.201']);
    } finally {
      await stop(child);
    }
  });

  it('refuses an unknown brand after an entity', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--entity', `${DEFAULT_ENTITY_ID}:VISA:MADA`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2);
    assert.match(stderr, /VISA:MADA is not a brand/);
  });

  it('defaults to the documented token and entity', async () => {
    const { child, lines } = await startCli(['--port', '0']);
    try {
      assert.match(lines.join('\n'), new RegExp(DEFAULT_TOKEN.replace(/[+=]/g, '\\$&')));
      assert.match(lines.join('\n'), new RegExp(DEFAULT_ENTITY_ID));
    } finally {
      await stop(child);
    }
  });

  it('refuses a bad flag with a usage message and exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--entity', 'short'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2);
    assert.match(stderr, /AN32/);
    assert.match(stderr, /usage: gw-sandbox/);
  });
});
