/**
 * Issue 12, class 6: no access token, card number or security code in
 * anything the client builds. Canaries are planted in every field of a request
 * and in the gateway's (or a proxy's) answers, which echo the form, the
 * Authorization header and the fields; then every output is searched: the
 * message, stack, JSON, util.inspect, the cause chain, the attached payment,
 * the outcome, and the payments handed back.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { GatewayError, GatewayValidationError, outcomeOf, type CardPaymentRequest, type GatewayClient } from '../../src/server/index.js';
import { billing, cardPayment, clientFor, useSandbox } from '../server/fixtures.js';
import { leakIn } from './canaries.js';
import { answer, PAYMENT_ID, standInClient, TOKEN, type GatewayRequest } from '../support/gateway-stand-in.js';
import { NO_PAYMENT_SESSION_DESCRIPTION } from '../../src/contract/result-codes.js';

const PAN = '4111111111111111';
const FOREIGN_PAN = '5454545454545454';
const CVV = '9731';
const SECRETS = [TOKEN, PAN, FOREIGN_PAN, CVV];
/** The CVV is looked for only where it stands alone outside ids: a random UUID or payment id can hold any 4 digits. */
const CANARIES = { token: TOKEN, cardNumbers: [PAN, FOREIGN_PAN], codes: [CVV] };

/** A card payment with the canaries in every free field, each in a different setting (alone, in text, glued to letters). */
function plantedPayment(): CardPaymentRequest {
  return cardPayment({
    merchantTransactionId: `canary-${PAN}`,
    card: { number: PAN, holder: `Jane ${FOREIGN_PAN} ${CVV}`, expiryMonth: '05', expiryYear: '2034', cvv: CVV },
    customer: {
      email: `x${FOREIGN_PAN}@example.com`,
      ip: '192.0.2.10',
      givenName: `Ann${CVV}`,
      surname: `${PAN}`,
      merchantCustomerId: `c-${PAN}-${CVV}`,
    },
    billing: { ...billing, street1: `Main ${CVV}`, city: `${FOREIGN_PAN}` },
    shopperResultUrl: `https://shop.example/return?card=${PAN}&cvv=${CVV}`,
    customParameters: { note: `token ${TOKEN} card ${PAN} cvv ${CVV}`, [`k${FOREIGN_PAN}`]: 'v' },
  });
}

/** Every way an error, its causes, its payment and its outcome get written down. */
function renderings(value: unknown): string[] {
  const texts = [String(value), JSON.stringify(value) ?? '', inspect(value, { depth: Infinity, showHidden: true })];
  if (value instanceof Error) {
    texts.push(value.message, value.stack ?? '');
    for (let cause = value.cause; cause !== undefined && cause !== null; cause = (cause as Error).cause) {
      texts.push(
        String(cause),
        inspect(cause, { depth: Infinity, showHidden: true }),
        (cause as Error).stack ?? '',
        JSON.stringify(cause) ?? '',
      );
      if (!(cause instanceof Error)) break;
    }
  }
  if (value instanceof GatewayError) {
    texts.push(JSON.stringify(value.payment) ?? '', inspect(value.payment, { depth: Infinity }), JSON.stringify(value.parameterErrors));
    const outcome = outcomeOf(value);
    texts.push(JSON.stringify(outcome), inspect(outcome, { depth: Infinity }));
  }
  return texts;
}

function assertClean(value: unknown, where: string) {
  for (const text of renderings(value)) {
    const leak = leakIn(text, CANARIES);
    assert.equal(leak, undefined, `${where}: ${leak} leaked in\n${text.slice(0, 2000)}`);
  }
}

