/**
 * The sandbox's notifications, received by a real listener on loopback and
 * decrypted with the server helper: one per payment created or changed and
 * per registration created or deleted; retries on the sandbox clock (no real
 * waits), bounded; the control log and the resend control; no card secrets.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { NOTIFICATION_LIMITS, NOTIFICATION_RETRY_DELAYS_SECONDS, startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { Notifier } from '../../../src/sandbox/protocol/notifier.js';
import { SandboxClock, type RegistrationRecord } from '../../../src/sandbox/gateway/store.js';
import { decryptNotification, type Notification } from '../../../src/server/index.js';
import { browserCall, call, cardPayment, CARDS, formFields, postForm, threeDsFields, widgetCard } from '../support.js';

/** A merchant's notification listener: records every request, answers what the test says. */
class Listener {
  readonly received: { headers: IncomingHttpHeaders; body: string }[] = [];
  /** HTTP status of the next answers, in order; 200 once it runs out. `hang` never answers. */
  answers: (number | 'hang')[] = [];
  #server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = this.answers.shift() ?? 200;
      if (answer !== 'hang') response.writeHead(answer).end();
    });
  });
  url = '';

  async start(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/notifications`;
  }
  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

const listener = new Listener();
let sandbox: Sandbox;

before(async () => {
  await listener.start();
  sandbox = await startSandbox({ port: 0, quiet: true, notifications: { url: listener.url } });
});
after(async () => {
  await sandbox.close();
  await listener.close();
});
beforeEach(() => {
  sandbox.reset();
  listener.received.length = 0;
  listener.answers = [];
});

/** Every notification received so far, decrypted with the sandbox's secret. */
async function received(): Promise<Notification[]> {
  await sandbox.notifications.idle();
  return Promise.all(listener.received.map(({ headers, body }) => decryptNotification({ body, headers }, sandbox.notifications.secret!)));
}

const summary = (notification: Notification) =>
  notification.type === 'REGISTRATION'
    ? `REGISTRATION ${notification.action}`
    : `${notification.type} ${(notification.payload as { paymentType?: string }).paymentType} ${notification.payload.result?.code}`;

describe('what the sandbox notifies', () => {
  it('a payment: one PAYMENT notification, payload as the API answers it, masked card only', async () => {
    const { body: answer } = await call(sandbox, 'POST', '/v1/payments', cardPayment({ 'card.holder': 'Jane 4111111111111111 Jones' }));
    const [notification, ...rest] = await received();
    assert.equal(rest.length, 0);
    assert.equal(notification?.type, 'PAYMENT');
    const payload = notification!.payload as typeof answer;
    assert.equal(payload.id, answer.id);
    assert.equal(payload.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.deepEqual(payload.card.last4Digits, '0000');
    // As the platform's recorded deliveries: a server-to-server payment's ndc is <entityId>_<32 hex>, never the payment id.
    assert.match(payload.ndc, /^[A-Za-z0-9]{32}_[0-9a-f]{32}$/);
    assert.notEqual(payload.ndc, answer.id);
    assert.equal(payload.presentationAmount, answer.amount);
    assert.equal(payload.presentationCurrency, answer.currency);
    assert.equal(payload.source, 'SYSTEM');
    // As every recorded delivery (2015, 2018, 2023): the entity, for a listener of several, and the time to the second.
    assert.deepEqual(payload.authentication, { entityId: sandbox.entities[0] });
    assert.match(payload.timestamp, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+0000$/);
    const plaintext = JSON.stringify(notification);
    assert.ok(!plaintext.includes(CARDS.approved), 'no card number');
    assert.ok(!plaintext.includes('4111111111111111'), 'a card number typed into a name is masked as in answers');
    assert.ok(!/"cvv"/.test(plaintext), 'no security code');
    const headers = listener.received[0]!.headers;
    assert.match(String(headers['x-initialization-vector']), /^[0-9A-F]{24}$/);
    assert.match(String(headers['x-authentication-tag']), /^[0-9A-F]{32}$/);
    assert.match(listener.received[0]!.body, /^[0-9A-F]+$/, 'upper-case hex, as the platform writes it');
  });

  it('the uncertain trigger: the answer is 900.100.300, the notification tells the truth (approved)', async () => {
    const { body } = await call(sandbox, 'POST', '/v1/payments', cardPayment({ 'card.number': CARDS.uncertain }));
    assert.equal(body.result.code, RESULT_CODES.timeoutUncertain);
    assert.deepEqual((await received()).map(summary), [`PAYMENT DB ${RESULT_CODES.approvedIntegratorTest}`]);
  });

  it('3DS: the pending payment, then its outcome after the challenge (completed, or failed)', async () => {
    for (const outcome of ['complete', 'fail'] as const) {
      sandbox.reset();
      listener.received.length = 0;
      const { body } = await call(
        sandbox,
        'POST',
        '/v1/payments',
        cardPayment({ 'card.number': CARDS.challengeNoMethod, ...threeDsFields() }),
      );
      const challenge = await postForm(body.redirect.url, body.redirect.parameters);
      const fields = formFields(await challenge.text());
      await postForm(`${sandbox.url}/v1/threeDSecure/challenge`, [
        { name: 'threeDSSessionData', value: fields.threeDSSessionData! },
        { name: 'outcome', value: outcome },
      ]);
      const expected = outcome === 'complete' ? RESULT_CODES.approvedIntegratorTest : RESULT_CODES.threeDsFailed;
      assert.deepEqual((await received()).map(summary), [`PAYMENT DB ${RESULT_CODES.pending}`, `PAYMENT DB ${expected}`]);
    }
  });

  it('capture, refund and reversal: one notification for each new transaction; a refused one notifies nothing', async () => {
    const { body: pa } = await call(sandbox, 'POST', '/v1/payments', cardPayment({ paymentType: 'PA' }));
    await call(sandbox, 'POST', `/v1/payments/${pa.id}`, { paymentType: 'CP', amount: '50.00', currency: 'EUR' });
    await call(sandbox, 'POST', `/v1/payments/${pa.id}`, { paymentType: 'CP', amount: '500.00', currency: 'EUR' });
    const { body: debit } = await call(sandbox, 'POST', '/v1/payments', cardPayment());
    await call(sandbox, 'POST', `/v1/payments/${debit.id}`, { paymentType: 'RF', amount: '2.00', currency: 'EUR' });
    const { body: other } = await call(sandbox, 'POST', '/v1/payments', cardPayment({ paymentType: 'PA' }));
    await call(sandbox, 'POST', `/v1/payments/${other.id}`, { paymentType: 'RV' });
    const code = RESULT_CODES.approvedIntegratorTest;
    assert.deepEqual((await received()).map(summary), [
      `PAYMENT PA ${code}`,
      `PAYMENT CP ${code}`,
      `PAYMENT DB ${code}`,
      `PAYMENT RF ${code}`,
      `PAYMENT PA ${code}`,
      `PAYMENT RV ${code}`,
    ]);
  });

  it('a checkout payment through the widget, declined then approved: two notifications', async () => {
    const { body: checkout } = await call(sandbox, 'POST', '/v1/checkouts', {
      amount: '20.00',
      currency: 'EUR',
      paymentType: 'DB',
      integrity: 'true',
    });
    await browserCall(sandbox, 'POST', `/v1/checkouts/${checkout.id}/widget/payments`, widgetCard(CARDS.declined));
    await browserCall(sandbox, 'POST', `/v1/checkouts/${checkout.id}/widget/payments`, widgetCard(CARDS.approved));
    assert.deepEqual((await received()).map(summary), [
      `PAYMENT DB ${RESULT_CODES.declinedByAuthorization}`,
      `PAYMENT DB ${RESULT_CODES.approvedIntegratorTest}`,
    ]);
  });

  it('registrations: created (stored, or by a payment) and deleted', async () => {
    const { body: stored } = await call(sandbox, 'POST', '/v1/registrations', {
      paymentBrand: 'VISA',
      'card.number': CARDS.approved,
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
    });
    await fetch(`${sandbox.url}/v1/registrations/${stored.id}?entityId=${sandbox.entities[0]}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
    });
    await call(sandbox, 'POST', '/v1/payments', cardPayment({ createRegistration: 'true' }));
    const notifications = await received();
    assert.deepEqual(notifications.map(summary), [
      'REGISTRATION CREATED',
      'REGISTRATION DELETED',
      'REGISTRATION CREATED',
      `PAYMENT DB ${RESULT_CODES.approvedIntegratorTest}`,
    ]);
    assert.equal(notifications[0]!.payload.id, stored.id);
    assert.equal((notifications[0]!.payload as { card: { last4Digits: string } }).card.last4Digits, '0000');
    assert.ok(!JSON.stringify(notifications).includes(CARDS.approved));
  });

  it('nothing is sent for refused requests (validation, authentication)', async () => {
    await call(sandbox, 'POST', '/v1/payments', cardPayment({ amount: '1.5' }));
    await call(sandbox, 'POST', '/v1/payments', cardPayment(), { token: 'wrong' });
    assert.deepEqual(await received(), []);
    assert.deepEqual(sandbox.notifications.list(), []);
  });
});

