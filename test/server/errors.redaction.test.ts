/** No card number, security code or access token in any error: message, stack, JSON, util.inspect, cause. */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, test } from 'node:test';
import {
  GatewayDeclinedError,
  GatewayError,
  GatewayNetworkError,
  GatewayValidationError,
  UncertainOutcomeError,
} from '../../src/server/index.js';
import { holdsCode } from '../adversarial/canaries.js';
import { GatewayStandIn } from '../support/gateway-stand-in.js';
import { card, CARDS, cardPayment, clientFor, useSandbox } from './fixtures.js';

const context = useSandbox();

/** Every way an error gets written down. */
function renderings(error: unknown) {
  assert.ok(error instanceof GatewayError, String(error));
  return {
    message: error.message,
    stack: error.stack ?? '',
    string: String(error),
    json: JSON.stringify(error),
    inspect: inspect(error, { depth: 10 }),
    inspectHidden: inspect(error, { depth: 10, showHidden: true }),
    cause: error.cause instanceof Error ? `${error.cause.message} ${error.cause.stack}` : '',
  };
}

/**
 * `secrets` (card numbers, tokens) nowhere; `codes` (security codes) nowhere standing alone: short enough to occur
 * inside the random ids an error rightly names (a payment id, a UUID `merchantTransactionId`), about 1 in 1,000 declines.
 */
function assertAbsent(error: unknown, secrets: string[], codes: string[] = []) {
  for (const [where, text] of Object.entries(renderings(error))) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `${where} contains ${secret}:\n${text}`);
    for (const code of codes) assert.ok(!holdsCode(text, code), `${where} contains ${code}:\n${text}`);
  }
}

describe('redaction', () => {
  test('a validation error shows masked values only', async () => {
    const { client } = clientFor(context.sandbox);
    const pan = '4200000000000001';
    const cvv = '97310';
    const error = await client.payments.create(cardPayment({ card: { ...card(pan), cvv } })).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.deepEqual(
      error.parameterErrors.filter((problem) => problem.name.startsWith('card.')).map(({ name, value }) => [name, value]),
      [
        ['card.number', '420000******0001'],
        ['card.cvv', '***'],
      ],
    );
    assertAbsent(error, [pan, context.sandbox.tokens[0]!], [cvv]);
    assert.match(renderings(error).inspect, /card\.number/, 'the field is still named');
  });

  test("a decline (PAN and CVV were sent) shows the gateway's bin and last 4 digits at most", async () => {
    const { client } = clientFor(context.sandbox);
    const error = await client.payments
      .create(cardPayment({ card: { ...card(CARDS.declined), cvv: '8642' } }))
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayDeclinedError);
    assertAbsent(error, [CARDS.declined, context.sandbox.tokens[0]!], ['8642']);
    assert.ok(!JSON.stringify(error.payment).includes(CARDS.declined));
    assert.match(renderings(error).json, /"paymentId":"\w+"/);
  });

  test('an uncertain outcome after a failed connection whose error quoted the card number and the token', async () => {
    const token = context.sandbox.tokens[0]!;
    const leakyFetch: typeof fetch = async (input, init) => {
      if (init?.method === 'POST') throw new TypeError(`socket hang up while sending card.number=${CARDS.approved} with Bearer ${token}`);
      return fetch(input, init);
    };
    const { client } = clientFor(context.sandbox, { fetch: leakyFetch });
    const error = await client.payments.create(cardPayment()).catch((caught: unknown) => caught);
    assert.ok(error instanceof UncertainOutcomeError);
    assertAbsent(error, [CARDS.approved, token]);
    // The chain keeps the connection's failure (its scrubbed copy), so a merchant can tell why.
    const network = (error.cause as Error).cause;
    assert.ok(network instanceof Error, 'the cause chain reaches the failed connection');
    assert.ok(!String(network).includes(token) && !String(network).includes(CARDS.approved), String(network));
  });

  test('a network error on a read: nothing of the token in message, stack, JSON or inspect', async () => {
    const token = context.sandbox.tokens[0]!;
    const { client } = clientFor(context.sandbox, {
      maxNetworkRetries: 0,
      fetch: new GatewayStandIn({
        script: () => {
          throw new Error(`connect ECONNREFUSED (authorization: Bearer ${token})`);
        },
      }).fetch,
    });
    const error = await client.reports.get('8ac7a4a17000000000000000000000aa').catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayNetworkError);
    assertAbsent(error, [token]);
    assert.match(renderings(error).cause, /ECONNREFUSED/, 'the cause stays useful');
  });

  test('standalone card-number-length digit runs are masked in messages; gateway ids that contain digit runs are kept', () => {
    const id = '8ac7a4a17000000000000000000000ff';
    const error = new GatewayError(`payment ${id} for card ${CARDS.approved}`, { cause: new Error(`number=${CARDS.approved}`) });
    assert.equal(error.message, `payment ${id} for card 420000******0000`);
    assert.equal((error.cause as Error).message, 'number=420000******0000');
  });

  test('the client object itself does not show the token', () => {
    const { client } = clientFor(context.sandbox);
    const token = context.sandbox.tokens[0]!;
    assert.ok(!inspect(client, { depth: 10, showHidden: true }).includes(token));
    assert.ok(!JSON.stringify(client).includes(token));
  });
});
