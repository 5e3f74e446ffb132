/**
 * Issue 12, class 7: no amount of junk bloats the sandbox. Junk load with the
 * default limits (payments with a 250 KB free-form field, unauthenticated
 * bodies of 1–10 MB, thousands of odd fields) must leave the heap bounded and
 * the log small; with a small store budget, records of the largest size keep
 * the store within its bytes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REPORT_PAGE_SIZE_MAX } from '../../src/contract/report-filters.js';
import { CARDS, DEFAULT_LIMITS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cardPayment, threeDsFields } from '../../src/sandbox/fixtures.js';
import { heapAfterGc, megabytes, rawExchange } from './sandbox-support.js';

let sandbox: Sandbox;
let port: number;

before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  port = Number(new URL(sandbox.url).port);
});
after(() => sandbox.close());

const post = (path: string, form: Record<string, string>, authorised = true) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: authorised ? { authorization: `Bearer ${sandbox.tokens[0]}` } : {},
    body: new URLSearchParams(authorised ? { entityId: sandbox.entities[0]!, ...form } : form),
  });

/** Samples the process's RSS while `work` runs; answers the largest seen. */
async function maxRssDuring(work: () => Promise<void>): Promise<number> {
  let max = process.memoryUsage().rss;
  const timer = setInterval(() => (max = Math.max(max, process.memoryUsage().rss)), 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(max, process.memoryUsage().rss);
}

describe('junk load leaves the sandbox small (issue 12, class 7)', () => {
  it('160 payments with a 250 KB free-form field, 1–10 MB unauthenticated bodies and odd-field floods: heap and log stay bounded', async () => {
    const baseline = heapAfterGc();
    const rssBefore = process.memoryUsage().rss;
    const wide = 'w'.repeat(250 * 1024);
    let refusedAsTooLarge = 0;
    const maxRss = await maxRssDuring(async () => {
      for (let batch = 0; batch < 16; batch++) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => post('/v1/payments', cardPayment({ 'customer.note': wide }))));
        for (const answer of answers) {
          const body = (await answer.json()) as { result: { code: string; description: string } };
          if (answer.status === 400 && /a stored record holds at most/.test(body.result.description)) refusedAsTooLarge++;
        }
      }
      for (const size of [1, 4, 10]) {
        const { responses } = await rawExchange(
          port,
          Buffer.concat([
            Buffer.from(`POST /v1/checkouts/x/widget/payments HTTP/1.1\r\nHost: x\r\nContent-Length: ${size << 20}\r\n\r\n`),
            Buffer.alloc(size << 20, 'j'),
          ]),
          { timeoutMs: 15_000 },
        );
        assert.equal(responses[0]?.status, 413);
      }
      const flood = Array.from({ length: DEFAULT_LIMITS.fields }, (_, i) => `customParameters[f${i}]=${'v'.repeat(200)}`).join('&');
      for (let i = 0; i < 20; i++) {
        const answer = await fetch(`${sandbox.url}/v1/threeDSecure/method`, { method: 'POST', body: flood });
        assert.equal(answer.status, 400);
      }
    });
    assert.equal(refusedAsTooLarge, 160, 'a 250 KB field is refused, never stored');
    const log = await fetch(`${sandbox.url}/__sandbox/requests`, { headers: { authorization: `Bearer ${sandbox.tokens[0]}` } });
    const logText = await log.text();
    assert.equal(log.status, 200);
    assert.ok(Buffer.byteLength(logText) < 2 * DEFAULT_LIMITS.logBytes, `the log answer is ${Buffer.byteLength(logText)} bytes`);
    const { storeBytes, logBytes } = sandbox.stats();
    assert.ok(logBytes <= DEFAULT_LIMITS.logBytes);
    const grown = heapAfterGc() - baseline;
    console.log(
      `# junk load: heap +${megabytes(grown)} after GC, RSS ${megabytes(rssBefore)} → max ${megabytes(maxRss)}, store ${storeBytes} bytes, log ${logBytes} bytes`,
    );
    // 160 × 250 KB kept in full (or behind a 14-character slice of each body) would be ~40 MB; what remains is the log and the allocator's slack.
    assert.ok(grown < 24 * 1024 * 1024, `heap grew by ${megabytes(grown)}`);
  });

  it('records of the largest accepted size keep the store within its byte budget, oldest dropped first', async () => {
    const small = await startSandbox({ port: 0, quiet: true, limits: { storeBytes: 512 * 1024 } });
    try {
      const field = 'v'.repeat(DEFAULT_LIMITS.recordBytes - 2048);
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) {
        const answer = await fetch(`${small.url}/v1/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${small.tokens[0]}` },
          body: new URLSearchParams({ entityId: small.entities[0]!, ...cardPayment({ 'customer.note': field }) }),
        });
        assert.equal(answer.status, 200);
        ids.push(((await answer.json()) as { id: string }).id);
        assert.ok(small.stats().storeBytes <= 512 * 1024, `store at ${small.stats().storeBytes} bytes`);
      }
      assert.ok(small.stats().payments < 20, `${small.stats().payments} payments kept`);
      const oldest = await fetch(`${small.url}/v1/payments/${ids[0]}?entityId=${small.entities[0]}`, {
        headers: { authorization: `Bearer ${small.tokens[0]}` },
      });
      assert.equal(oldest.status, 400, 'the oldest payment was dropped');
      const newest = await fetch(`${small.url}/v1/payments/${ids.at(-1)}?entityId=${small.entities[0]}`, {
        headers: { authorization: `Bearer ${small.tokens[0]}` },
      });
      assert.equal(newest.status, 200);
    } finally {
      await small.close();
    }
  });

  it('saved cards with the largest accepted standing instruction, and pending 3-D Secure payments with long result URLs, count against the same budget', async () => {
    const small = await startSandbox({ port: 0, quiet: true, limits: { storeBytes: 512 * 1024 } });
    const merchant = (path: string, form: Record<string, string>) =>
      fetch(`${small.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${small.tokens[0]}` },
        body: new URLSearchParams({ entityId: small.entities[0]!, ...form }),
      });
    try {
      const field = 'v'.repeat(DEFAULT_LIMITS.recordBytes - 4096);
      const card = Object.fromEntries(
        Object.entries(cardPayment()).filter(([name]) => name === 'paymentBrand' || name.startsWith('card.')),
      );
      for (let i = 0; i < 60; i++) {
        const answer =
          i % 2
            ? await merchant('/v1/registrations', { ...card, 'standingInstruction.note': field })
            : await merchant(
                '/v1/payments',
                cardPayment({
                  'card.number': CARDS.challengeNoMethod,
                  shopperResultUrl: `https://shop.example/result?${'q'.repeat(2000)}`,
                  merchantTransactionId: 'm'.repeat(255),
                  ...threeDsFields(),
                }),
              );
        assert.equal(answer.status, 200, await answer.text());
        assert.ok(small.stats().storeBytes <= 512 * 1024, `store at ${small.stats().storeBytes} bytes`);
      }
      assert.ok(small.stats().registrations < 30, `${small.stats().registrations} of 30 saved cards kept: they count against the budget`);
    } finally {
      await small.close();
    }
  });

  it('refused transactions of the largest accepted size (a card failing the Luhn check, a capture of nothing) count against the same budget', async () => {
    const small = await startSandbox({ port: 0, quiet: true, limits: { storeBytes: 512 * 1024 } });
    const merchant = (path: string, form: Record<string, string>, method = 'POST') =>
      fetch(`${small.url}${path}${method === 'GET' ? `?entityId=${small.entities[0]}` : ''}`, {
        method,
        headers: { authorization: `Bearer ${small.tokens[0]}` },
        ...(method === 'POST' ? { body: new URLSearchParams({ entityId: small.entities[0]!, ...form }) } : {}),
      });
    try {
      const field = 'v'.repeat(DEFAULT_LIMITS.recordBytes - 2048);
      const luhnFailing = `${CARDS.approved.slice(0, -1)}${(Number(CARDS.approved.at(-1)) + 1) % 10}`;
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) {
        const answer =
          i % 2
            ? await merchant(`/v1/payments/${'f'.repeat(32)}`, {
                paymentType: 'CP',
                amount: '1.00',
                currency: 'EUR',
                'customer.note': field,
              })
            : await merchant('/v1/payments', cardPayment({ 'card.number': luhnFailing, 'customer.note': field }));
        assert.equal(answer.status, 400);
        ids.push(((await answer.json()) as { id: string }).id);
        assert.ok(small.stats().storeBytes <= 512 * 1024, `store at ${small.stats().storeBytes} bytes`);
      }
      assert.ok(small.stats().payments < 20, `${small.stats().payments} refused transactions kept`);
      assert.equal((await merchant(`/v1/payments/${ids[0]}`, {}, 'GET')).status, 400, 'the oldest was dropped');
      assert.equal((await merchant(`/v1/payments/${ids.at(-1)}`, {}, 'GET')).status, 200);
    } finally {
      await small.close();
    }
  });

  it('the report of one order filed under hundreds of payments of the largest size answers only the newest page', async () => {
    const order = `order-${Date.now()}`;
    const field = 'v'.repeat(DEFAULT_LIMITS.recordBytes - 2048);
    const ids: string[] = [];
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => post('/v1/payments', cardPayment({ merchantTransactionId: order, 'customer.note': field }))),
      );
      for (const answer of answers) ids.push(((await answer.json()) as { id: string }).id);
    }
    const report = await fetch(`${sandbox.url}/v3/query?merchantTransactionId=${order}&entityId=${sandbox.entities[0]}`, {
      headers: { authorization: `Bearer ${sandbox.tokens[0]}` },
    });
    const text = await report.text();
    assert.equal(report.status, 200);
    const payments = (JSON.parse(text) as { payments: { id: string }[] }).payments;
    assert.equal(payments.length, REPORT_PAGE_SIZE_MAX);
    assert.deepEqual(new Set(payments.map((each) => each.id)), new Set(ids.slice(-REPORT_PAGE_SIZE_MAX)), 'the newest, none older');
    // Each payment answers at most what its record holds: the page is bounded by its size, however many the order has.
    assert.ok(
      Buffer.byteLength(text) <= REPORT_PAGE_SIZE_MAX * DEFAULT_LIMITS.recordBytes,
      `the report is ${Buffer.byteLength(text)} bytes`,
    );
  });
});
