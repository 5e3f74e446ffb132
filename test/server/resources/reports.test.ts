/**
 * `reports.search`: the typed transaction search pages through `/v3/query`
 * against the real sandbox over loopback, on its controllable clock.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import { reportDate } from '../../../src/contract/report-filters.js';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import {
  GatewayAuthenticationError,
  GatewayNetworkError,
  GatewayValidationError,
  type GatewayClient,
  type Payment,
  type ReportSearch,
} from '../../../src/server/index.js';
import { cardPayment, clientFor, useSandbox } from '../fixtures.js';

const context = useSandbox();

beforeEach(() => context.sandbox.reset());

async function collect(iterable: AsyncIterable<Payment>): Promise<Payment[]> {
  const found: Payment[] = [];
  for await (const payment of iterable) found.push(payment);
  return found;
}

const ids = (payments: readonly Payment[]) => payments.map((payment) => payment.id);

/** The frame from `start` to the sandbox's now, to the second. */
const frameSince = (start: Date): ReportSearch => ({ from: start, to: context.sandbox.clock.now() });

async function debits(client: GatewayClient, count: number): Promise<Payment[]> {
  const made: Payment[] = [];
  for (let index = 0; index < count; index++) made.push(await client.payments.create(cardPayment({ amount: `${index + 1}.00` })));
  return made;
}

describe('reports.search: pages', () => {
  test('any number of transactions and any page size: every one, once, oldest first, one GET per page read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 4 }), async (count, pageSize) => {
        context.sandbox.reset();
        const { client, recorder } = clientFor(context.sandbox);
        const start = context.sandbox.clock.now();
        const made = await debits(client, count);
        const before = recorder.calls.length;
        const found = await collect(client.reports.search({ ...frameSince(start), pageSize }));
        assert.deepEqual(ids(found), ids(made));
        const queries = recorder.calls.slice(before);
        // Full pages are followed by one more read; the first short (or empty) page is the last.
        assert.equal(queries.length, Math.floor(count / pageSize) + 1);
        assert.deepEqual(
          queries.map((call) => call.url.searchParams.get('pageNo')),
          queries.map((_, index) => String(index + 1)),
        );
        assert.ok(queries.every((call) => call.url.searchParams.get('limit') === String(pageSize)));
      }),
      { numRuns: 25 },
    );
  });

  test('iteration can stop early: later pages are never read', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const start = context.sandbox.clock.now();
    await debits(client, 5);
    const before = recorder.calls.length;
    for await (const payment of client.reports.search({ ...frameSince(start), pageSize: 2 })) {
      assert.equal(payment.amount, '1.00');
      break;
    }
    assert.equal(recorder.calls.length - before, 1);
  });

  test('a gateway that ignores pageNo ends in a GatewayNetworkError, not an endless loop', async () => {
    const { client: seed } = clientFor(context.sandbox);
    const start = context.sandbox.clock.now();
    await debits(seed, 3);
    const { client } = clientFor(context.sandbox, {
      fetch: (input, init) => {
        const url = new URL(String(input));
        url.searchParams.delete('pageNo');
        return fetch(url, init);
      },
    });
    await assert.rejects(
      collect(client.reports.search({ ...frameSince(start), pageSize: 2 })),
      (error: unknown) => error instanceof GatewayNetworkError && /page 2/.test(error.message),
    );
  });
});

