import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { challengeWindowOf, checkField, formatOf, passesLuhn } from '../../src/contract/formats.js';

describe('format codes', () => {
  it("amounts follow the platform's rule ^[0-9]{1,12}(\\.[0-9]{2})?$, with its message word for word", () => {
    for (const good of ['0.01', '92.00', '92', '1234567890.99', '123456789012.00', '123456789012'])
      assert.equal(checkField('amount', good), undefined, good);
    for (const bad of ['92.0', '92.000', '-20.20', '1234567890123.00', '1,00', ' 1.00', '.50']) {
      assert.equal(checkField('amount', bad), 'must match ^[0-9]{1,12}(\\.[0-9]{2})?$', bad);
    }
  });

  it('a challenge window is one digit or the EMV two digits, the same five sizes', () => {
    for (const good of ['1', '4', '5', '01', '04', '05'])
      assert.equal(checkField('customer.browser.challengeWindow', good), undefined, good);
    for (const bad of ['0', '6', '00', '06', '004', 'x']) assert.ok(checkField('customer.browser.challengeWindow', bad), bad);
    assert.equal(challengeWindowOf('4'), '04');
    assert.equal(challengeWindowOf('04'), '04');
    assert.equal(challengeWindowOf('6'), undefined);
  });

  it('a challenge indicator is any EMV value 01-09, also written with one digit', () => {
    for (const good of ['01', '04', '05', '08', '09', '4', '5', '8'])
      assert.equal(checkField('threeDSecure.challengeIndicator', good), undefined, good);
    for (const bad of ['00', '10', '0', 'x1']) assert.ok(checkField('threeDSecure.challengeIndicator', bad), bad);
  });

  it('AN32 entity ids are exactly 32 letters or digits', () => {
    assert.equal(checkField('entityId', '8ac7a4c79394bdc801939736f17e063d'), undefined);
    assert.match(checkField('entityId', '8ac7a4c79394bdc801939736f17e063')!, /exactly 32/);
    assert.match(checkField('entityId', '8ac7a4c79394bdc801939736f17e063-')!, /letters and digits/);
  });

  it('A3 currencies are three upper-case letters', () => {
    assert.equal(checkField('currency', 'EUR'), undefined);
    for (const bad of ['eur', 'EU', 'EURO', 'E1R']) assert.ok(checkField('currency', bad), bad);
  });

  it('a bare length on a human name is a maximum, and names of any script pass', () => {
    assert.equal(checkField('recipient.givenName', "Zoë-Anne O'Brien"), undefined);
    assert.equal(checkField('recipient.givenName', 'Łukasz Żółć'), undefined);
    assert.equal(checkField('recipient.surname', '山田'), undefined);
    assert.match(checkField('recipient.givenName', 'x'.repeat(49))!, /at most 48/);
    assert.ok(checkField('recipient.givenName', 'Robert<script>'));
  });

  it('ANS..n takes any printable text up to n characters', () => {
    assert.equal(checkField('recipient.street', 'Main St. 5/7 #2'), undefined);
    assert.match(checkField('recipient.street', 'x'.repeat(26))!, /at most 25/);
    assert.match(checkField('merchant.city', 'Line\nbreak')!, /control/);
  });

  it('N19 AdditionalTrace is exactly nineteen digits and YYMMDD is a real date', () => {
    assert.equal(checkField('customParameters[AdditionalTrace]', '1234567890123456789'), undefined);
    assert.ok(checkField('customParameters[AdditionalTrace]', '123456789012345678'));
    assert.equal(checkField('customParameters[DateOfFunds]', '261121'), undefined);
    assert.ok(checkField('customParameters[DateOfFunds]', '261321'));
    assert.ok(checkField('customParameters[DateOfFunds]', '2026-11-21'));
  });

  it('card numbers must pass the Luhn check', () => {
    assert.equal(passesLuhn('4200000000000000'), true);
    assert.equal(passesLuhn('4200000000000001'), false);
    assert.equal(checkField('card.number', '4200000000000000'), undefined);
    assert.match(checkField('card.number', '4200000000000001')!, /Luhn/);
  });

  it('credit-sender addresses have four or five pipe-separated parts', () => {
    assert.equal(checkField('customParameters[CreditSenderAddress]', '1 Main St|Austin|TX|USA|73301'), undefined);
    assert.ok(checkField('customParameters[CreditSenderAddress]', '1 Main St, Austin'));
  });

  it('unlisted custom parameters are free text; unknown fields are not judged', () => {
    assert.equal(formatOf('customParameters[OrderID]')?.kind, 'text');
    assert.equal(checkField('shipping.city', '\u0000'), undefined);
    assert.equal(formatOf('customParameters[bad name]'), undefined);
    for (const name of ['constructor', '__proto__', 'toString']) assert.equal(formatOf(name), undefined, name);
  });

  it('customer.ip accepts IPv4 and IPv6 and nothing else', () => {
    for (const good of ['127.0.0.1', '::1', '2001:db8::8a2e:370:7334']) assert.equal(checkField('customer.ip', good), undefined, good);
    for (const bad of ['256.1.1.1', 'localhost', '1.2.3']) assert.ok(checkField('customer.ip', bad), bad);
  });
});
