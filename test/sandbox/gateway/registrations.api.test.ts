/**
 * The sandbox's registrations over HTTP: a card stored without a payment,
 * deleted once (a second delete and any later payment answer as the platform
 * does), and merchant-initiated repeats that must name the initial
 * customer-initiated payment's CardholderInitiatedTransactionID.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { call as callSandbox, cardPayment, CARDS, threeDsFields, useSandbox } from '../support.js';

const context = useSandbox();
const { call } = context;

const storedCard = (overrides: Record<string, string> = {}) => ({
  paymentBrand: 'VISA',
  'card.number': CARDS.approved,
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
  ...overrides,
});

/** `DELETE /v1/registrations/{id}?entityId=` as the merchant's server sends it. */
async function deregister(id: string, entityId = context.sandbox.entities[0]!) {
  const response = await fetch(`${context.sandbox.url}/v1/registrations/${id}?${new URLSearchParams({ entityId })}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${context.sandbox.tokens[0]}` },
  });
  return { status: response.status, body: (await response.json()) as any };
}

const subscriptionStart = {
  createRegistration: 'true',
  'standingInstruction.type': 'RECURRING',
  'standingInstruction.mode': 'INITIAL',
  'standingInstruction.source': 'CIT',
  'standingInstruction.recurringType': 'SUBSCRIPTION',
  'standingInstruction.expiry': '2030-12-31',
  'standingInstruction.frequency': '0030',
};

const repeat = (type: string, initialTransactionId: string) => ({
  paymentType: 'DB',
  amount: '9.99',
  currency: 'EUR',
  'standingInstruction.type': type,
  'standingInstruction.mode': 'REPEATED',
  'standingInstruction.source': 'MIT',
  'standingInstruction.initialTransactionId': initialTransactionId,
});

describe('POST /v1/registrations', () => {
  it('stores a card without a payment: a 32 lower-case hex id, 000.100.110 and the masked card only', async () => {
    const { status, body } = await call('POST', '/v1/registrations', storedCard());
    assert.equal(status, 200);
    assert.match(body.id, /^[0-9a-f]{32}$/);
    assert.equal(body.result.code, RESULT_CODES.approvedIntegratorTest);
    const { bin, last4Digits, holder, expiryMonth, expiryYear, number, cvv } = body.card;
    assert.deepEqual(
      { bin, last4Digits, holder, expiryMonth, expiryYear },
      { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' },
    );
    assert.equal(number ?? cvv, undefined);
    assert.equal(body.paymentBrand, 'VISA');
    const text = JSON.stringify(body);
    assert.ok(!text.includes(CARDS.approved) && !text.includes('"123"'), 'neither the number nor the CVV is answered');
    assert.ok(!JSON.stringify(context.sandbox.requests().at(-1)).includes(CARDS.approved), 'nor logged');
  });

  it('answers 000.100.112 in testMode EXTERNAL and echoes a standing instruction (INSTALMENT answered INSTALLMENT)', async () => {
    const { body } = await call(
      'POST',
      '/v1/registrations',
      storedCard({
        testMode: 'EXTERNAL',
        'standingInstruction.type': 'INSTALMENT',
        'standingInstruction.mode': 'INITIAL',
        'standingInstruction.source': 'CIT',
        'standingInstruction.numberOfInstallments': '3',
        'standingInstruction.expiry': '2027-06-30',
        'standingInstruction.frequency': '0030',
      }),
    );
    assert.equal(body.result.code, RESULT_CODES.approvedConnectorTest);
    assert.equal(body.standingInstruction.type, 'INSTALLMENT');
  });

  it('validates through the shared contract: card fields required, no paymentType, no merchant-initiated instruction', async () => {
    const missing = await call('POST', '/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000001' });
    assert.equal(missing.status, 400);
    const names = missing.body.result.parameterErrors.map((error: { name: string }) => error.name).sort();
    assert.deepEqual(names, ['card.expiryMonth', 'card.expiryYear', 'card.number']);
    assert.ok(!JSON.stringify(missing.body).includes('4200000000000001'), 'the refused number is masked');
    const typed = await call('POST', '/v1/registrations', storedCard({ paymentType: 'DB' }));
    assert.deepEqual(
      typed.body.result.parameterErrors.map((error: { name: string }) => error.name),
      ['paymentType'],
    );
    const mit = await call(
      'POST',
      '/v1/registrations',
      storedCard({
        'standingInstruction.type': 'UNSCHEDULED',
        'standingInstruction.mode': 'REPEATED',
        'standingInstruction.source': 'MIT',
        'standingInstruction.initialTransactionId': 'ABC',
      }),
    );
    assert.equal(mit.status, 400);
    assert.ok(mit.body.result.parameterErrors.some((error: { name: string }) => error.name === 'standingInstruction.mode'));
  });

  it("needs the token and the caller's own entity", async () => {
    assert.equal((await call('POST', '/v1/registrations', storedCard(), { token: 'nope' })).status, 401);
    assert.equal((await call('POST', '/v1/registrations', storedCard(), { entityId: 'ffffffffffffffffffffffffffffffff' })).status, 403);
  });
});