describe('delivery', () => {
  it('retries a non-2xx on the sandbox clock with backoff, then delivers; the control log shows every attempt', async () => {
    listener.answers = [500, 503];
    await call(sandbox, 'POST', '/v1/payments', cardPayment());
    await sandbox.notifications.idle();
    let [delivery] = sandbox.notifications.list();
    assert.equal(delivery?.state, 'pending');
    assert.deepEqual(
      delivery!.attempts.map((attempt) => attempt.status),
      [500],
    );
    const firstWait = Date.parse(delivery!.nextAttemptAt!) - Date.parse(delivery!.attempts[0]!.at);
    assert.equal(firstWait, NOTIFICATION_RETRY_DELAYS_SECONDS[0]! * 1000);
    // 5 s short of due (of 10): the sandbox's clock also runs with real time, which a loaded machine spends.
    sandbox.clock.advance(NOTIFICATION_RETRY_DELAYS_SECONDS[0]! - 5);
    await sandbox.notifications.idle();
    assert.equal(sandbox.notifications.list()[0]!.attempts.length, 1, 'not due yet');
    sandbox.clock.advance(5);
    await sandbox.notifications.idle();
    sandbox.clock.advance(NOTIFICATION_RETRY_DELAYS_SECONDS[1]!);
    await sandbox.notifications.idle();
    [delivery] = sandbox.notifications.list();
    assert.equal(delivery!.state, 'delivered');
    assert.deepEqual(
      delivery!.attempts.map((attempt) => attempt.status),
      [500, 503, 200],
    );
    assert.equal(listener.received.length, 3);
    const bodies = new Set(listener.received.map(({ body }) => body));
    assert.equal(bodies.size, 3, 'each attempt is encrypted afresh (new IV)');

    const log = await fetch(`${sandbox.url}/__sandbox/notifications`, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } });
    const json = (await log.json()) as { notifications: { state: string; attempts: unknown[]; type: string }[]; url: string };
    assert.equal(json.url, listener.url);
    assert.equal(json.notifications[0]!.state, 'delivered');
    assert.ok(!JSON.stringify(json).includes(sandbox.notifications.secret!), 'the log never shows the secret');
    assert.equal((await fetch(`${sandbox.url}/__sandbox/notifications`)).status, 401);
  });

  it('is bounded: after every retry fails it is failed; the resend control delivers it with a fresh budget', async () => {
    listener.answers = Array(NOTIFICATION_RETRY_DELAYS_SECONDS.length + 1).fill(500);
    await call(sandbox, 'POST', '/v1/payments', cardPayment());
    await sandbox.notifications.idle();
    for (const wait of NOTIFICATION_RETRY_DELAYS_SECONDS) {
      sandbox.clock.advance(wait);
      await sandbox.notifications.idle();
    }
    let [delivery] = sandbox.notifications.list();
    assert.equal(delivery!.state, 'failed');
    assert.equal(delivery!.attempts.length, NOTIFICATION_RETRY_DELAYS_SECONDS.length + 1);
    sandbox.clock.advance(24 * 3600);
    await sandbox.notifications.idle();
    assert.equal(
      sandbox.notifications.list()[0]!.attempts.length,
      NOTIFICATION_RETRY_DELAYS_SECONDS.length + 1,
      'no attempt after failing',
    );

    const resend = await fetch(`${sandbox.url}/__sandbox/notifications/${delivery!.id}/resend`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
    });
    assert.equal(resend.status, 200);
    await sandbox.notifications.idle();
    [delivery] = sandbox.notifications.list();
    assert.equal(delivery!.state, 'delivered');
    const unknown = await fetch(`${sandbox.url}/__sandbox/notifications/nope/resend`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
    });
    assert.equal(unknown.status, 400);
  });

  it('a listener that does not answer in time counts as a failed attempt, and later notifications still go', async () => {
    const secret = sandbox.notifications.secret!;
    sandbox.notifications.configure({ url: listener.url, secret, timeoutMs: 300 });
    try {
      listener.answers = ['hang'];
      await call(sandbox, 'POST', '/v1/payments', cardPayment());
      await sandbox.notifications.idle();
      // The next one is given time enough for a loaded machine.
      sandbox.notifications.configure({ url: listener.url, secret });
      await call(sandbox, 'POST', '/v1/payments', cardPayment());
      await sandbox.notifications.idle();
      const [first, second] = sandbox.notifications.list();
      assert.equal(first!.attempts[0]!.status, 0);
      assert.match(first!.attempts[0]!.error ?? '', /no answer within 300 ms/);
      assert.equal(second!.state, 'delivered');
    } finally {
      sandbox.notifications.configure({ url: listener.url, secret });
    }
  });

  it('a listener that is not there: a failed attempt naming the connection error', async () => {
    const closed = new Listener();
    await closed.start();
    await closed.close();
    sandbox.notifications.configure({ url: closed.url, secret: sandbox.notifications.secret! });
    try {
      await call(sandbox, 'POST', '/v1/payments', cardPayment());
      await sandbox.notifications.idle();
      assert.match(sandbox.notifications.list()[0]!.attempts[0]!.error ?? '', /connection failed/);
    } finally {
      sandbox.notifications.configure({ url: listener.url, secret: sandbox.notifications.secret! });
    }
  });

  it('a delivery keeps the listener it was made for: a later configure sends it on with its own secret, which that listener decrypts', async () => {
    const secret = sandbox.notifications.secret!;
    const other = new Listener();
    await other.start();
    try {
      listener.answers = [500];
      await call(sandbox, 'POST', '/v1/payments', cardPayment());
      await sandbox.notifications.idle();
      sandbox.notifications.configure({ url: other.url, secret: 'cd'.repeat(32) });
      sandbox.clock.advance(NOTIFICATION_RETRY_DELAYS_SECONDS[0]!);
      await sandbox.notifications.idle();
      assert.equal(listener.received.length, 2, 'the retry went to its own listener');
      const [first, retry] = listener.received;
      for (const attempt of [first!, retry!]) assert.equal((await decryptNotification(attempt, secret)).type, 'PAYMENT');
      assert.equal(other.received.length, 0);
    } finally {
      sandbox.notifications.configure({ url: listener.url, secret });
      await other.close();
    }
  });

  it('resend of a delivery being sent sends it again once that attempt ends', async () => {
    listener.answers = ['hang'];
    const secret = sandbox.notifications.secret!;
    sandbox.notifications.configure({ url: listener.url, secret, timeoutMs: 300 });
    try {
      await call(sandbox, 'POST', '/v1/payments', cardPayment());
      while (listener.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(sandbox.notifications.resend(sandbox.notifications.list()[0]!.id), true);
      await sandbox.notifications.idle();
      const [delivery] = sandbox.notifications.list();
      assert.deepEqual(
        delivery!.attempts.map(({ status }) => status),
        [0, 200],
      );
      assert.equal(delivery!.state, 'delivered');
    } finally {
      sandbox.notifications.configure({ url: listener.url, secret });
    }
  });

  it('reset forgets the deliveries', async () => {
    await call(sandbox, 'POST', '/v1/payments', cardPayment());
    await sandbox.notifications.idle();
    sandbox.reset();
    assert.deepEqual(sandbox.notifications.list(), []);
  });
});

