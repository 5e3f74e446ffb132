/** The shared scrubber: by name, by the request's known secrets, by shape (Luhn digit runs, Bearer tokens, labelled CVVs). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { passesLuhn } from '../../src/contract/formats.js';
import { createRedactor, maskCardNumbers, maskParameter, maskSecretsByShape } from '../../src/contract/redaction.js';

const PAN = '4200000000000000';

/** A random card number of 12–19 digits that passes the Luhn check. */
const luhnNumber = fc.integer({ min: 11, max: 18 }).chain((length) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((digits) => {
    const body = digits.join('');
    const check = [...'0123456789'].find((digit) => passesLuhn(body + digit))!;
    return body + check;
  }),
);

describe('redaction', () => {
  test('by name: card number keeps first 6 and last 4, CVV and token nothing', () => {
    assert.equal(maskParameter('card.number', PAN), '420000******0000');
    assert.equal(maskParameter('card.cvv', '123'), '***');
    assert.equal(maskParameter('Authorization', 'Bearer abc.def'), 'Bearer [access token]');
  });

  test('by shape: a Luhn card number anywhere in a text, also glued to letters, is masked', () => {
    assert.equal(maskParameter('card.holder', `Jane ${PAN} Jones`), 'Jane 420000******0000 Jones');
    assert.equal(maskCardNumbers(`x${PAN}y`), 'x420000******0000y');
    assert.equal(maskCardNumbers('4200000000000001'), '4200000000000001', 'not a card number: fails Luhn');
  });

  test('gateway ids, checkout ids and UUIDs keep their digits', () => {
    for (const id of ['8ac7a4a1420000000000000000000000', 'ABCE449B5FC84ED5A1C4200000000000.uat01-vm-tx03', '12345678-1234-4123-8123-420000000000']) {
      assert.equal(maskCardNumbers(`payment ${id} failed`), `payment ${id} failed`);
    }
  });

  test('echoed headers and forms: Bearer tokens and labelled CVVs', () => {
    assert.equal(maskSecretsByShape('authorization: Bearer OGFjN2E0Yzc='), 'authorization: Bearer [access token]');
    assert.equal(maskSecretsByShape('card.cvv=987&amount=1.00'), 'card.cvv=***&amount=1.00');
    assert.equal(maskSecretsByShape('{"cvv":"987","cvvResponse":"M"}'), '{"cvv":"***","cvvResponse":"M"}');
  });

  test('known secrets: replaced anywhere; a CVV only where it stands alone, never inside an amount, a code or a date', () => {
    const redact = createRedactor({ accessToken: 'secret-token-123', cardNumber: '4200000000000001', cvv: '100' });
    assert.equal(redact('token secret-token-123 card 4200000000000001'), 'token [access token] card 420000******0001');
    assert.equal(redact('cvv 100, amount 100.00, code 800.100.152, at 2026-11-23 10:00:00.100'), 'cvv ***, amount 100.00, code 800.100.152, at 2026-11-23 10:00:00.100');
    assert.deepEqual(redact.deep({ card: { number: '4111', cvv: '1' }, holder: `a ${PAN}`, n: 1 }), { card: { number: '****', cvv: '***' }, holder: 'a 420000******0000', n: 1 });
  });

  test('property: no Luhn-valid card number survives, whatever text surrounds it', () => {
    fc.assert(
      fc.property(fc.string(), luhnNumber, fc.string(), (before, pan, after) => {
        const text = `${before} ${pan} ${after}`;
        assert.ok(!maskSecretsByShape(text).includes(pan) || `${before}${after}`.includes(pan));
      }),
      { numRuns: 300 },
    );
  });
});
