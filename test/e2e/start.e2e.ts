/**
 * `npm start` as a person runs it: one process, one printed URL, and Ctrl-C
 * (SIGINT) stops the pages, the merchant and the sandbox together.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

test('npm start prints one URL that serves the demo, and Ctrl-C stops everything it started', async () => {
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /https?:\/\/\S+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before printing a URL:\n${output}`)));
  });
  assert.equal(output.match(/https?:\/\/\S+/g)?.length, 1, `exactly one URL is printed:\n${output}`);
  const page = await fetch(url);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Kestrel Coffee/);
  const { gatewayUrl } = (await (await fetch(new URL('/api/config', url))).json()) as { gatewayUrl: string };
  assert.equal((await fetch(`${gatewayUrl}/v1/paymentWidgets.js`)).status, 200, 'the sandbox answers while the demo runs');

  const exited = once(child, 'exit');
  child.kill('SIGINT');
  const [code] = (await exited) as [number | null];
  assert.equal(code, 0);
  for (const stopped of [url, gatewayUrl]) {
    await assert.rejects(fetch(stopped), `${stopped} still answers after Ctrl-C`);
  }
});

/** The pid of every process below `pid`, from /proc (Linux). */
function descendants(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(
    `npm start stopped by its pid (${signal}): the demo it started stops too`,
    { skip: !existsSync('/proc/self/task') && 'needs /proc' },
    async () => {
      const npm: ChildProcess = spawn('npm', ['start'], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      npm.stderr!.on('data', (chunk: Buffer) => (output += chunk));
      const url = await new Promise<string>((resolve, reject) => {
        npm.stdout!.on('data', (chunk: Buffer) => {
          output += chunk;
          const match = /https?:\/\/\S+/.exec(output);
          if (match) resolve(match[0]);
        });
        npm.once('exit', (code) => reject(new Error(`npm start exited (${code}) before printing a URL:\n${output}`)));
      });
      const started = descendants(npm.pid!);
      try {
        assert.ok(started.length >= 2, 'npm runs a shell, which runs the demo');
        npm.kill(signal);
        // The demo gives its connections 5 s to close; a loaded CI machine once needed more than 15 s in all.
        for (let waited = 0; started.some(alive) && waited < 30_000; waited += 100)
          await new Promise((resolve) => setTimeout(resolve, 100));
        const left = started.filter(alive).map((pid) => `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`);
        assert.deepEqual(left, [], `every process npm start started has ended; what they printed:\n${output}`);
        await assert.rejects(fetch(url), `${url} still answers after npm was stopped`);
      } finally {
        for (const pid of started.filter(alive)) process.kill(pid, 'SIGKILL'); // what a failure left behind
      }
    },
  );
}