describe('DELETE /v1/registrations/{id}', () => {
  it('deregisters once: the second delete answers 100.150.202, any later payment 100.150.200', async () => {
    const { body: stored } = await call('POST', '/v1/registrations', storedCard());
    const first = await deregister(stored.id);
    assert.equal(first.status, 200);
    assert.equal(first.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(first.body.id, stored.id);
    const second = await deregister(stored.id);
    assert.equal(second.status, 400);
    assert.equal(second.body.result.code, RESULT_CODES.registrationDeregistered);
    const payment = await call('POST', `/v1/registrations/${stored.id}/payments`, {
      paymentType: 'DB',
      amount: '1.00',
      currency: 'EUR',
      paymentBrand: 'VISA',
    });
    assert.equal(payment.status, 400);
    assert.equal(payment.body.result.code, RESULT_CODES.registrationNotFound);
    assert.equal(payment.body.id, undefined, 'no payment was made');
  });

  it("unknown: 100.150.200; malformed: 100.150.101; another entity's: 403 and still registered", async () => {
    assert.equal((await deregister('ffffffffffffffffffffffffffffffff')).body.result.code, RESULT_CODES.registrationNotFound);
    assert.equal((await deregister('not-an-id')).body.result.code, RESULT_CODES.invalidRegistrationId);
    const other = await startSandbox({
      port: 0,
      quiet: true,
      entities: [context.sandbox.entities[0]!, 'ffffffffffffffffffffffffffffffff'],
    });
    try {
      const stored = await callSandbox(other, 'POST', '/v1/registrations', storedCard());
      const response = await fetch(`${other.url}/v1/registrations/${stored.body.id}?entityId=ffffffffffffffffffffffffffffffff`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${other.tokens[0]}` },
      });
      assert.equal(response.status, 403);
      const paid = await callSandbox(other, 'POST', `/v1/registrations/${stored.body.id}/payments`, {
        paymentType: 'DB',
        amount: '1.00',
        currency: 'EUR',
        paymentBrand: 'VISA',
      });
      assert.equal(paid.status, 200, 'the owner can still pay with it');
    } finally {
      await other.close();
    }
  });
});

describe('merchant-initiated repeats', () => {
  async function subscribe(): Promise<{ registrationId: string; cit: string }> {
    const { body } = await call('POST', '/v1/payments', cardPayment(subscriptionStart));
    assert.equal(body.result.code, RESULT_CODES.approvedIntegratorTest);
    const cit = body.resultDetails.CardholderInitiatedTransactionID;
    assert.match(cit, /^[A-Z0-9]{15}$/);
    return { registrationId: body.registrationId, cit };
  }

  it("a repeat naming the initial payment's id and type is approved without 3DS and answered MIT/REPEATED", async () => {
    const { registrationId, cit } = await subscribe();
    const { status, body } = await call('POST', `/v1/registrations/${registrationId}/payments`, {
      ...repeat('RECURRING', cit),
      'customParameters[3DS2_enrolled]': 'true',
      ...threeDsFields(),
    });
    assert.equal(status, 200);
    assert.equal(body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(body.redirect, undefined, 'no 3DS step for a merchant-initiated payment');
    assert.deepEqual(body.standingInstruction, { type: 'RECURRING', mode: 'REPEATED', source: 'MIT', initialTransactionId: cit });
    assert.equal(body.resultDetails.CardholderInitiatedTransactionID, undefined, 'only an initial payment gets one');
  });

  it('a scheme id that reads like a card number is echoed and logged as the merchant quoted it', async () => {
    // This seed's first initial payment gets F361828620308F3: 12 digits that pass the card check, as 1 in 10 of Visa's
    // 15-digit ids do. Scrubbed as free text, the repeat's echo and log read F************F3 (1 in 1,300 random ids).
    const seeded = await startSandbox({ port: 0, quiet: true, idSeed: 'cit-26' });
    try {
      const first = await callSandbox(seeded, 'POST', '/v1/payments', cardPayment(subscriptionStart));
      const cit = first.body.resultDetails.CardholderInitiatedTransactionID;
      assert.equal(cit, 'F361828620308F3');
      const path = `/v1/registrations/${first.body.registrationId}/payments`;
      const { body } = await callSandbox(seeded, 'POST', path, repeat('RECURRING', cit));
      assert.equal(body.result.code, RESULT_CODES.approvedIntegratorTest);
      assert.equal(body.standingInstruction.initialTransactionId, cit);
      const logged = seeded.requests().findLast((entry) => entry.path === path);
      assert.equal(logged?.params['standingInstruction.initialTransactionId'], cit);
    } finally {
      await seeded.close();
    }
  });

  it('a repeat without the id, with another id or another type is refused naming the field; nothing is charged', async () => {
    const { registrationId, cit } = await subscribe();
    const before = context.sandbox.stats().payments;
    const without = await call('POST', `/v1/registrations/${registrationId}/payments`, {
      ...repeat('RECURRING', ''),
      'standingInstruction.initialTransactionId': '',
    });
    assert.equal(without.status, 400);
    assert.deepEqual(
      without.body.result.parameterErrors.map((error: { name: string }) => error.name),
      ['standingInstruction.initialTransactionId'],
    );
    const wrong = await call('POST', `/v1/registrations/${registrationId}/payments`, repeat('RECURRING', 'ABCDEF0123456789'));
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.result.parameterErrors[0].message, /CardholderInitiatedTransactionID/);
    const otherType = await call('POST', `/v1/registrations/${registrationId}/payments`, repeat('UNSCHEDULED', cit));
    assert.deepEqual(
      otherType.body.result.parameterErrors.map((error: { name: string }) => error.name),
      ['standingInstruction.type'],
    );
    const contradiction = await call('POST', `/v1/registrations/${registrationId}/payments`, {
      ...repeat('RECURRING', cit),
      'standingInstruction.source': 'CIT',
    });
    assert.ok(contradiction.body.result.parameterErrors.some((error: { name: string }) => error.name === 'standingInstruction.source'));
    assert.equal(context.sandbox.stats().payments, before);
  });

  it('a card stored without a payment can be repeated only after an approved initial CIT on it', async () => {
    const { body: stored } = await call('POST', '/v1/registrations', storedCard());
    const early = await call('POST', `/v1/registrations/${stored.id}/payments`, repeat('INSTALMENT', 'ABCDEF0123456789'));
    assert.equal(early.status, 400);
    assert.match(early.body.result.parameterErrors[0].message, /no approved initial/);
    const initial = await call('POST', `/v1/registrations/${stored.id}/payments`, {
      paymentType: 'DB',
      amount: '30.00',
      currency: 'EUR',
      'standingInstruction.type': 'INSTALMENT',
      'standingInstruction.mode': 'INITIAL',
      'standingInstruction.source': 'CIT',
      'standingInstruction.numberOfInstallments': '3',
      'standingInstruction.expiry': '2027-06-30',
      'standingInstruction.frequency': '0030',
    });
    assert.equal(initial.body.result.code, RESULT_CODES.approvedIntegratorTest);
    const cit = initial.body.resultDetails.CardholderInitiatedTransactionID;
    const second = await call('POST', `/v1/registrations/${stored.id}/payments`, repeat('INSTALMENT', cit));
    assert.equal(second.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(second.body.standingInstruction.type, 'INSTALLMENT');
  });

  it('a declined initial payment starts nothing, and a declining card declines its repeats too', async () => {
    const declined = await call('POST', '/v1/payments', cardPayment({ ...subscriptionStart, 'card.number': CARDS.declined }));
    assert.equal(declined.body.registrationId, undefined);
    const { body: stored } = await call('POST', '/v1/registrations', storedCard({ 'card.number': CARDS.insufficientFunds }));
    const initial = await call('POST', `/v1/registrations/${stored.id}/payments`, {
      paymentType: 'DB',
      amount: '5.00',
      currency: 'EUR',
      'standingInstruction.type': 'UNSCHEDULED',
      'standingInstruction.mode': 'INITIAL',
      'standingInstruction.source': 'CIT',
    });
    assert.equal(initial.body.result.code, RESULT_CODES.insufficientFunds);
    const repeated = await call(
      'POST',
      `/v1/registrations/${stored.id}/payments`,
      repeat('UNSCHEDULED', initial.body.resultDetails.CardholderInitiatedTransactionID),
    );
    assert.equal(repeated.status, 400, 'a declined initial payment cannot be repeated');
  });
});
