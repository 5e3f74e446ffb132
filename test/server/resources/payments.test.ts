/** Server-to-server payments, capture, refund, reversal, registrations and reports, against the real sandbox. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyResult,
  GatewayDeclinedError,
  GatewayNotFoundError,
  GatewayValidationError,
  isApproved,
  RESULT_CODES,
} from '../../../src/server/index.js';
import { billing, card, CARDS, cardPayment, clientFor, orderId, useSandbox } from '../fixtures.js';

const context = useSandbox();

describe('payments.create', () => {
  test("a debit is approved and sent form-encoded with the API reference's flat names", async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const merchantTransactionId = orderId();
    const payment = await client.payments.create(
      cardPayment({
        merchantTransactionId,
        customer: {
          email: 'jane.jones@example.com',
          ip: '2001:db8::1',
          browser: { language: 'de-AT', screenWidth: 1280, javaEnabled: false },
        },
        customParameters: { OrderID: '42' },
      }),
    );
    assert.equal(payment.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(payment.paymentType, 'DB');
    assert.equal(payment.amount, '92.00');
    assert.equal(payment.merchantTransactionId, merchantTransactionId);
    const [sent] = recorder.posts();
    const body = new URLSearchParams(sent!.body);
    assert.equal(body.get('card.number'), CARDS.approved);
    assert.equal(body.get('customer.browser.screenWidth'), '1280');
    assert.equal(body.get('customer.browser.javaEnabled'), 'false');
    assert.equal(body.get('customParameters[OrderID]'), '42');
    assert.equal(body.get('entityId'), context.sandbox.entities[0]);
    assert.equal(sent!.headers.get('content-type'), 'application/x-www-form-urlencoded; charset=UTF-8');
  });

  test('a merchantTransactionId is generated when the caller gives none, so the payment can always be looked up', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const payment = await client.payments.create(cardPayment());
    const sent = new URLSearchParams(recorder.posts()[0]!.body).get('merchantTransactionId');
    assert.match(sent ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(payment.merchantTransactionId, sent);
  });

  test('the client testMode goes on every POST unless the request sets its own: EXTERNAL answers 000.100.112', async () => {
    const { client, recorder } = clientFor(context.sandbox, { testMode: 'EXTERNAL' });
    const external = await client.payments.create(cardPayment());
    assert.equal(external.result.code, RESULT_CODES.approvedConnectorTest);
    const internal = await client.payments.create(cardPayment({ testMode: 'INTERNAL' }));
    assert.equal(internal.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.deepEqual(
      recorder.posts().map((call) => new URLSearchParams(call.body).get('testMode')),
      ['EXTERNAL', 'INTERNAL'],
    );
  });

  for (const [name, number, code] of [
    ['declined by the bank', CARDS.declined, RESULT_CODES.declinedByAuthorization],
    ['insufficient funds', CARDS.insufficientFunds, RESULT_CODES.insufficientFunds],
    ['invalid CVV', CARDS.invalidCvv, RESULT_CODES.invalidCvv],
  ] as const) {
    test(`a decline (${name}) throws GatewayDeclinedError carrying the payment`, async () => {
      const { client, recorder } = clientFor(context.sandbox);
      const error = await client.payments.create(cardPayment({ card: card(number) })).catch((caught: unknown) => caught);
      assert.ok(error instanceof GatewayDeclinedError, String(error));
      assert.equal(error.resultCode, code);
      assert.equal(classifyResult(error.resultCode!), 'declined');
      assert.ok(error.payment?.id, 'the declined payment is attached');
      assert.equal(recorder.posts().length, 1, 'a decline is final: no retry, no look-up');
    });
  }

  test("every bad field is listed before sending: GatewayValidationError mirrors the gateway's parameterErrors", async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const error = await client.payments
      .create(
        cardPayment({
          amount: '92.5',
          currency: 'euro',
          card: { ...card(), number: '4200000000000001', expiryMonth: '13' },
          customer: { email: 'not-an-email', ip: '999.1.1.1' },
        }),
      )
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    const names = error.parameterErrors.map((problem) => problem.name).sort();
    assert.deepEqual(names, ['amount', 'card.expiryMonth', 'card.number', 'currency', 'customer.email', 'customer.ip'].sort());
    assert.equal(recorder.calls.length, 0);
  });

  test("the gateway's own 400 (a rule only it knows, a currency differing from the PA) maps to GatewayValidationError with its parameterErrors", async () => {
    const { client } = clientFor(context.sandbox);
    const preauthorization = await client.payments.create(cardPayment({ paymentType: 'PA' }));
    const error = await client.payments
      .capture(preauthorization.id, { amount: '10.00', currency: 'USD' })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.invalidParameter);
    assert.equal(error.httpStatus, 400);
    assert.ok(error.parameterErrors.some((problem) => problem.name === 'currency'));
  });

  test('3DS through the gateway: a pending answer carries the redirect (url, parameters, preconditions) for <gw-3ds-handler>', async () => {
    const { client } = clientFor(context.sandbox);
    const pending = await client.payments.create(
      cardPayment({
        card: card(CARDS.frictionless),
        shopperResultUrl: 'https://shop.example/return',
        billing,
        customParameters: { '3DS2_enrolled': 'true' },
      }),
    );
    assert.equal(pending.result.code, RESULT_CODES.pending);
    assert.equal(classifyResult(pending.result.code), 'pending');
    assert.ok(pending.redirect, 'redirect present');
    assert.match(pending.redirect.url, /^http:\/\/127\.0\.0\.1:\d+\//);
    assert.ok(pending.redirect.parameters.length > 0);
    assert.ok(pending.redirect.preconditions?.[0]?.parameters.some((parameter) => parameter.name === 'threeDSMethodData'));
    const read = await client.payments.get(pending.id);
    assert.equal(read.id, pending.id);
  });

  for (const outcome of ['complete', 'fail'] as const) {
    test(`3DS challenge ${outcome === 'complete' ? 'completed' : 'failed'} by the shopper: the return URL's resourcePath gives the final payment`, async () => {
      const { client } = clientFor(context.sandbox);
      const shopperResultUrl = 'https://shop.example/payment-result';
      const pending = await client.payments.create(
        cardPayment({ card: card(CARDS.challenge), shopperResultUrl, billing, customParameters: { '3DS2_enrolled': 'true' } }),
      );
      const redirect = pending.redirect!;
      // The browser's part (what <gw-3ds-handler> does): post the redirect parameters, then answer the challenge page.
      const execute = await fetch(redirect.url, {
        method: 'POST',
        body: new URLSearchParams(redirect.parameters.map(({ name, value }) => [name, value])),
      });
      const session = /name="threeDSSessionData" value="([^"]+)"/.exec(await execute.text())?.[1];
      assert.ok(session, 'the challenge page carries the session');
      const answer = await fetch(`${context.sandbox.url}/v1/threeDSecure/challenge`, {
        method: 'POST',
        body: new URLSearchParams({ threeDSSessionData: session, outcome }),
        redirect: 'manual',
      });
      const back = new URL(answer.headers.get('location')!);
      assert.equal(back.origin + back.pathname, shopperResultUrl);
      const query = Object.fromEntries(back.searchParams);
      if (outcome === 'complete') {
        const payment = await client.handleShopperReturn(query);
        assert.equal(payment.id, pending.id);
        assert.ok(isApproved(payment.result.code), payment.result.code);
      } else {
        const error = await client.handleShopperReturn(query).catch((caught: unknown) => caught);
        assert.ok(error instanceof GatewayDeclinedError, String(error));
        assert.equal(error.resultCode, RESULT_CODES.threeDsFailed);
      }
    });
  }

  test('the 3DS step needs shopperResultUrl and billing for an enrolled card, checked before sending', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const error = await client.payments
      .create(cardPayment({ customParameters: { '3DS2_enrolled': 'true' } }))
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.ok(error.parameterErrors.some((problem) => problem.name === 'shopperResultUrl'));
    assert.equal(recorder.calls.length, 0);
  });

  test('own-MPI 3DS results and a standing instruction are sent as the API reference names them', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const payment = await client.payments.create(
      cardPayment({
        threeDSecure: {
          eci: '05',
          authenticationStatus: 'Y',
          version: '2.2.0',
          dsTransactionId: 'c1e4f3a0-1b2c-4d5e-8f90-123456789abc',
          flow: 'challenge',
        },
        standingInstruction: {
          type: 'INSTALMENT',
          mode: 'INITIAL',
          source: 'CIT',
          numberOfInstallments: 12,
          expiry: '2027-11-21',
          frequency: '0030',
        },
      }),
    );
    assert.ok(isApproved(payment.result.code));
    const body = new URLSearchParams(recorder.posts()[0]!.body);
    assert.equal(body.get('threeDSecure.eci'), '05');
    assert.equal(body.get('standingInstruction.numberOfInstallments'), '12');
    assert.equal(payment.standingInstruction?.type, 'INSTALLMENT', 'the response spells it INSTALLMENT');
  });
});

describe('capture, refund, reversal (POST /v1/payments/{id})', () => {
  test('a PA is captured in two parts, then a capture above what is left is refused', async () => {
    const { client } = clientFor(context.sandbox);
    const preauthorization = await client.payments.create(cardPayment({ paymentType: 'PA', amount: '50.00' }));
    const first = await client.payments.capture(preauthorization.id, { amount: '20.00', currency: 'EUR' });
    assert.equal(first.paymentType, 'CP');
    assert.equal(first.referencedId, preauthorization.id);
    assert.ok(isApproved(first.result.code));
    const second = await client.payments.capture(preauthorization.id, { amount: '30.00', currency: 'EUR' });
    assert.equal(second.amount, '30.00');
    const error = await client.payments
      .capture(preauthorization.id, { amount: '0.01', currency: 'EUR' })
      .catch((caught: unknown) => caught);
    // The platform answers a refused capture as a transaction of its own: the error holds it, nothing was captured.
    assert.ok(error instanceof GatewayValidationError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.cannotCapture);
    assert.equal(error.payment?.paymentType, 'CP');
    assert.notEqual(error.payment?.id, preauthorization.id);
  });

  test('a debit is refunded in part; a PA is reversed; a captured PA cannot be reversed', async () => {
    const { client } = clientFor(context.sandbox);
    const debit = await client.payments.create(cardPayment({ amount: '40.00' }));
    const refund = await client.payments.refund(debit.id, { amount: '15.00', currency: 'EUR' });
    assert.equal(refund.paymentType, 'RF');
    assert.ok(isApproved(refund.result.code));

    const preauthorization = await client.payments.create(cardPayment({ paymentType: 'PA' }));
    const reversal = await client.payments.reverse(preauthorization.id);
    assert.equal(reversal.paymentType, 'RV');
    assert.ok(isApproved(reversal.result.code));

    const captured = await client.payments.create(cardPayment({ paymentType: 'PA' }));
    await client.payments.capture(captured.id, { amount: '1.00', currency: 'EUR' });
    const error = await client.payments.reverse(captured.id).catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayValidationError);
    assert.equal(error.resultCode, RESULT_CODES.cannotReverse);
    assert.equal(error.payment?.paymentType, 'RV');

    // The platform reverses a debit too (RV on a DB), the whole amount; a refund after it is refused.
    const reversedDebit = await client.payments.create(cardPayment({ amount: '12.00' }));
    const debitReversal = await client.payments.reverse(reversedDebit.id);
    assert.equal(debitReversal.amount, '12.00');
    assert.ok(isApproved(debitReversal.result.code));
    const late = await client.payments.refund(reversedDebit.id, { amount: '1.00', currency: 'EUR' }).catch((caught: unknown) => caught);
    assert.ok(late instanceof GatewayValidationError);
    assert.equal(late.resultCode, RESULT_CODES.cannotRefund);
  });

  test('a capture, refund or reversal of an unknown payment is the refused transaction the platform answers; an id that is not an id never reaches the network', async () => {
    const { client, recorder } = clientFor(context.sandbox);
    const unknown = '8ac7a4a17000000000000000000000ff';
    const refusals = [
      [client.payments.capture(unknown, { amount: '1.00', currency: 'EUR' }), 'CP', RESULT_CODES.captureWithoutPreauthorization],
      [client.payments.refund(unknown, { amount: '1.00', currency: 'EUR' }), 'RF', RESULT_CODES.invalidPaymentData],
      [client.payments.reverse(unknown), 'RV', RESULT_CODES.reversalWithoutPayment],
    ] as const;
    for (const [refused, paymentType, code] of refusals) {
      const error = await refused.catch((caught: unknown) => caught);
      assert.ok(error instanceof GatewayValidationError, String(error));
      assert.equal(error.resultCode, code);
      assert.equal(error.httpStatus, 400);
      assert.equal(error.payment?.paymentType, paymentType);
      assert.match(error.payment?.id ?? '', /^[0-9a-f]{32}$/);
    }
    const calls = recorder.calls.length;
    for (const bad of ['../checkouts', 'a/b', '', '..', 'x?entityId=other']) {
      await assert.rejects(client.payments.capture(bad, { amount: '1.00', currency: 'EUR' }), GatewayValidationError);
      await assert.rejects(client.payments.get(bad), GatewayValidationError);
    }
    assert.equal(recorder.calls.length, calls);
  });
});

describe('registrations', () => {
  test('createRegistration yields a registrationId; a debit and a basic credit are then made against it', async () => {
    const { client } = clientFor(context.sandbox);
    const initial = await client.payments.create(
      cardPayment({ createRegistration: true, standingInstruction: { type: 'UNSCHEDULED', mode: 'INITIAL', source: 'CIT' } }),
    );
    assert.match(initial.registrationId ?? '', /^[A-Za-z0-9]{32}$/);
    const repeated = await client.registrations.createPayment(initial.registrationId!, {
      paymentType: 'DB',
      amount: '9.99',
      currency: 'EUR',
      standingInstruction: {
        type: 'UNSCHEDULED',
        mode: 'REPEATED',
        source: 'MIT',
        initialTransactionId: initial.resultDetails!.CardholderInitiatedTransactionID!,
      },
    });
    assert.ok(isApproved(repeated.result.code));
    const credit = await client.registrations.createPayment(initial.registrationId!, {
      programme: 'basicCredit',
      paymentType: 'CD',
      amount: '5.00',
      currency: 'EUR',
    });
    assert.equal(credit.paymentType, 'CD');
    assert.equal(credit.paymentBrand, undefined, 'no brand on a basic credit with a registered card');
    assert.equal(credit.standingInstruction?.mode, 'REPEATED');
  });

  test('an unknown registration is GatewayNotFoundError', async () => {
    const { client } = clientFor(context.sandbox);
    const error = await client.registrations
      .createPayment('8ac7a4a1700000000000000000000000', { programme: 'basicCredit', paymentType: 'CD', amount: '5.00', currency: 'EUR' })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayNotFoundError, String(error));
    assert.equal(error.resultCode, RESULT_CODES.registrationNotFound);
  });
});

describe('reports (GET /v3/query)', () => {
  test('a transaction by id, and every transaction of a merchantTransactionId', async () => {
    const { client } = clientFor(context.sandbox);
    const merchantTransactionId = orderId('report');
    const debit = await client.payments.create(cardPayment({ merchantTransactionId }));
    const report = await client.reports.get(debit.id);
    assert.equal(report.id, debit.id);
    assert.equal(report.amount, '92.00');
    const declined = await client.payments
      .create(cardPayment({ merchantTransactionId, card: card(CARDS.declined) }))
      .catch((caught: unknown) => caught);
    assert.ok(declined instanceof GatewayDeclinedError);
    const list = await client.reports.findByMerchantTransactionId(merchantTransactionId);
    assert.deepEqual(list.payments.map((payment) => payment.id).sort(), [debit.id, declined.payment!.id].sort());
    const declinedReport = await client.reports.get(declined.payment!.id);
    assert.equal(
      declinedReport.result.code,
      RESULT_CODES.declinedByAuthorization,
      'reports answer whatever the outcome, they do not throw on a decline',
    );
  });

  test('a miss is GatewayNotFoundError for one id and an empty list for a merchantTransactionId', async () => {
    const { client } = clientFor(context.sandbox);
    const error = await client.reports.get('8ac7a4a17000000000000000000000aa').catch((caught: unknown) => caught);
    assert.ok(error instanceof GatewayNotFoundError);
    assert.equal(error.resultCode, RESULT_CODES.transactionNotFound);
    assert.equal(error.httpStatus, 400);
    const list = await client.reports.findByMerchantTransactionId(orderId('never'));
    assert.deepEqual(list.payments, []);
  });
});
