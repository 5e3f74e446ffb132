/**
 * A listener URL with a credential in its query (`?authorization=Bearer%20…`)
 * is shown masked wherever the sandbox shows it: printed at start, in the
 * control log's answer and `notifications.list()`. It was shown whole, though
 * a user name or password in the URL is refused for that very reason.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactByShape } from '../../../src/contract/redaction.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { call, cardPayment } from '../support.js';

const CANARY = 'Nq7CanaryTokenZx41';
// Port 9 (discard): nothing listens, deliveries stay pending, which is all this test needs.
const URL_WITH_TOKEN = `http://127.0.0.1:9/hooks?authorization=Bearer%20${CANARY}`;

test('a token in the notification URL is refused, or never printed nor answered', async () => {
  // The kit's own redactor counts this spelling as an access token.
  assert.ok(!redactByShape(URL_WITH_TOKEN).includes(CANARY), 'premise: the redactor masks it');
  const printed: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => void printed.push(parts.map(String).join(' '));
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ port: 0, notifications: { url: URL_WITH_TOKEN, secret: 'ab'.repeat(32) } });
  } catch (error) {
    // Refused like a URL with a password: fine, as long as the refusal does not quote it.
    assert.ok(!String((error as Error).message).includes(CANARY));
    return;
  } finally {
    console.log = log;
  }
  try {
    await call(sandbox, 'POST', '/v1/payments', cardPayment());
    const answer = await fetch(`${sandbox.url}/__sandbox/notifications`, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } });
    const text = await answer.text();
    assert.ok(!printed.join('\n').includes(CANARY), `printed at start: ${printed.find((line) => line.includes(CANARY))}`);
    assert.ok(!text.includes(CANARY), 'the control log answers the token');
    assert.ok(!JSON.stringify(sandbox.notifications.list()).includes(CANARY), 'list() holds the token');
  } finally {
    await sandbox.close();
  }
});
