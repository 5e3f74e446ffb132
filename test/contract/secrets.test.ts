/**
 * The declared secrets (src/contract/secrets.ts): every field the field tables
 * or the sandbox's wallets treat as secret is declared, and the scrubber masks
 * each declared field by its name in any case.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELD_FORMATS } from '../../src/contract/formats.js';
import { maskParameter, MASKED_CVV, otherSecretValues, secretKindOfName } from '../../src/contract/redaction.js';
import { SECRET_FIELDS } from '../../src/contract/secrets.js';
import { WALLET_PROOF_FIELDS } from '../../src/contract/wallet-stand-in.js';

test('every field of a secret format, and every wallet proof field, is declared', () => {
  const secretFormats = Object.entries(FIELD_FORMATS).filter(([, format]) => format.kind === 'cardNumber' || format.kind === 'cvv');
  assert.ok(secretFormats.length >= 2);
  for (const [name] of secretFormats) assert.ok(name in SECRET_FIELDS, `${name} is declared`);
  for (const name of Object.values(WALLET_PROOF_FIELDS)) assert.ok(name in SECRET_FIELDS, `${name} is declared`);
});

test('each declared field is masked by its name, in any case, and never shown', () => {
  for (const [name, kind] of Object.entries(SECRET_FIELDS)) {
    for (const spelling of [name, name.toUpperCase(), name.toLowerCase()]) assert.equal(secretKindOfName(spelling), kind, spelling);
    const masked = maskParameter(name, '4200000000000000');
    assert.notEqual(masked, '4200000000000000', name);
    if (kind !== 'cardNumber') assert.equal(masked, MASKED_CVV, name);
  }
  assert.equal(secretKindOfName('customParameters[otp]'), 'oneTimePassword');
  assert.equal(secretKindOfName('invoice.number'), undefined, 'a number outside card is no secret');
  // What lies under a secret's name is the secret: a list of codes, an object holding the code.
  assert.equal(secretKindOfName('customParameters[cvv][0]'), 'securityCode');
  assert.equal(secretKindOfName('card.securityCode.value'), 'securityCode');
  assert.equal(secretKindOfName('card.number.0'), 'cardNumber');
  assert.equal(secretKindOfName('customParameters[note]'), undefined);
});

test('otherSecretValues lists the secrets a request carries by name besides its card', () => {
  assert.deepEqual(otherSecretValues({ 'card.number': '4200000000000000', 'stcPay.otp': '123456', amount: '1.00' }), ['123456']);
  assert.deepEqual(otherSecretValues({ 'card.cvv': '123' }), []);
  // Another spelling of the card's own secrets is known by value too: an echo of it is replaced.
  assert.deepEqual(otherSecretValues({ 'card.CVV': '737', 'customParameters[cvv][0]': '738', 'customParameters[note]': 'x' }), [
    '737',
    '738',
  ]);
});