/** Answers that echo the request back, as a misbehaving gateway or proxy might. */
type Echo = (call: GatewayRequest) => { status: number; body?: unknown; raw?: string };
const echoes: Record<string, Echo> = {
  'the form in the description': (call) => ({ status: 400, body: answer('200.300.404', {}, `invalid request: ${call.body}`) }),
  'the Authorization header in the description': (call) => ({
    status: 401,
    body: answer('800.900.300', {}, `refused: authorization: ${call.authorization}`),
  }),
  'every field as parameterErrors': (call) => ({
    status: 400,
    body: {
      result: {
        code: '200.300.404',
        description: 'invalid',
        parameterErrors: [...call.form].map(([name, value]) => ({ name, value, message: `bad ${name}=${value}` })),
      },
    },
  }),
  'a declined payment echoing every field': (call) => ({
    status: 200,
    body: answer('800.100.152', {
      id: PAYMENT_ID,
      paymentType: 'DB',
      amount: '92.00',
      currency: 'EUR',
      merchantTransactionId: call.form.get('merchantTransactionId'),
      echoed: Object.fromEntries(call.form),
      card: { number: call.form.get('card.number'), cvv: call.form.get('card.cvv'), holder: call.form.get('card.holder') },
    }),
  }),
  'an uncertain answer echoing the form, then look-ups echoing the header': (call) =>
    call.method === 'POST'
      ? { status: 504, body: answer('900.100.300', {}, `timeout for ${call.body}`) }
      : { status: 500, body: answer('800.800.800', {}, `report failed for ${call.authorization} ${call.url}`) },
  'a proxy page quoting the form': (call) => ({ status: 502, raw: `<html>bad gateway for ${call.body} ${call.authorization}</html>` }),
};

/** A thrown fetch error quoting the request. */
const throwingFetch: Echo = (call) => {
  throw new TypeError(`request to ${call.url} with ${call.body} and ${call.authorization} failed`, {
    cause: new Error(`socket: ${call.body}`, { cause: { token: TOKEN } }),
  });
};

const methods: Record<string, (client: GatewayClient) => Promise<unknown>> = {
  'payments.create': (client) => client.payments.create(plantedPayment()),
  'payments.get': (client) => client.payments.get(PAYMENT_ID),
  // A merchant's reference is an identifier: masked by the request's own secrets only, never by shape (an order number
  // holding a millisecond timestamp can pass the Luhn check), so a look-up key is planted without a card number.
  'reports.findByMerchantTransactionId': (client) => client.reports.findByMerchantTransactionId('canary-order-1'),
};

