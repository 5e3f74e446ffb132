/**
 * `npm start` as a person runs it: one process, one printed URL, and Ctrl-C
 * (SIGINT) stops the pages, the merchant and the sandbox together.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
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
