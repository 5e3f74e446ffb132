/**
 * The platform's recorded answers (test/fixtures/real, each naming its public
 * source) replayed to the server helper through the gateway stand-in, and set beside
 * what the sandbox answers to the same kind of request: the same fields, value
 * types and formats (ids, ndc, buildNumber, timestamps).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { GatewayError, outcomeOf } from '../../src/server/index.js';
import { standInClient, type GatewayRequest } from '../support/gateway-stand-in.js';
import { RESULT_CODES } from '../../src/contract/result-codes.js';
import { passesLuhn } from '../../src/contract/card.js';
import { cardPayment } from '../../src/sandbox/fixtures.js';
import { CARDS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call } from '../sandbox/support.js';

interface RealAnswer {
  readonly name: string;
  readonly source: { repository: string; path: string; commit: string } | { url: string };
  readonly call:
    | 'createCheckout'
    | 'checkoutStatus'
    | 'payment'
    | 'registrationPayment'
    | 'paymentStatus'
    | 'report'
    | 'reportList'
    | 'capture'
    | 'refund'
    | 'reverse';
  readonly status: number;
  readonly expect: string;
  readonly answer: Record<string, any>;
}

const DIR = new URL('../fixtures/real/', import.meta.url);
const REAL: RealAnswer[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ name: file, ...(JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Omit<RealAnswer, 'name'>) }));

/** The platform's formats, as its recorded answers show them. */
const FORMAT = {
  checkoutId: /^[0-9A-F]{32}\.[a-z0-9]+-vm-tx\d{2}$/,
  transactionId: /^[0-9a-f]{32}$/,
  entityNdc: /^[A-Za-z0-9]{32}_[0-9a-f]{32}$/,
  buildNumber: /^[0-9a-f]{40}@\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000$/,
  paymentTimestamp: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\+0000$/,
  answerTimestamp: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/,
};

const ENTITY = '8a8294174b7ecb28014b9699220015ca';

/** The requests each replay sent. */
const sent = new Map<string, GatewayRequest[]>();

/**
 * A client of the gateway stand-in that answers `status` and `body` to whatever it is asked, on the entity the
 * answer names (a server-to-server transaction's `ndc` is `<entityId>_<32 hex>`; an answer of another entity is another request's).
 */
const replaying = (status: number, body: { ndc?: string }) =>
  standInClient(() => ({ status, body }), {
    baseUrl: 'https://eu-test.oppwa.com',
    accessToken: 'token',
    entityId: /^([0-9a-f]{32})_[0-9a-f]{32}$/.exec(body.ndc ?? '')?.[1] ?? ENTITY,
    reconcileDelaysMs: [],
    maxNetworkRetries: 0,
  });