/** A registration record, as the store hands one to the notifier. */
const registration = (id: number, holder = 'Jane Jones'): RegistrationRecord => ({
  id: String(id).padStart(32, '0'),
  entityId: sandbox.entities[0]!,
  behaviour: { kind: 'approve' },
  testMode: 'INTERNAL',
  createdAt: 0,
  deregistered: false,
  card: { bin: '420000', last4Digits: '0000', holder, expiryMonth: '05', expiryYear: '2034' },
});

describe('bounds', () => {
  it('reset or close while a notification is being encrypted: nothing is sent', async () => {
    const own = new Listener();
    await own.start();
    const notifier = new Notifier(new SandboxClock(() => Date.now()), (size) => randomBytes(size), { url: own.url });
    try {
      notifier.notify({ type: 'REGISTRATION', action: 'CREATED', registration: registration(1) });
      notifier.clear();
      await notifier.idle();
      notifier.notify({ type: 'REGISTRATION', action: 'CREATED', registration: registration(2) });
      await notifier.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(own.received.length, 0);
    } finally {
      await notifier.close();
      await own.close();
    }
  });

  it('counts payloads in UTF-8 bytes', () => {
    const notifier = new Notifier(new SandboxClock(() => Date.now()), (size) => randomBytes(size), { url: 'http://127.0.0.1:9/' });
    // 3 bytes a character: 64 K of them is 192 KB, so fewer than 8 MB / 192 KB + 1 payloads fit.
    const large = '€'.repeat(64 * 1024);
    for (let index = 0; index < 200; index++)
      notifier.notify({ type: 'REGISTRATION', action: 'CREATED', registration: registration(index, large) });
    assert.ok(notifier.list().length * large.length * 3 <= NOTIFICATION_LIMITS.bytes + large.length * 3, `${notifier.list().length} kept`);
    return notifier.close();
  });

  it('keeps at most NOTIFICATION_LIMITS.deliveries deliveries and NOTIFICATION_LIMITS.bytes of payloads, oldest dropped', async () => {
    // Nobody listens on port 9 (discard): every attempt fails at once, so everything stays pending.
    const notifier = new Notifier(new SandboxClock(() => Date.now()), (size) => randomBytes(size), { url: 'http://127.0.0.1:9/' });
    try {
      for (let index = 0; index < NOTIFICATION_LIMITS.deliveries + 5; index++)
        notifier.notify({ type: 'REGISTRATION', action: 'CREATED', registration: registration(index) });
      const kept = notifier.list();
      assert.equal(kept.length, NOTIFICATION_LIMITS.deliveries);
      assert.equal(kept[0]!.subjectId, registration(5).id, 'the oldest went first');
      const large = 'x'.repeat(64 * 1024);
      for (let index = 0; index < 200; index++)
        notifier.notify({ type: 'REGISTRATION', action: 'CREATED', registration: registration(index, large) });
      assert.ok(
        notifier.list().length * large.length <= NOTIFICATION_LIMITS.bytes + large.length,
        `${notifier.list().length} payloads of 64 KB kept`,
      );
    } finally {
      await notifier.close();
    }
  });
});

