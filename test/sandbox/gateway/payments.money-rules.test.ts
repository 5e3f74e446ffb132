/**
 * The money rules a careful gateway keeps, and the sandbox with it: money moves
 * only in amounts above 0.00, a captured PA is never reversed nor a reversed
 * one captured, a checkout is paid once even when 3DS attempts finish late,
 * and a payment approved after its checkout's lifetime is still found.
 * Concurrent requests never break these rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_PAYMENT_SESSION_DESCRIPTION, RESULT_CODES } from '../../../src/contract/result-codes.js';
import { browserCall, cardPayment, CARDS, formFields, postForm, threeDsFields, useSandbox, widgetCard, type Answer } from '../support.js';

const handle = useSandbox();
const { call } = handle;

const approved = (answer: Answer) => answer.body.result.code === RESULT_CODES.approvedIntegratorTest;
const preauthorisation = async (amount = '50.00') =>
  (await call('POST', '/v1/payments', cardPayment({ paymentType: 'PA', amount }))).body.id as string;
const reference = (id: string, paymentType: string, amount?: string) =>
  call('POST', `/v1/payments/${id}`, { paymentType, currency: 'EUR', ...(amount ? { amount } : {}) });

async function checkout(extra: Record<string, string> = {}): Promise<string> {
  return (
    await call('POST', '/v1/checkouts', {
      amount: '25.00',
      currency: 'EUR',
      paymentType: 'DB',
      integrity: 'true',
      ...threeDsFields(),
      ...extra,
    })
  ).body.id;
}

const widgetPayment = (checkoutId: string, number: string) =>
  browserCall(handle.sandbox, 'POST', `/v1/checkouts/${checkoutId}/widget/payments`, widgetCard(number));

/** Walks a pending attempt's challenge as the shopper's browser would, answering `outcome`. */
async function completeChallenge(
  redirect: { url: string; parameters: { name: string; value: string }[] },
  outcome = 'complete',
): Promise<Response> {
  const acs = await postForm(redirect.url, redirect.parameters);
  const fields = formFields(await acs.text());
  return postForm(`${handle.sandbox.url}/v1/threeDSecure/challenge`, [
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'outcome', value: outcome },
  ]);
}

describe('money moves only in amounts above 0.00', () => {
  const debit = async () => (await call('POST', '/v1/payments', cardPayment())).body.id as string;
  const none = async () => '';
  for (const [what, target, send] of [
    ['a capture', preauthorisation, (id: string) => reference(id, 'CP', '0.00')],
    ['a refund', debit, (id: string) => reference(id, 'RF', '0.00')],
    ['a debit', none, () => call('POST', '/v1/payments', cardPayment({ amount: '0.00' }))],
    ['a preauthorisation', none, () => call('POST', '/v1/payments', cardPayment({ paymentType: 'PA', amount: '0.00' }))],
    ['a checkout', none, () => call('POST', '/v1/checkouts', { amount: '0.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' })],
  ] as const) {
    it(`${what} of 0.00 answers HTTP 400 100.550.300 and records nothing`, async () => {
      const id = await target();
      const before = handle.sandbox.stats();
      const answer = await send(id);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.result.code, RESULT_CODES.amountTooLow);
      assert.equal(answer.body.id, undefined);
      const after = handle.sandbox.stats();
      assert.deepEqual([after.checkouts, after.payments], [before.checkouts, before.payments]);
    });
  }

  it('a PA "captured" with 0.00 can still be reversed, and only reversed: the refused capture changed nothing', async () => {
    const pa = await preauthorisation();
    assert.equal((await reference(pa, 'CP', '0.00')).body.result.code, RESULT_CODES.amountTooLow);
    assert.ok(approved(await reference(pa, 'RV')));
    assert.equal((await reference(pa, 'CP', '10.00')).body.result.code, RESULT_CODES.cannotCapture);
  });
});

describe('captures and reversals exclude each other', () => {
  it('a reversal after a capture is refused (700.400.300), and a capture after a reversal (700.400.100)', async () => {
    const captured = await preauthorisation();
    assert.ok(approved(await reference(captured, 'CP', '0.01')));
    assert.equal((await reference(captured, 'RV')).body.result.code, RESULT_CODES.cannotReverse);
    assert.ok(approved(await reference(captured, 'CP', '49.99')), 'the capture can go on to the full amount');

    const reversed = await preauthorisation();
    assert.ok(approved(await reference(reversed, 'RV')));
    assert.equal((await reference(reversed, 'CP', '0.01')).body.result.code, RESULT_CODES.cannotCapture);
    assert.equal((await reference(reversed, 'RV')).body.result.code, RESULT_CODES.cannotReverse);
  });

  it('concurrent captures, reversals and refunds on one PA: captured never above the PA, never both captured and reversed', async () => {
    for (let round = 0; round < 5; round++) {
      const pa = await preauthorisation('10.00');
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, () => reference(pa, 'CP', '3.00')),
        ...Array.from({ length: 3 }, () => reference(pa, 'RV')),
      ]);
      const captures = answers.slice(0, 8).filter(approved);
      const reversals = answers.slice(8).filter(approved);
      assert.ok(captures.length * 300 <= 1000, `captured ${captures.length} × 3.00 of 10.00`);
      assert.ok(reversals.length <= 1);
      assert.ok(captures.length === 0 || reversals.length === 0, 'captured and reversed');
      const refunds = await Promise.all(
        captures.flatMap((capture) => Array.from({ length: 3 }, () => reference(capture.body.id, 'RF', '2.00'))),
      );
      assert.ok(refunds.filter(approved).length <= captures.length, 'at most one 2.00 refund of each 3.00 capture');
    }
  });
});

