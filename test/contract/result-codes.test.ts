import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyResult, describeResult, isApproved, resultGroup } from '../../src/contract/result-codes.js';

describe('classifyResult', () => {
  it('approves production, integrator-test and connector-test successes', () => {
    for (const code of ['000.000.000', '000.100.110', '000.100.112', '000.300.000', '000.600.000'])
      assert.equal(classifyResult(code), 'approved', code);
  });

  it('approves a frictionless 3DS success (000.400.110), which the old pattern wrongly failed', () => {
    assert.equal(classifyResult('000.400.110'), 'approved');
    assert.equal(isApproved('000.400.110'), true);
  });

  it('tells the groups apart in the published order', () => {
    const cases: Record<string, string> = {
      '000.400.000': 'approved_review',
      '000.200.000': 'pending',
      '000.200.100': 'checkout_created',
      '800.400.500': 'pending_extended',
      '000.400.109': 'rejected_3ds',
      '800.100.152': 'declined',
      '800.100.155': 'declined',
      '900.100.300': 'uncertain',
      '000.400.030': 'uncertain',
      '999.999.999': 'system_error',
      '100.396.101': 'rejected_async',
      '300.100.100': 'soft_decline',
      '200.300.404': 'rejected_validation',
      '700.400.100': 'rejected_validation',
      '800.900.300': 'unauthorized',
      '800.900.301': 'forbidden',
      '800.120.100': 'throttled',
      '700.400.580': 'not_found',
      '100.150.200': 'not_found',
      '000.100.201': 'chargeback',
    };
    for (const [code, kind] of Object.entries(cases)) assert.equal(classifyResult(code), kind, code);
  });

  it('calls an unlisted code unknown, never a failure', () => {
    assert.equal(classifyResult('123.456.789'), 'unknown');
    assert.equal(isApproved('123.456.789'), false);
    assert.equal(resultGroup('123.456.789'), undefined);
  });

  it("calls a code spelled as an object's inherited key unknown, with no description", () => {
    // A plain lookup would find Object.prototype's members and treat the answer as a known, certain code.
    for (const code of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
      assert.equal(classifyResult(code), 'unknown', code);
      assert.equal(describeResult(code), undefined, code);
    }
  });

  it('keeps the published quirks: [00-99] is one character, 100.2[01] has an unescaped dot', () => {
    assert.equal(resultGroup('100.900.10'), 'contact validation');
    assert.equal(resultGroup('100x20'), 'account validation');
  });
});
