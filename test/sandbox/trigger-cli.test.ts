/**
 * `gw-sandbox trigger …` spawned from source against a sandbox started here on
 * a free port: each command prints one line and exits 0, or says why and exits
 * non-zero; its effect is read back from the sandbox itself.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { RESULT_CODES } from '../../src/contract/result-codes.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { threeDsPayment } from '../../src/sandbox/fixtures.js';
import { call, cardPayment, CARDS } from './support.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `gw-sandbox trigger <args>` from source and collects what it printed. */
function trigger(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', 'trigger', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

let sandbox: Sandbox;
/** Notifications the merchant's listener received, by arrival. */
const received: IncomingMessage[] = [];
const listener = createServer((request, response) => {
  received.push(request);
  request.resume();
  response.end();
});

before(async () => {
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  sandbox = await startSandbox({
    port: 0,
    quiet: true,
    notifications: { url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/notify` },
  });
});
after(async () => {
  await sandbox.close();
  await new Promise((resolve) => listener.close(resolve));
});
beforeEach(() => sandbox.reset());

const at = () => ['--url', sandbox.url];

async function pendingChallenge(): Promise<string> {
  const { body } = await call(sandbox, 'POST', '/v1/payments', threeDsPayment(CARDS.challenge, 'https://shop.example/result'));
  assert.equal(body.result.code, RESULT_CODES.pending);
  return body.id;
}

describe('gw-sandbox trigger', () => {
  it('3ds-complete finishes a waiting 3-D Secure step, late too; a second time there is nothing to finish', async () => {
    const id = await pendingChallenge();
    sandbox.clock.advance(29 * 60);
    const run = await trigger('3ds-complete', id, '--outcome', 'failed', ...at());
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^payment ${id} 3-D Secure failed: ${RESULT_CODES.threeDsFailed.replaceAll('.', '\\.')} [^\n]+\n$`),
    );
    assert.equal((await call(sandbox, 'GET', `/v1/payments/${id}`)).body.result.code, RESULT_CODES.threeDsFailed);
    const again = await trigger('3ds-complete', id, ...at());
    assert.equal(again.code, 1);
    assert.match(again.stderr, /has no 3-D Secure step waiting/);
  });

  it('expire times out a payment waiting for 3-D Secure, and ends a checkout', async () => {
    const id = await pendingChallenge();
    const run = await trigger('expire', id, ...at());
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^payment ${id} 3-D Secure step timed out: ${RESULT_CODES.pendingTimedOut.replaceAll('.', '\\.')}`),
    );
    assert.equal((await call(sandbox, 'GET', `/v1/payments/${id}`)).body.result.code, RESULT_CODES.pendingTimedOut);

    const checkout = (
      await call(sandbox, 'POST', '/v1/checkouts', { amount: '10.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' })
    ).body.id;
    assert.equal((await fetch(`${sandbox.url}/v1/checkouts/${checkout}/widget`)).status, 200);
    const expired = await trigger('expire', checkout, ...at());
    assert.equal(expired.code, 0, expired.stderr);
    assert.match(expired.stdout, new RegExp(`^checkout ${checkout.replaceAll('.', '\\.')} expired at `));
    assert.equal((await fetch(`${sandbox.url}/v1/checkouts/${checkout}/widget`)).status, 400);
  });

  it('notification sends the payment as it stands to the notification URL', async () => {
    const { body } = await call(sandbox, 'POST', '/v1/payments', cardPayment());
    await sandbox.notifications.idle();
    const before = received.length;
    const run = await trigger('notification', body.id, ...at());
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^notification [0-9a-f]{32} for payment ${body.id} queued to http://127\\.0\\.0\\.1:\\d+/notify\\n$`),
    );
    await sandbox.notifications.idle();
    assert.equal(received.length, before + 1);
  });

  it('fault makes the next requests to a path fail; clock moves time', async () => {
    const run = await trigger('fault', '/v1/payments', '--mode', '500', '--count', '2', ...at());
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'the next 2 request(s) to /v1/payments will answer HTTP 500\n');
    for (let index = 0; index < 2; index++) assert.equal((await call(sandbox, 'POST', '/v1/payments', cardPayment())).status, 500);
    assert.equal((await call(sandbox, 'POST', '/v1/payments', cardPayment())).status, 200);
    const before = sandbox.clock.now().getTime();
    const clock = await trigger('clock', '3600', ...at());
    assert.equal(clock.code, 0, clock.stderr);
    assert.ok(sandbox.clock.now().getTime() - before >= 3600_000);
    assert.match(clock.stdout, /^sandbox clock now \d{4}-\d{2}-\d{2}T/);
  });

  it('fails clearly: an unknown payment, a wrong token, no sandbox, bad usage', async () => {
    const unknown = await trigger('notification', 'f'.repeat(32), ...at());
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /HTTP 400, 200\.300\.404: id is not a payment the sandbox keeps/);
    const token = await trigger('clock', '1', '--token', 'wrong-token', ...at());
    assert.equal(token.code, 1);
    assert.match(token.stderr, /HTTP 401, 800\.900\.300/);
    assert.doesNotMatch(token.stderr, /wrong-token/);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nobody = await trigger('clock', '1', '--url', `http://127.0.0.1:${port}`);
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /cannot reach a sandbox at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    const usage = await trigger('fault', '/v1/payments', '--mode', 'explode', ...at());
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--mode must be drop, hang or 500\nusage: gw-sandbox trigger/);
  });
});