const CARD_REQUEST = {
  paymentType: 'DB',
  amount: '1.00',
  currency: 'EUR',
  paymentBrand: 'VISA',
  merchantTransactionId: 'replay-1',
  card: { number: CARDS.approved, holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', cvv: '123' },
  customer: { email: 'jane@example.com', ip: '192.0.2.1' },
} as const;

/** A 16-digit card number passing the Luhn check with the answer's `card.bin` and `card.last4Digits`, if it names them. */
function cardNumberOf(card: { bin?: string; last4Digits?: string } | undefined): string {
  if (!card?.bin || !card.last4Digits) return CARDS.approved;
  const middle = '0'.repeat(16 - card.bin.length - 5);
  const candidates = Array.from({ length: 10 }, (_, digit) => `${card.bin}${middle}${digit}${card.last4Digits}`);
  return candidates.find(passesLuhn)!;
}

/**
 * What the client gives back for a replayed answer: a value or an error, never a crash. Each answer is replayed to
 * the request it answered (its checkout, transaction, type, amount, currency and card, where it names them), since
 * the client refuses an answer that is another request's.
 */
async function replay(real: RealAnswer): Promise<unknown> {
  const { client, calls: requests } = replaying(real.status, real.answer);
  sent.set(real.name, requests);
  const answered = real.answer as {
    id?: string;
    ndc?: string;
    paymentType?: string;
    amount?: string;
    currency?: string;
    card?: { bin?: string; last4Digits?: string };
  };
  const checkoutId = FORMAT.checkoutId.test(answered.ndc ?? '') ? answered.ndc! : 'A03A5F2526733FBB37C419B815E1C091.uat01-vm-tx03';
  const transactionId = answered.id ?? '8ac7a4a282d522f70182d53e7a873640';
  const terms = { amount: answered.amount ?? '1.00', currency: answered.currency ?? 'EUR' };
  const calls: Record<RealAnswer['call'], () => Promise<unknown>> = {
    createCheckout: () => client.checkouts.create({ amount: '92.00', currency: 'EUR', paymentType: 'DB' } as never),
    checkoutStatus: () => client.checkouts.getPayment(checkoutId),
    payment: () =>
      client.payments.create({
        ...CARD_REQUEST,
        paymentType: answered.paymentType ?? CARD_REQUEST.paymentType,
        ...terms,
        card: { ...CARD_REQUEST.card, number: cardNumberOf(answered.card) },
      } as never),
    registrationPayment: () =>
      client.registrations.createPayment('8a82944a5d98b2fd015d9d38d48c2612', {
        paymentType: answered.paymentType ?? 'DB',
        ...terms,
      } as never),
    paymentStatus: () => client.payments.get(transactionId),
    report: () => client.reports.get(transactionId),
    reportList: () => client.reports.findByMerchantTransactionId('test123'),
    capture: () => client.payments.capture('8a82944a5fe82704016002caa42c14f8', terms),
    refund: () => client.payments.refund('8a82944a5fe82704016002caa42c14f8', terms),
    reverse: () => client.payments.reverse('8a82944a5fe82704016002caa42c14f8'),
  };
  return calls[real.call]().catch((error: unknown) => error);
}

describe('recorded real answers, replayed to the server helper', () => {
  it('there are recorded answers, each naming its public source', () => {
    assert.ok(REAL.length >= 10);
    for (const real of REAL)
      assert.ok('url' in real.source || (real.source.repository && real.source.path && real.source.commit), real.name);
  });

  for (const real of REAL) {
    it(`${real.name}: parsed, classified as ${real.expect}, nothing lost`, async () => {
      const value = await replay(real);
      // A capture, refund or reversal is exactly one request: nothing is read before the money moves.
      if (['capture', 'refund', 'reverse'].includes(real.call))
        assert.deepEqual(
          sent.get(real.name)!.map((call) => `${call.method} ${call.path}`),
          ['POST /v1/payments/8a82944a5fe82704016002caa42c14f8'],
        );
      if (real.expect === 'checkout_created') {
        assert.deepEqual(value, real.answer);
        return;
      }
      if (real.expect === 'list') {
        assert.deepEqual((value as { payments: unknown[] }).payments, real.answer.payments);
        return;
      }
      const outcome = outcomeOf(value);
      assert.equal(outcome.kind, real.expect);
      assert.equal(outcome.resultCode, real.answer.result.code);
      if (value instanceof GatewayError) {
        assert.equal(value.description, real.answer.result.description);
        assert.equal(value.httpStatus, real.status);
        // Every field to fix is kept; the platform's `"value": null` (missing) reads as an entry without a value.
        const readable = (real.answer.result.parameterErrors ?? []).map(({ value, ...entry }: { value: unknown }) =>
          value === null ? entry : { ...entry, value },
        );
        assert.deepEqual(value.parameterErrors, readable);
      }
      // A payment answer (it has an id) is a payment that exists, whatever the HTTP status: the whole answer is kept.
      if (real.answer.id !== undefined) assert.deepEqual('payment' in outcome ? outcome.payment : undefined, real.answer);
    });
  }
});

/** Fields of the real answers the sandbox does not produce, each for a reason (README, "Differences from the real gateway"). */
const NOT_PRODUCED = new Set([
  'cart', // the merchant's basket: the kit never sends one
  'billing', // echoed only when the request sends a billing address (the sandbox echoes it then)
  'registrationId', // only when the request saved the card (the sandbox answers it then)
  'threeDSecure', // eci 07 on a payment without 3-D Secure: the sandbox answers threeDSecure only after a 3DS step or own-MPI data
]);

/** A card number that fails the Luhn check: the approved test card with its check digit changed. */
/** The request's groups a payment answer echoes (customer, billing…): present when the request sent them. */
const ECHOED_GROUPS = new Set(['customer', 'billing', 'recipient', 'customParameters', 'threeDSecure', 'standingInstruction']);

/** `{ street1: 'x' }` under `billing` as the wire's flat fields (`billing.street1=x`). */
const flatten = (group: string, fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [`${group}.${name}`, value]));

