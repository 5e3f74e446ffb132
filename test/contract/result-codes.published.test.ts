/**
 * Classification of every result code the platform publishes, group by group
 * (test/fixtures/result-codes.json): the kind, the group name, approval, and
 * the anchors (a code only classifies from its first character).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  classifyResult,
  DECLINE_KINDS,
  describeResult,
  isApproved,
  RESULT_CODES,
  resultGroup,
  type ResultKind,
} from '../../src/contract/result-codes.js';

const PUBLISHED = JSON.parse(readFileSync(new URL('../fixtures/result-codes.json', import.meta.url), 'utf8')) as {
  groups: Record<string, string[]>;
};

/** What each published group means to a merchant; `none`: codes no current pattern matches. */
const KIND_OF_GROUP: Record<string, ResultKind> = {
  approved: 'approved',
  'approved, needs manual review': 'approved_review',
  pending: 'pending',
  'pending, can change after days': 'pending_extended',
  'rejected by 3DS or risk': 'rejected_3ds',
  'rejected by the bank': 'declined',
  'communication error': 'uncertain',
  'system error': 'system_error',
  'asynchronous workflow': 'rejected_async',
  'soft decline': 'soft_decline',
  'external risk': 'rejected_risk',
  'address validation': 'rejected_validation',
  '3D Secure': 'rejected_3ds',
  blacklist: 'rejected_risk',
  'risk validation': 'rejected_risk',
  'configuration validation': 'rejected_validation',
  'registration validation': 'rejected_validation',
  'job validation': 'rejected_validation',
  'reference validation': 'rejected_validation',
  'format validation': 'rejected_validation',
  'address validation (2)': 'rejected_validation',
  'contact validation': 'rejected_validation',
  'account validation': 'rejected_validation',
  'amount validation': 'rejected_validation',
  'risk management': 'rejected_risk',
  chargeback: 'chargeback',
  none: 'unknown',
};

/** Single codes the caller acts on differently from their group. */
const SPECIFIC: Record<string, ResultKind> = {
  '000.200.100': 'checkout_created',
  '800.900.300': 'unauthorized',
  '800.900.302': 'unauthorized',
  '800.900.301': 'forbidden',
  '800.120.100': 'throttled',
  '700.400.580': 'not_found',
  '700.100.100': 'not_found',
  '100.150.200': 'not_found',
  '100.150.202': 'not_found',
};

const everyCode = Object.entries(PUBLISHED.groups).flatMap(([group, codes]) => codes.map((code) => ({ group, code })));