test('pages that overlap (a transaction listed again on the next page, or twice on one): each yielded once', async () => {
  const entry = (id: string) => ({
    id: `8ac7a4a17000000000000000000000${id}`,
    paymentType: 'RF',
    amount: '10.00',
    currency: 'EUR',
    result: { code: '000.100.110', description: 'ok' },
    timestamp: '2026-11-27 10:00:00.000+0000',
  });
  const pages: Record<string, string[]> = { 1: ['a1', 'a2'], 2: ['a2', 'a3'], 3: ['a4', 'a4'], 4: ['a5'] };
  const { client } = clientFor(context.sandbox, {
    fetch: async (input) => {
      const page = pages[new URL(String(input)).searchParams.get('pageNo')!] ?? [];
      const body = { result: { code: '000.000.100', description: 'successful request' }, payments: page.map(entry) };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  const found = await collect(
    client.reports.search({ from: new Date('2026-11-27T09:00:00Z'), to: new Date('2026-11-27T10:00:00Z'), pageSize: 2 }),
  );
  assert.deepEqual(
    ids(found),
    ['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => entry(id).id),
  );
});

describe('reports.search: filters', () => {
  test('a time frame on the sandbox clock: both bounds included, to the second', async () => {
    const { client } = clientFor(context.sandbox);
    const [first] = await debits(client, 1);
    context.sandbox.clock.advance(3600);
    const [second] = await debits(client, 1);
    context.sandbox.clock.advance(3600);
    const [third] = await debits(client, 1);
    const at = (payment: Payment) => new Date(`${payment.timestamp!.slice(0, 19).replace(' ', 'T')}Z`);
    const secondSecond = at(second!);
    assert.deepEqual(ids(await collect(client.reports.search({ from: at(first!), to: at(third!) }))), ids([first!, second!, third!]));
    assert.deepEqual(ids(await collect(client.reports.search({ from: secondSecond, to: secondSecond }))), [second!.id]);
    assert.deepEqual(
      ids(await collect(client.reports.search({ from: reportDate(at(first!)), to: reportDate(new Date(secondSecond.getTime() - 1000)) }))),
      [first!.id],
    );
    assert.deepEqual(ids(await collect(client.reports.search({ from: new Date(secondSecond.getTime() + 1000), to: at(third!) }))), [
      third!.id,
    ]);
  });

  test('payment types and methods; an order within a frame', async () => {
    const { client } = clientFor(context.sandbox);
    const start = context.sandbox.clock.now();
    const pa = await client.payments.create(cardPayment({ paymentType: 'PA', merchantTransactionId: 'order-types' }));
    const cp = await client.payments.capture(pa, { amount: '50.00', currency: 'EUR' });
    const db = await client.payments.create(cardPayment());
    const rf = await client.payments.refund(db.id, { amount: '1.00', currency: 'EUR' });
    const frame = frameSince(start);
    assert.deepEqual(ids(await collect(client.reports.search({ ...frame, paymentTypes: ['PA', 'CP'] }))), [pa.id, cp.id]);
    assert.deepEqual(ids(await collect(client.reports.search({ ...frame, paymentTypes: ['RF'] }))), [rf.id]);
    assert.deepEqual(ids(await collect(client.reports.search({ ...frame, paymentMethods: ['CC'] }))), [pa.id, cp.id, db.id, rf.id]);
    assert.deepEqual(ids(await collect(client.reports.search({ ...frame, paymentMethods: ['DC'] }))), []);
    assert.deepEqual(ids(await collect(client.reports.search({ ...frame, merchantTransactionId: 'order-types' }))), [pa.id, cp.id]);
    assert.deepEqual(ids(await collect(client.reports.search({ merchantTransactionId: 'order-types', paymentTypes: ['CP'] }))), [cp.id]);
  });

  test('includeLinkedTransactions adds the referenced payment and those referencing a match, also outside the frame', async () => {
    const { client } = clientFor(context.sandbox);
    const start = context.sandbox.clock.now();
    const pa = await client.payments.create(cardPayment({ paymentType: 'PA' }));
    const paFrame = frameSince(start);
    context.sandbox.clock.advance(7200);
    const cpStart = context.sandbox.clock.now();
    const cp = await client.payments.capture(pa.id, { amount: '10.00', currency: 'EUR' });
    const other = await client.payments.create(cardPayment());
    assert.deepEqual(ids(await collect(client.reports.search(paFrame))), [pa.id]);
    assert.deepEqual(ids(await collect(client.reports.search({ ...paFrame, includeLinkedTransactions: true }))), [pa.id, cp.id]);
    const cpOnly = { ...frameSince(cpStart), paymentTypes: ['CP'] } as const;
    // The type filter applies to what is answered, linked transactions included.
    assert.deepEqual(ids(await collect(client.reports.search({ ...cpOnly, includeLinkedTransactions: true }))), [cp.id]);
    assert.deepEqual(ids(await collect(client.reports.search({ ...frameSince(cpStart), includeLinkedTransactions: true }))), [
      pa.id,
      cp.id,
      other.id,
    ]);
  });
});

describe('reports.search: refusals', () => {
  const bad: [string, unknown, string][] = [
    ['neither order nor frame', {}, 'merchantTransactionId'],
    ['a frame without its end', { from: new Date() }, 'date.to'],
    ['an end before the start', { from: '2024-01-02 00:00:00', to: '2024-01-01 23:59:59' }, 'date.to'],
    ['no such day', { from: '2024-02-30 00:00:00', to: '2024-03-01 00:00:00' }, 'date.from'],
    ['ISO instead of the platform format', { from: '2024-01-01T00:00:00Z', to: '2024-01-02 00:00:00' }, 'date.from'],
    ['an invalid Date', { from: new Date(Number.NaN), to: new Date() }, 'date.from'],
    ['an unknown payment type', { merchantTransactionId: 'o-1', paymentTypes: ['XX'] }, 'paymentTypes'],
    ['no payment type at all', { merchantTransactionId: 'o-1', paymentTypes: [] }, 'paymentTypes'],
    ['a payment method of three letters', { merchantTransactionId: 'o-1', paymentMethods: ['CCC'] }, 'paymentMethods'],
    ['a page of 0', { merchantTransactionId: 'o-1', pageSize: 0 }, 'limit'],
    ['a page above the maximum', { merchantTransactionId: 'o-1', pageSize: 101 }, 'limit'],
    ['a fractional page', { merchantTransactionId: 'o-1', pageSize: 2.5 }, 'limit'],
    ['a reference too long', { merchantTransactionId: 'x'.repeat(256) }, 'merchantTransactionId'],
  ];
  for (const [name, search, field] of bad) {
    test(`${name}: GatewayValidationError naming ${field}, nothing sent`, () => {
      const { client, recorder } = clientFor(context.sandbox);
      assert.throws(
        () => client.reports.search(search as ReportSearch),
        (error: unknown) => error instanceof GatewayValidationError && error.parameterErrors!.some((entry) => entry.name === field),
      );
      assert.equal(recorder.calls.length, 0);
    });
  }

  test('a wrong token: GatewayAuthenticationError (800.900.300) on the first page', async () => {
    const { client } = clientFor(context.sandbox, { accessToken: 'not-the-token' });
    await assert.rejects(
      collect(client.reports.search({ merchantTransactionId: 'o-1' })),
      (error: unknown) => error instanceof GatewayAuthenticationError && error.resultCode === RESULT_CODES.unauthorized,
    );
  });
});