const LUHN_FAILING = `${CARDS.approved.slice(0, -1)}${(Number(CARDS.approved.at(-1)) + 1) % 10}`;

describe('the sandbox beside the recorded answers', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, quiet: true, entities: [ENTITY] });
  });
  after(() => sandbox.close());

  /** The sandbox's answer to the same kind of request the real answer was given to. */
  async function sandboxAnswer(real: RealAnswer): Promise<{ status: number; body: any }> {
    const checkout = () =>
      call(sandbox, 'POST', '/v1/checkouts', {
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        integrity: 'true',
        merchantTransactionId: 'order-1',
      });
    switch (real.call) {
      case 'createCheckout':
        return real.status === 200
          ? checkout()
          : call(sandbox, 'POST', '/v1/checkouts', {
              amount: real.answer.result.parameterErrors[0].value,
              currency: 'EUR',
              paymentType: 'DB',
              integrity: 'true',
            });
      case 'checkoutStatus': {
        const id = (await checkout()).body.id as string;
        if (real.status !== 200) return call(sandbox, 'GET', `/v1/checkouts/${id}x/payment`);
        const card = cardPayment({
          'card.number': `${real.answer.card.bin}1111111111`.slice(0, 16),
          'customer.ip': real.answer.customer.ip,
        });
        await call(
          sandbox,
          'POST',
          `/v1/checkouts/${id}/widget/payments`,
          { paymentBrand: 'VISA', ...Object.fromEntries(Object.entries(card).filter(([name]) => name.startsWith('card.'))) },
          { token: null, entityId: null },
        );
        return call(sandbox, 'GET', `/v1/checkouts/${id}/payment`);
      }
      case 'payment':
        if (real.answer.result.code === RESULT_CODES.invalidCard)
          // With the billing fields the recorded request sent (2017), which its refused transaction echoes.
          return call(
            sandbox,
            'POST',
            '/v1/payments',
            cardPayment({ 'card.number': LUHN_FAILING, ...flatten('billing', real.answer.billing ?? {}) }),
          );
        return call(sandbox, 'POST', '/v1/payments', cardPayment(real.status === 200 ? {} : { 'card.number': CARDS.declined }));
      case 'registrationPayment': {
        const card = Object.fromEntries(Object.entries(cardPayment()).filter(([name]) => name.startsWith('card.')));
        const registration = (await call(sandbox, 'POST', '/v1/registrations', { paymentBrand: 'VISA', ...card })).body.id as string;
        return call(sandbox, 'POST', `/v1/registrations/${registration}/payments`, {
          paymentType: real.answer.paymentType,
          amount: '10.00',
          currency: 'EUR',
        });
      }
      case 'paymentStatus': {
        const id = (
          await call(
            sandbox,
            'POST',
            '/v1/payments',
            cardPayment({ 'card.number': '4111111111111111', createRegistration: 'true', merchantTransactionId: 'order-1' }),
          )
        ).body.id as string;
        return call(sandbox, 'GET', `/v1/payments/${id}`);
      }
      case 'report':
        return call(sandbox, 'GET', '/v3/query/ffffffffffffffffffffffffffffffff');
      case 'reportList':
        await call(sandbox, 'POST', '/v1/payments', cardPayment({ merchantTransactionId: 'list-1' }));
        return call(sandbox, 'GET', '/v3/query', { merchantTransactionId: 'list-1' });
      case 'capture':
      case 'refund':
      case 'reverse': {
        const paymentType = { capture: 'CP', refund: 'RF', reverse: 'RV' }[real.call];
        // A capture with no successful preauthorisation behind it (here an id that names none): a refused CP transaction.
        if (real.answer.result.code === RESULT_CODES.captureWithoutPreauthorization)
          return call(sandbox, 'POST', '/v1/payments/ffffffffffffffffffffffffffffffff', { paymentType, amount: '1.00', currency: 'EUR' });
        const target = (
          await call(sandbox, 'POST', '/v1/payments', cardPayment({ paymentType: paymentType === 'RF' ? 'DB' : 'PA', amount: '1.00' }))
        ).body.id as string;
        // A refusal for missing fields: the same request without amount and currency.
        const money: Record<string, string> = real.status === 200 ? { amount: '1.00', currency: 'EUR' } : {};
        return call(
          sandbox,
          'POST',
          `/v1/payments/${target}`,
          paymentType === 'RV' && real.status !== 200 ? { paymentType: 'RF' } : { paymentType, ...money },
        );
      }
    }
  }

  for (const real of REAL) {
    it(`${real.name}: the same fields, value types and formats`, async () => {
      const mine = await sandboxAnswer(real);
      assert.equal(typeof mine.body, 'object');
      // A refusal answers a 4xx like the real one, a refused transaction too (it has an id); a payment the bank
      // declined answers 200 in the sandbox (README: differences).
      if (real.status >= 400 && (real.answer.id === undefined || real.answer.result.code === mine.body.result.code))
        assert.equal(mine.status, real.status);
      for (const key of Object.keys(real.answer)) {
        if (NOT_PRODUCED.has(key)) continue;
        assert.ok(key in mine.body, `${key} missing from the sandbox's answer`);
        assert.equal(Array.isArray(mine.body[key]), Array.isArray(real.answer[key]), key);
        assert.equal(typeof mine.body[key], typeof real.answer[key], key);
      }
      assert.deepEqual(Object.keys(mine.body.result).sort(), Object.keys(real.answer.result).sort());
      if (real.answer.result.code === mine.body.result.code) assert.equal(mine.body.result.description, real.answer.result.description);
      // Formats: whatever the real answer shows in a format the platform writes today, the sandbox writes too.
      for (const [field, pattern] of Object.entries({ id: FORMAT.checkoutId, ndc: FORMAT.checkoutId })) {
        if (pattern.test(real.answer[field] ?? '')) assert.match(mine.body[field], pattern, field);
      }
      for (const pattern of [FORMAT.transactionId]) if (pattern.test(real.answer.id ?? '')) assert.match(mine.body.id, pattern);
      if (FORMAT.entityNdc.test(real.answer.ndc)) assert.match(mine.body.ndc, new RegExp(`^${ENTITY}_[0-9a-f]{32}$`));
      if (FORMAT.buildNumber.test(real.answer.buildNumber)) assert.match(mine.body.buildNumber, FORMAT.buildNumber);
      // Since 2021 the platform writes a payment's timestamp with milliseconds, any other answer's without.
      if (real.answer.timestamp >= '2021') {
        const pattern = FORMAT.paymentTimestamp.test(real.answer.timestamp) ? FORMAT.paymentTimestamp : FORMAT.answerTimestamp;
        assert.match(mine.body.timestamp, pattern);
      }
      for (const [real1, mine1] of (real.answer.payments ?? []).map((payment: any, index: number) => [
        payment,
        mine.body.payments[index],
      ])) {
        for (const key of Object.keys(real1))
          if (!NOT_PRODUCED.has(key)) assert.equal(typeof mine1[key], typeof real1[key], `payments[].${key}`);
        assert.match(mine1.timestamp, FORMAT.paymentTimestamp);
      }
      // A refused transaction (a 4xx with an id) carries exactly the recorded fields: no money fields, no result
      // details; beside them only the request's echoed groups, which a recording shows when its request sent them.
      if (real.status >= 400 && real.answer.id !== undefined && real.answer.result.code === mine.body.result.code) {
        const shown = Object.keys(mine.body).filter((key) => key in real.answer || !ECHOED_GROUPS.has(key));
        assert.deepEqual(shown.sort(), Object.keys(real.answer).sort());
        if (real.answer.card) assert.deepEqual(Object.keys(mine.body.card).sort(), Object.keys(real.answer.card).sort());
      }
      // What the real answer lacks, the sandbox's lacks too (a capture, refund or reversal has no card or brand).
      for (const key of ['card', 'paymentBrand'])
        if (!(key in real.answer) && real.answer.id !== undefined)
          assert.ok(!(key in mine.body), `${key} in the sandbox's answer, not in the platform's`);
      // A missing parameter is `"value": null`, as the platform writes it.
      if ((real.answer.result.parameterErrors ?? []).some((entry: { value: unknown }) => entry.value === null)) {
        assert.ok(
          mine.body.result.parameterErrors.some((entry: { value: unknown }) => entry.value === null),
          'a missing parameter answered with value null',
        );
      }
      if (real.answer.card) {
        for (const key of Object.keys(real.answer.card))
          if (key !== 'issuer' || 'issuer' in mine.body.card)
            assert.equal(typeof mine.body.card[key], typeof real.answer.card[key], `card.${key}`);
      }
    });
  }
});