describe('configuration', () => {
  it('generates a secret when none is given; refuses a bad URL or secret without quoting the secret', async () => {
    const generated = await startSandbox({ port: 0, quiet: true, notifications: { url: listener.url } });
    try {
      assert.match(generated.notifications.secret ?? '', /^[0-9a-f]{64}$/);
    } finally {
      await generated.close();
    }
    const plain = await startSandbox({ port: 0, quiet: true });
    try {
      assert.equal(plain.notifications.url, undefined);
      await call(plain, 'POST', '/v1/payments', cardPayment());
      assert.deepEqual(plain.notifications.list(), [], 'off unless configured');
    } finally {
      await plain.close();
    }
    await assert.rejects(startSandbox({ port: 0, quiet: true, notifications: { url: 'ftp://example.com' } }), /http or https/);
    await assert.rejects(
      startSandbox({ port: 0, quiet: true, notifications: { url: 'http://user:pass-canary@127.0.0.1:9/' } }),
      (error: Error) => /user name or password/.test(error.message) && !error.message.includes('pass-canary'),
    );
    const badSecret = 'zz'.repeat(32);
    await assert.rejects(
      startSandbox({ port: 0, quiet: true, notifications: { url: listener.url, secret: badSecret } }),
      (error: Error) => !error.message.includes(badSecret),
    );
  });

  it('CLI: --notification-url prints the generated secret; a bad --notification-secret exits 2 without echoing it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--notification-url', listener.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    while (!/secret [0-9a-f]{64}/.test(output)) await once(child.stdout!, 'data');
    child.kill('SIGTERM');
    await once(child, 'exit');
    assert.match(output, new RegExp(`notifications: ${listener.url.replace(/[.:/]/g, '\\$&')} \\(secret [0-9a-f]{64}\\)`));

    const secret = 'ab'.repeat(31);
    const bad = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/sandbox/cli.ts', '--notification-url', listener.url, '--notification-secret', secret],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let errors = '';
    bad.stderr!.on('data', (chunk: Buffer) => (errors += chunk));
    const [code] = await once(bad, 'exit');
    assert.equal(code, 2);
    assert.match(errors, /--notification-secret must be 64 hex characters/);
    assert.ok(!errors.includes(secret));
  });
});