describe('published result codes', () => {
  it('the fixture holds every group of the published table and several hundred codes', () => {
    assert.deepEqual(Object.keys(PUBLISHED.groups).sort(), Object.keys(KIND_OF_GROUP).sort());
    assert.ok(everyCode.length > 500, `${everyCode.length} codes`);
  });

  it('every published code falls in its published group', () => {
    for (const { group, code } of everyCode) assert.equal(resultGroup(code), group === 'none' ? undefined : group, code);
  });

  it("every published code has its group's kind, or its specific one", () => {
    for (const { group, code } of everyCode)
      assert.equal(classifyResult(code), SPECIFIC[code] ?? KIND_OF_GROUP[group], `${code} (${group})`);
    for (const code of Object.keys(SPECIFIC))
      assert.ok(
        everyCode.some((entry) => entry.code === code),
        `${code} is published`,
      );
  });

  it('money moved for exactly the approved and the approved-needs-manual-review codes', () => {
    for (const { group, code } of everyCode)
      assert.equal(isApproved(code), group === 'approved' || group === 'approved, needs manual review', code);
  });

  it('the manual-review family: 000.400.0x0 except 000.400.030 (a partial failure to reverse by hand), and 000.400.100', () => {
    for (const code of ['000.400.000', '000.400.010', '000.400.020', '000.400.040', '000.400.090', '000.400.100']) {
      assert.equal(classifyResult(code), 'approved_review', code);
      assert.equal(isApproved(code), true, code);
    }
    assert.equal(classifyResult('000.400.030'), 'uncertain');
    assert.equal(isApproved('000.400.030'), false);
  });

  it('anchors: a code classifies only from its first character', () => {
    for (const { code } of everyCode) {
      for (const padded of [`x${code}`, `1${code}`]) {
        assert.equal(resultGroup(padded), undefined, padded);
        assert.equal(classifyResult(padded), 'unknown', padded);
        assert.equal(isApproved(padded), false, padded);
      }
    }
  });

  it('the codes the kit names are published codes of the meaning their names say', () => {
    const expected: Record<keyof typeof RESULT_CODES, ResultKind> = {
      approved: 'approved',
      approvedIntegratorTest: 'approved',
      successfulRequest: 'approved',
      brandNotConfigured: 'rejected_validation',
      approvedConnectorTest: 'approved',
      frictionlessAuthenticated: 'approved',
      threeDsNotParticipating: 'rejected_3ds',
      threeDsUserNotEnrolled: 'rejected_3ds',
      threeDsNotEnrolled: 'rejected_3ds',
      pending: 'pending',
      checkoutCreated: 'checkout_created',
      invalidParameter: 'rejected_validation',
      invalidCard: 'rejected_validation',
      unauthorized: 'unauthorized',
      forbidden: 'forbidden',
      throttled: 'throttled',
      cannotCapture: 'rejected_validation',
      cannotRefund: 'rejected_validation',
      cannotReverse: 'rejected_validation',
      captureWithoutPreauthorization: 'rejected_validation',
      reversalWithoutPayment: 'rejected_validation',
      invalidPaymentData: 'rejected_validation',
      referenceNotFound: 'not_found',
      transactionNotFound: 'not_found',
      registrationNotFound: 'not_found',
      invalidRegistrationId: 'rejected_validation',
      registrationDeregistered: 'not_found',
      timeoutUncertain: 'uncertain',
      declinedByAuthorization: 'declined',
      invalidCvv: 'declined',
      insufficientFunds: 'declined',
      expiredCard: 'declined',
      threeDsFailed: 'rejected_risk',
      threeDsTechnicalError: 'rejected_3ds',
      cancelledByUser: 'rejected_async',
      amountTooLow: 'rejected_validation',
      duplicateTransaction: 'rejected_risk',
      pendingTimedOut: 'rejected_async',
      systemUnavailable: 'system_error',
    };
    assert.deepEqual(Object.keys(RESULT_CODES).sort(), Object.keys(expected).sort());
    for (const [name, code] of Object.entries(RESULT_CODES)) {
      assert.ok(
        everyCode.some((entry) => entry.code === code),
        `${name}: ${code} is published`,
      );
      assert.equal(classifyResult(code), expected[name as keyof typeof RESULT_CODES], `${name}: ${code}`);
      assert.ok(describeResult(code), `${name}: ${code} has the platform's description`);
    }
    assert.equal(describeResult('000.400.020'), undefined, 'a code the kit does not name has no description here');
  });

  it("every description the kit answers is the published list's, word for word", () => {
    const published = JSON.parse(readFileSync(new URL('../fixtures/published-result-descriptions.json', import.meta.url), 'utf8')) as {
      descriptions: Record<string, string>;
    };
    for (const code of Object.values(RESULT_CODES)) assert.equal(describeResult(code), published.descriptions[code], code);
    // Not the API reference's or an integrator's paraphrase: the throttling code reads as the platform publishes it.
    assert.equal(describeResult(RESULT_CODES.throttled), 'Rejected by Throttling.');
  });

  it('800.110.100 (duplicate transaction) is a risk rejection: nothing was charged for this request, and it is no approval', () => {
    assert.equal(classifyResult('800.110.100'), 'rejected_risk');
    assert.equal(resultGroup('800.110.100'), 'risk validation');
    assert.equal(isApproved('800.110.100'), false);
  });

  it('decline kinds: refusals of the payment itself, and nothing else', () => {
    assert.deepEqual([...DECLINE_KINDS].sort(), ['declined', 'rejected_3ds', 'rejected_async', 'rejected_risk', 'soft_decline']);
  });

  it('a value that is no string (an answer read without its types) is an unknown code, whatever its toString does', () => {
    const hostile = [[{ toString: {} }], { toString: () => '000.000.000' }, 42, null, undefined, Symbol('code')];
    for (const value of hostile as unknown as string[]) {
      assert.equal(classifyResult(value), 'unknown');
      assert.equal(resultGroup(value), undefined);
      assert.equal(describeResult(value), undefined);
      assert.equal(isApproved(value), false);
    }
  });
});