describe('class 6: canaries never leave the client', () => {
  for (const [name, echo] of Object.entries({ ...echoes, 'a fetch that throws, quoting the request': throwingFetch })) {
    for (const [method, call] of Object.entries(methods)) {
      test(`${method}, ${name}`, async () => {
        const { client } = standInClient((request) => {
          const reply = echo(request);
          return reply.raw === undefined ? { status: reply.status, body: reply.body } : { status: reply.status, raw: reply.raw };
        });
        const result = await call(client).catch((caught: unknown) => caught);
        assertClean(result, `${method} / ${name}`);
      });
    }
  }

  test('a successful answer echoing the form and the header hands back no token, card number or CVV', async () => {
    const { client } = standInClient((call) => ({
      status: 200,
      body: answer('000.100.110', {
        id: PAYMENT_ID,
        paymentType: 'DB',
        // The request's own key (an answer naming another order's is another request's, and is not returned).
        merchantTransactionId: call.form.get('merchantTransactionId'),
        merchantInvoiceId: 'canary-order-1',
        descriptor: `${call.body} ${call.authorization}`,
        customParameters: Object.fromEntries(call.form),
        card: { holder: call.form.get('card.holder'), cvv: call.form.get('card.cvv') },
      }),
    }));
    const payment = await client.payments.create(plantedPayment());
    // The request's own secrets; a card number it did not know stays in the merchant's own data (only errors mask by shape).
    assert.equal(leakIn(JSON.stringify(payment), { ...CANARIES, cardNumbers: [PAN] }), undefined, JSON.stringify(payment));
    assert.equal(
      (payment as unknown as { merchantInvoiceId?: string }).merchantInvoiceId,
      'canary-order-1',
      "the gateway's copy of a reference without secrets is intact",
    );
  });

  test('the token passed by mistake as an option or a query value is never in the refusal', async () => {
    const { client, calls } = standInClient(() => ({ status: 200, body: answer('000.000.000') }));
    const checkout = 'ABCE449B5FC84ED5A1C7174840C7A3F8.uat01-vm-tx03';
    for (const refused of [
      () => client.handleShopperReturn({ id: checkout, resourcePath: `/v1/checkouts/${checkout}/payment` }, { entityId: TOKEN }),
      () => client.handleShopperReturn({ resourcePath: TOKEN }),
      () => client.handleShopperReturn({ id: TOKEN, resourcePath: `/v1/checkouts/${TOKEN}/payment` }),
      () => client.payments.get(PAYMENT_ID, { entityId: TOKEN }),
    ]) {
      const error = await refused().then(
        () => assert.fail('accepted'),
        (failure: unknown) => failure,
      );
      assert.equal((error as Error).name, 'GatewayValidationError');
      assertClean(error, String(refused));
    }
    assert.equal(calls.length, 0, 'nothing was sent');
  });

  test("the token without its padding has a checkout id's shape: read as one, whatever the gateway answers, no error or outcome names it", async () => {
    const unpadded = TOKEN.replace(/=+$/, '');
    assert.notEqual(unpadded, TOKEN, 'the canary token is padded, so its unpadded spelling is a distinct case');
    const answers = [
      { status: 400, body: answer('200.300.404', {}, NO_PAYMENT_SESSION_DESCRIPTION) },
      { status: 200, body: answer('000.200.000') },
      { status: 200, body: answer('000.100.110', { paymentType: 'RG' }) },
    ];
    for (const reply of answers) {
      const { client } = standInClient(() => reply);
      for (const read of [
        () => client.handleShopperReturn({ resourcePath: `/v1/checkouts/${unpadded}/payment` }),
        () => client.handleShopperReturn({ resourcePath: `/v1/checkouts/${unpadded}/registration` }, { expect: 'registration' }),
        () => client.checkouts.getPayment(unpadded),
      ]) {
        const outcome = await read().then(
          (value) => value,
          (failure: unknown) => failure,
        );
        assertClean(outcome, `${String(read)} answered ${JSON.stringify(reply.body).slice(0, 80)}`);
      }
    }
  });

  test("a payment's outcome message is the gateway's description masked: a card number or labelled code in it never reaches a log or a page", () => {
    for (const code of ['000.100.110', '000.200.000']) {
      const outcome = outcomeOf(answer(code, {}, `processed for card ${PAN.match(/.{4}/g)!.join(' ')} cvv=${CVV}`));
      assert.ok(outcome.kind === 'approved' || outcome.kind === 'pending');
      assert.equal(leakIn(outcome.message, CANARIES), undefined, outcome.message);
    }
  });

  test("the sandbox's own validation error on a PAN typed into the holder name, and on the request's CVV echoed anywhere", async () => {
    const { client } = clientFor(context.sandbox);
    const error = await client.payments
      .create(cardPayment({ card: { number: PAN, holder: `${PAN}`, expiryMonth: '13', expiryYear: '2034', cvv: CVV } }))
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError, String(error));
    assertClean(error, 'validation');
  });

  test('property: arbitrary fields holding the canaries, through a gateway that echoes everything, leak nothing', async () => {
    const planted = fc.constantFrom(...SECRETS.map((secret) => ` ${secret} `), `x${FOREIGN_PAN}y`, `${CVV}-`, `=${PAN}&`);
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('descriptor', 'note', 'OrderID', 'trace'),
          fc.tuple(fc.stringMatching(/^[a-z .,:-]{0,8}$/), planted, fc.stringMatching(/^[a-z .,:-]{0,8}$/)).map((parts) => parts.join('')),
        ),
        fc.constantFrom(...Object.keys(echoes)),
        async (custom, echoName) => {
          const { client } = standInClient((call) => {
            const reply = echoes[echoName]!(call);
            return reply.raw === undefined ? { status: reply.status, body: reply.body } : { status: reply.status, raw: reply.raw };
          });
          const result = await client.payments.create({ ...plantedPayment(), customParameters: custom }).catch((caught: unknown) => caught);
          assertClean(result, echoName);
        },
      ),
      { numRuns: 60 },
    );
  });
});

const context = useSandbox();
