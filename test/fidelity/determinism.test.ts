/**
 * `idSeed` reproduces whole answers: two sandboxes with the same seed, on the
 * same (frozen) clock, answer the same requests with the same bytes — ids, ndc,
 * short ids, connector ids, end-to-end ids, 3DS session data and UUIDs included.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { cardPayment, threeDsFields } from '../../src/sandbox/fixtures.js';
import { CARDS, startSandbox } from '../../src/sandbox/index.js';
import { call, postForm } from '../sandbox/support.js';

/** The port every session listens on: the sandbox's own address is in its 3DS URLs, and is not generated. */
let port = 0;

/** Every answer body of one scripted session, as text. */
async function session(seed: string | undefined): Promise<string[]> {
  const sandbox = await startSandbox({ port, quiet: true, ...(seed === undefined ? {} : { idSeed: seed }) });
  port = Number(new URL(sandbox.url).port);
  const texts: string[] = [];
  const keep = (answer: { body: unknown }) => {
    texts.push(JSON.stringify(answer.body));
    return answer.body as Record<string, any>;
  };
  try {
    const checkout = keep(
      await call(sandbox, 'POST', '/v1/checkouts', { amount: '12.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }),
    );
    keep(
      await call(
        sandbox,
        'POST',
        `/v1/checkouts/${checkout.id}/widget/payments`,
        {
          paymentBrand: 'VISA',
          'card.number': CARDS.approved,
          'card.holder': 'Jane Jones',
          'card.expiryMonth': '05',
          'card.expiryYear': '2034',
          'card.cvv': '123',
        },
        { token: null, entityId: null },
      ),
    );
    keep(await call(sandbox, 'GET', `/v1/checkouts/${checkout.id}/payment`));
    keep(await call(sandbox, 'GET', `/v1/checkouts/${checkout.id}/payment`));
    const payment = keep(
      await call(
        sandbox,
        'POST',
        '/v1/payments',
        cardPayment({
          merchantTransactionId: 'seeded-1',
          createRegistration: 'true',
          'standingInstruction.type': 'UNSCHEDULED',
          'standingInstruction.mode': 'INITIAL',
          'standingInstruction.source': 'CIT',
        }),
      ),
    );
    keep(await call(sandbox, 'POST', '/v1/payments', cardPayment({ 'card.number': CARDS.declined, merchantTransactionId: 'seeded-1' })));
    keep(await call(sandbox, 'POST', `/v1/payments/${payment.id}`, { paymentType: 'RF', amount: '1.00', currency: 'EUR' }));
    const pending = keep(
      await call(sandbox, 'POST', '/v1/payments', cardPayment({ 'card.number': CARDS.frictionless, ...threeDsFields() })),
    );
    await postForm(pending.redirect.preconditions[0].url, pending.redirect.preconditions[0].parameters);
    await postForm(pending.redirect.url, pending.redirect.parameters);
    keep(await call(sandbox, 'GET', `/v1/payments/${pending.id}`));
    keep(await call(sandbox, 'GET', '/v3/query', { merchantTransactionId: 'seeded-1' }));
    keep(await call(sandbox, 'GET', '/v3/query/ffffffffffffffffffffffffffffffff'));
    keep(await call(sandbox, 'POST', '/v1/payments', cardPayment(), { token: 'wrong' }));
    return texts;
  } finally {
    await sandbox.close();
    // Let the client's pooled connections see the close before the next sandbox takes the port.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('idSeed reproduces every answer byte for byte', () => {
  it('two sandboxes with the same seed answer the same requests identically; another seed, or none, does not', async () => {
    mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 10, 23, 9, 0, 0) });
    try {
      const first = await session('fidelity-1');
      const second = await session('fidelity-1');
      assert.equal(first.length, 12);
      assert.deepEqual(second, first);
      assert.notDeepEqual(await session('fidelity-2'), first);
      assert.notDeepEqual(await session(undefined), await session(undefined));
    } finally {
      mock.timers.reset();
    }
  });
});