describe('a checkout is paid once', () => {
  it('an attempt whose challenge ends after another attempt paid the checkout is refused with 800.110.100', async () => {
    const id = await checkout();
    const late = await widgetPayment(id, CARDS.challengeNoMethod);
    assert.equal(late.body.result.code, RESULT_CODES.pending);
    const paid = await widgetPayment(id, CARDS.approved);
    assert.ok(approved(paid));
    const back = await completeChallenge(late.body.redirect);
    assert.equal(back.status, 303);
    const payment = await call('GET', `/v1/payments/${late.body.id}`);
    assert.equal(payment.body.result.code, RESULT_CODES.duplicateTransaction);
    const status = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(status.body.id, paid.body.id, 'the status read shows the one payment that was approved');
  });

  it('of two attempts pending 3DS, only the first to finish is approved', async () => {
    const id = await checkout();
    const first = await widgetPayment(id, CARDS.challengeNoMethod);
    const second = await widgetPayment(id, CARDS.challengeNoMethod);
    await Promise.all([completeChallenge(second.body.redirect), completeChallenge(first.body.redirect)]);
    const results = await Promise.all(
      [first, second].map(async (attempt) => (await call('GET', `/v1/payments/${attempt.body.id}`)).body.result.code),
    );
    assert.equal(results.filter((code) => code === RESULT_CODES.approvedIntegratorTest).length, 1, results.join(', '));
    assert.equal(results.filter((code) => code === RESULT_CODES.duplicateTransaction).length, 1, results.join(', '));
  });

  it('parallel widget payments on one checkout never approve twice', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await checkout();
      const answers = await Promise.all(Array.from({ length: 12 }, () => widgetPayment(id, CARDS.approved)));
      assert.equal(answers.filter(approved).length, 1);
      for (const answer of answers.filter((answer) => !approved(answer)))
        assert.equal(answer.body.result.code, RESULT_CODES.invalidParameter);
    }
  });
});

describe('a payment approved after its checkout expired is still found', () => {
  it('the status read and the report show a challenge completed after the 30 minutes', async () => {
    handle.sandbox.reset();
    const id = await checkout({ merchantTransactionId: 'late-challenge-1' });
    handle.sandbox.clock.advance(29 * 60);
    const attempt = await widgetPayment(id, CARDS.challengeNoMethod);
    handle.sandbox.clock.advance(5 * 60);
    assert.equal((await browserCall(handle.sandbox, 'GET', `/v1/checkouts/${id}/widget`)).status, 400, 'the checkout takes no new attempt');
    const back = await completeChallenge(attempt.body.redirect);
    assert.equal(back.status, 303);
    const status = await call('GET', `/v1/checkouts/${id}/payment`);
    assert.equal(status.status, 200);
    assert.equal(status.body.id, attempt.body.id);
    assert.equal(status.body.result.code, RESULT_CODES.approvedIntegratorTest);
    const report = await call('GET', '/v3/query', { merchantTransactionId: 'late-challenge-1' });
    assert.deepEqual(
      report.body.payments.map((payment: { id: string }) => payment.id),
      [attempt.body.id],
    );
  });

  it('an expired checkout whose late attempt failed is swept once the attempt can no longer finish', async () => {
    handle.sandbox.reset();
    const id = await checkout();
    handle.sandbox.clock.advance(29 * 60);
    const attempt = await widgetPayment(id, CARDS.challengeNoMethod);
    handle.sandbox.clock.advance(5 * 60);
    assert.equal(handle.sandbox.stats().checkouts, 1, 'kept while its attempt may still finish');
    await completeChallenge(attempt.body.redirect, 'fail');
    assert.equal((await call('GET', `/v1/checkouts/${id}/payment`)).body.result.description, NO_PAYMENT_SESSION_DESCRIPTION);
    handle.sandbox.clock.advance(30 * 60);
    assert.equal(handle.sandbox.stats().checkouts, 0);
  });
});

describe('a capture can be reversed, as the platform names it among what a reversal takes back', () => {
  it('the reversed capture gives its amount back to the preauthorisation, once; it can no longer be refunded', async () => {
    const pa = await preauthorisation();
    const capture = await reference(pa, 'CP', '30.00');
    assert.ok(approved(capture));
    assert.ok(approved(await reference(capture.body.id, 'RV')));
    assert.equal((await reference(capture.body.id, 'RV')).body.result.code, RESULT_CODES.cannotReverse);
    assert.equal((await reference(capture.body.id, 'RF', '1.00')).body.result.code, RESULT_CODES.cannotRefund);
    // The whole preauthorisation can be captured again, and no more.
    assert.ok(approved(await reference(pa, 'CP', '50.00')));
    assert.equal((await reference(pa, 'CP', '0.01')).body.result.code, RESULT_CODES.cannotCapture);
  });
});
