/** The shared scrubber: by name, by the request's known secrets, by shape (Luhn digit runs, Bearer tokens, labelled CVVs). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { passesLuhn } from '../../src/contract/formats.js';
import {
  createRedactor,
  maskCardNumber,
  maskCardNumbers,
  maskLabelledSecrets,
  maskParameter,
  maskSecretsByShape,
  MASKED_CVV,
  MASKED_TOKEN,
  redactByShape,
  REQUEST_IDENTIFIER_NAMES,
  secretKindOfName,
  textOf,
} from '../../src/contract/redaction.js';
import { SECRET_NAME_SPELLINGS } from '../../src/contract/secrets.js';
import { ANSWER_MAX_BYTES } from '../../src/contract/limits.js';

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

  test('by shape: groups split by %20 (a URL value) or + (a form value) are a card number too, also right after a %20', () => {
    assert.equal(maskCardNumbers('card=4200%200000%200000%200000&x=1'), 'card=4200%2000**%20****%200000&x=1');
    assert.equal(maskCardNumbers('note=card+4200+0000+0000+0000'), 'note=card+4200+00**+****+0000');
    assert.equal(maskCardNumbers('a%204200%200000%200000%200000'), 'a%204200%2000**%20****%200000');
    assert.equal(maskCardNumbers('total%20100%201000'), 'total%20100%201000', 'not a card number');
  });

  test('by shape: groups split by any separator as a URL encodes it (%2F, %2C, %7C, %3A, %09, %0A, an en dash), in either case of hex', () => {
    for (const separator of [
      '%2F',
      '%2f',
      '%2C',
      '%7C',
      '%3A',
      '%3B',
      '%09',
      '%0A',
      '%0D%0A',
      '%C2%A0',
      '%E2%80%93',
      '%e2%80%93',
      '%E2%88%92',
    ])
      assert.equal(
        maskCardNumbers(`note=paid%20with${separator}4200${separator}0000${separator}0000${separator}0000`),
        `note=paid%20with${separator}4200${separator}00**${separator}****${separator}0000`,
        separator,
      );
    assert.equal(maskCardNumbers('date=2026%2F11%2F27%2016%3A45%3A12'), 'date=2026%2F11%2F27%2016%3A45%3A12', 'a date and time is no card');
  });

  test('through needless percent-escapes: a card number, token or code spelled %34%32%30%30… is the same secret', () => {
    const everyByte = (text: string) => [...text].map((character) => `%${character.charCodeAt(0).toString(16)}`).join('');
    assert.equal(redactByShape(`card=${everyByte(PAN)}&x=1`), 'card=420000******0000&x=1');
    assert.equal(redactByShape(`card=%34200%200000%200000%20%3000%30`), 'card=4200%2000**%20****%200000', 'escapes mixed with digits');
    const token = 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c2VjcmV0';
    const redact = createRedactor({ accessToken: token, cardNumber: PAN, cvv: '737' });
    assert.equal(redact(`t=${everyByte(token)}`), `t=${MASKED_TOKEN}`);
    assert.equal(redact.known(`ref=${everyByte(PAN)}`), 'ref=420000******0000', 'an identifier field too');
    assert.equal(redact.secrets(`code ${everyByte('737')} sent`), 'code *** sent');
    assert.ok(redact.mayHold(`x${everyByte('4')}`), 'a text with needless escapes is scrubbed after parsing');
    assert.equal(
      redactByShape('name=%41nna&path=%2Fv1%2Fpayments'),
      'name=%41nna&path=%2Fv1%2Fpayments',
      'a text without a secret keeps its spelling',
    );
  });

  test("known: the request's own card number in any spelling, and its other declared secrets", () => {
    const redact = createRedactor({ cardNumber: PAN, others: ['wallet-token-canary/1=', '864213'] });
    for (const spelled of [
      '4200 0000 0000 0000',
      '4200-0000-0000-0000',
      '4200%200000%200000%200000',
      '4200+0000+0000+0000',
      '4200|0000|0000|0000',
      '4200    0000    0000    0000',
      '42 00 00 00 00 00 00 00',
    ])
      assert.doesNotMatch(redact.secrets(`echo ${spelled}`), /4200.{0,4}0000.{0,4}0000.{0,4}0000|%200000%20|42 00 00 00/, spelled);
    assert.equal(redact.secrets('t wallet-token-canary/1= x'), 't *** x');
    assert.equal(redact.secrets('otp 864213 at 2026-11-26'), 'otp *** at 2026-11-26');
    assert.equal(redact.secrets('1864213'), '1864213', 'a short secret only where it stands alone');
    assert.ok(redact.mayHold('"\\u0034200"'), 'a JSON-escaped text is scrubbed after parsing');
  });

  test('gateway ids, checkout ids and UUIDs keep their digits', () => {
    for (const id of [
      '8ac7a4a1420000000000000000000000',
      'ABCE449B5FC84ED5A1C4200000000000.uat01-vm-tx03',
      '12345678-1234-4123-8123-420000000000',
    ]) {
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
    assert.equal(
      redact('cvv 100, amount 100.00, code 800.100.152, at 2026-11-23 10:00:00.100'),
      'cvv ***, amount 100.00, code 800.100.152, at 2026-11-23 10:00:00.100',
    );
    assert.deepEqual(redact.deep({ card: { number: '4111', cvv: '1' }, holder: `a ${PAN}`, n: 1 }), {
      card: { number: '****', cvv: '***' },
      holder: 'a 420000******0000',
      n: 1,
    });
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

  test('property, fixed cases: a card number at the start, at the end, alone, glued to letters', () => {
    for (const [text, masked] of [
      [PAN, '420000******0000'],
      [`${PAN} end`, '420000******0000 end'],
      [`start ${PAN}`, 'start 420000******0000'],
      [`a${PAN}b`, 'a420000******0000b'],
      ['378282246310005', '378282*****0005'],
      ['4222222222222', '422222***2222'],
    ])
      assert.equal(maskSecretsByShape(text!), masked, text);
  });

  test('by name, however it is written: case, nesting, flat or bracketed, separators', () => {
    const cases: [string, string | undefined][] = [
      ['card.number', 'cardNumber'],
      ['CARD.NUMBER', 'cardNumber'],
      ['customParameters[cardNumber]', 'cardNumber'],
      ['card_number', 'cardNumber'],
      ['pan', 'cardNumber'],
      ['card.cvv', 'securityCode'],
      ['cvv', 'securityCode'],
      ['CVV', 'securityCode'],
      ['customParameters[CVV]', 'securityCode'],
      ['customParameters[securityCode]', 'securityCode'],
      ['security_code', 'securityCode'],
      ['card-cvc', 'securityCode'],
      ['cvv2', 'securityCode'],
      ['cvc2', 'securityCode'],
      ['cvn', 'securityCode'],
      ['Authorization', 'accessToken'],
      ['authorization', 'accessToken'],
      ['customParameters[access_token]', 'accessToken'],
      ['number', undefined],
      ['billing.number', undefined],
      ['card.holder', undefined],
      ['cvvResponse', undefined],
      ['result.cvvResponse', undefined],
      ['token', undefined],
      ['', undefined],
    ];
    for (const [name, kind] of cases) assert.equal(secretKindOfName(name), kind, name);
    assert.equal(maskParameter('customParameters[CVV]', '8417'), MASKED_CVV);
    assert.equal(maskParameter('customParameters[cardNumber]', '4200 0000 0000 0000'), '4200 00** **** 0000');
    assert.equal(maskParameter('customParameters[access_token]', 'Bearer abcdefgh'), `Bearer ${MASKED_TOKEN}`);
  });

  test('an Authorization value without a scheme is all token; the scheme and its spacing are kept', () => {
    assert.equal(maskParameter('Authorization', 'OGFjN2E0Yzc5Mzk0'), MASKED_TOKEN);
    assert.equal(maskParameter('AUTHORIZATION', 'Bearer  two-spaces'), `Bearer  ${MASKED_TOKEN}`);
    assert.equal(maskParameter('authorization', 'Basic dXNlcjpwYXNz\nmore'), `Basic ${MASKED_TOKEN}`);
  });

  test('Bearer tokens by shape: any case, any spacing, the spacing kept; a lone word "bearer" is not a token', () => {
    assert.equal(maskLabelledSecrets('Bearer  abc.def'), `Bearer  ${MASKED_TOKEN}`);
    assert.equal(maskLabelledSecrets('x bearer\tabc/def='), `x bearer\t${MASKED_TOKEN}`);
    assert.equal(maskLabelledSecrets('BEARER a'), `BEARER ${MASKED_TOKEN}`);
    assert.equal(maskLabelledSecrets('the bearer'), 'the bearer');
    assert.equal(maskLabelledSecrets('unbearer abc'), 'unbearer abc', 'Bearer starts a word');
    assert.equal(maskLabelledSecrets('nothing secret 123'), 'nothing secret 123');
  });

  test('labelled security codes under any of their names, flat or bracketed, in forms, JSON and text', () => {
    for (const [text, masked] of [
      ['cvv=987', 'cvv=***'],
      ['CVV: 987', 'CVV: ***'],
      ["cvv = '987'", "cvv = '***'"],
      ['customParameters[CVV]=987&x=1', 'customParameters[CVV]=***&x=1'],
      ['customParameters%5BsecurityCode%5D=987', 'customParameters%5BsecurityCode%5D=***'],
      ['{"securityCode":"987","cvvResponse":"M"}', '{"securityCode":"***","cvvResponse":"M"}'],
      ['security_code:987;next', 'security_code:***;next'],
      ['card-cvc2=987 ', 'card-cvc2=*** '],
      ['cvn=987,cvv=654}', 'cvn=***,cvv=***}'],
    ])
      assert.equal(maskSecretsByShape(text!), masked, text);
  });

  test('card numbers written with any separators are masked; amounts, dates, codes, short ids and addresses are not', () => {
    for (const [text, masked] of [
      ['4200-0000 0000-0000', '4200-00** ****-0000'],
      ['4200\u00a00000\u00a00000\u00a00000', '4200\u00a000**\u00a0****\u00a00000'],
      ['4200\t0000\t0000\t0000', '4200\t00**\t****\t0000'],
      ['4200\n0000\n0000\n0000', '4200\n00**\n****\n0000'],
      ['4200  0000  0000  0000', '4200  00**  ****  0000'],
      ['4200 - 0000 - 0000 - 0000', '4200 - 00** - **** - 0000'],
      ['4200/0000/0000/0000', '4200/00**/****/0000'],
      ['4200_0000_0000_0000', '4200_00**_****_0000'],
      ['4200,0000,0000,0000', '4200,00**,****,0000'],
      ['4200\u202f0000\u20090000\u20070000', '4200\u202f00**\u2009****\u20070000'],
      ['4200    0000    0000    0000', '4200    00**    ****    0000'],
      ['4200|0000|0000|0000', '4200|00**|****|0000'],
      ['4200:0000:0000:0000', '4200:00**:****:0000'],
      ['4200;0000;0000;0000', '4200;00**;****;0000'],
      ['4200~0000~0000~0000', '4200~00**~****~0000'],
      ['4200\u20100000\u20130000\u22120000', '4200\u201000**\u2013****\u22120000'],
      [
        '\uff14\uff12\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10',
        '\uff14\uff12\uff10\uff10\uff10\uff10******\uff10\uff10\uff10\uff10',
      ],
      [
        '\u0664\u0662\u0660\u0660 \u0660\u0660\u0660\u0660 \u0660\u0660\u0660\u0660 \u0660\u0660\u0660\u0660',
        '\u0664\u0662\u0660\u0660 \u0660\u0660** **** \u0660\u0660\u0660\u0660',
      ],
      [
        '\u06f4\u06f2\u06f0\u06f0-\u06f0\u06f0\u06f0\u06f0-\u06f0\u06f0\u06f0\u06f0-\u06f0\u06f0\u06f0\u06f0',
        '\u06f4\u06f2\u06f0\u06f0-\u06f0\u06f0**-****-\u06f0\u06f0\u06f0\u06f0',
      ],
      ['4200 0000 0000 0000', '4200 00** **** 0000'],
      ['4200-0000-0000-0000', '4200-00**-****-0000'],
      ['4200.0000.0000.0000', '4200.00**.****.0000'],
      ['card 3782 822463 10005.', 'card 3782 82**** *0005.'],
      ['4200 0000 0000 0000 123', '4200 00** **** 0000 123'],
      ['pay 4200 0000 0000 0000, thanks', 'pay 4200 00** **** 0000, thanks'],
    ])
      assert.equal(maskCardNumbers(text!), masked, text);
    for (const text of [
      '1.00 2.00 3.00 4.00',
      '2026-11-23 10:00:00.100',
      '800.100.152 800.100.153',
      '4301.4144.2121',
      '192.168.100.200',
      '4200 0000 0000 0001',
      '2026, 11, 23',
      '1,000,000.00',
      'lines 1200\n1300\n1400',
      '12345678-1234-4123-8123-420000000000',
    ]) {
      assert.equal(maskCardNumbers(text), text, text);
    }
  });

  test('maskCardNumber: first six and last four digits at most, separators where they were; 12 or fewer all stars', () => {
    assert.equal(maskCardNumber('4200000000000000'), '420000******0000');
    assert.equal(maskCardNumber('4200 0000 0000 0000'), '4200 00** **** 0000');
    assert.equal(maskCardNumber('4222222222222'), '422222***2222');
    assert.equal(maskCardNumber('420000000000'), '************');
    assert.equal(maskCardNumber(''), '');
  });

  test('known secrets echoed one at a time, in every position, are replaced; texts without them are returned as they are', () => {
    const secrets = { accessToken: 'tok-ABCDEFGH/12', cardNumber: '4200000000000001', cvv: '7531' };
    const redact = createRedactor(secrets);
    const replaced = { accessToken: MASKED_TOKEN, cardNumber: '420000******0001', cvv: MASKED_CVV };
    for (const [name, secret] of Object.entries(secrets) as [keyof typeof secrets, string][]) {
      for (const [text, expected] of [
        [secret, replaced[name]],
        [`${secret} at the start`, `${replaced[name]} at the start`],
        [`at the end ${secret}`, `at the end ${replaced[name]}`],
        [`in ${secret} the middle`, `in ${replaced[name]} the middle`],
        [`{"x":"${secret}"}`, `{"x":"${replaced[name]}"}`],
      ]) {
        assert.equal(redact(text!), expected, `${name}: ${text}`);
        assert.equal(redact.secrets(text!), expected, `${name} (answer): ${text}`);
        assert.equal(redact.mayHold(text!), true, `${name} may be in ${text}`);
      }
    }
    assert.equal(redact.known('cvv 7531'), 'cvv 7531', 'known replaces the token and the card number only');
    assert.equal(redact.known('4200000000000001'), '420000******0001');
    assert.equal(redact.mayHold('{"x":"tok-ABCDEFGH\\/12"}'), true, 'a JSON-escaped token');
    assert.equal(redact.mayHold('nothing here 75310'), false);
    assert.equal(redact.mayHold('nothing here at all'), false);
    assert.equal(redact('code 7531.5, 17531, 7531:00'), 'code 7531.5, 17531, 7531:00', 'not where it is part of a number');
  });

  test('every token the sandbox knows is replaced, not only the calling one; short values are never replaced by value', () => {
    const redact = createRedactor({
      accessToken: 'calling-token-1',
      accessTokens: ['other-token-22', 'short'],
      cardNumber: '4200',
      cvv: '12',
    });
    assert.equal(redact('calling-token-1 other-token-22 short 4200 12'), `${MASKED_TOKEN} ${MASKED_TOKEN} short 4200 12`);
    assert.equal(createRedactor({ accessTokens: ['only-other-token'] }).secrets('x only-other-token'), `x ${MASKED_TOKEN}`);
  });

  test('answers handed back as data: labelled secrets masked, digit runs the request did not know kept', () => {
    const redact = createRedactor({ accessToken: 'calling-token-1' });
    assert.equal(redact.secrets(`Bearer abcdef ${PAN}`), `Bearer ${MASKED_TOKEN} ${PAN}`);
    assert.equal(redact(`Bearer abcdef ${PAN}`), `Bearer ${MASKED_TOKEN} 420000******0000`);
    assert.equal(redact.mayHold('{"Authorization":"Bearer abcdef"}'), true);
    assert.deepEqual(redact.deep({ note: `Bearer abcdef ${PAN}` }, '', true), { note: `Bearer ${MASKED_TOKEN} ${PAN}` });
  });

  test('deep: secret names at any depth and case, flat or nested under card; identifiers by known secrets only', () => {
    const redact = createRedactor({ cardNumber: '4111111111111111', keep: ['order-4200000000000000'] });
    const copy = redact.deep({
      cvv: '123',
      customParameters: { CVV: '4567', securityCode: '890', note: `x ${PAN}`, [PAN]: 'key' },
      Card: { Number: '4111111111111111', holder: 'Jane' },
      merchantTransactionId: '4200000000000000',
      shortId: '4200.0000.0000.0000',
      list: ['4111111111111111', 7, null, true],
      id: 'id 4111111111111111',
    });
    assert.deepEqual(copy, {
      cvv: MASKED_CVV,
      customParameters: { CVV: MASKED_CVV, securityCode: MASKED_CVV, note: 'x 420000******0000', '420000******0000': 'key' },
      Card: { Number: '411111******1111', holder: 'Jane' },
      merchantTransactionId: '4200000000000000',
      shortId: '4200.0000.0000.0000',
      list: ['411111******1111', 7, null, true],
      id: 'id 411111******1111',
    });
  });

  test('a merchantTransactionId that passes the card-number check stays readable, also inside a text; secrets around it do not', () => {
    const orderId = '1700000000004';
    assert.ok(passesLuhn(orderId));
    const redact = createRedactor({ cvv: '999', keep: [orderId, undefined, ''] });
    assert.equal(redact(`order ${orderId} card ${PAN} cvv 999`), `order ${orderId} card 420000******0000 cvv ***`);
    assert.equal(redactByShape(`order ${orderId}`), 'order 170000***0004', 'without keep it would be masked');
    assert.equal(redact.deep({ merchantTransactionId: orderId }).merchantTransactionId, orderId);
  });

  test('a Luhn run next to an id is still masked; a run that makes a 32-hex word with letters is an id', () => {
    assert.equal(maskCardNumbers(`8ac7a4a1-${PAN}`), '8ac7a4a1-420000******0000', 'not an id word');
    assert.equal(maskCardNumbers(`${PAN}aaaaaaaaaaaaaaaa`), `${PAN}aaaaaaaaaaaaaaaa`, '32 hex: an id');
  });
});

describe('other spellings of the same secrets', () => {
  const TOKEN = 'OGFjN2E0Yzc5Mzk0YmRjODAxOTM5NzM2ZjFhNzA2NDF8c2FuZGJveA==';

  test('the whole token is replaced before a spelling it begins with: nothing of its padding is left', () => {
    const redact = createRedactor({ accessToken: TOKEN });
    assert.equal(redact(`echo ${TOKEN} end`), `echo ${MASKED_TOKEN} end`);
    assert.equal(redact(`echo ${encodeURIComponent(TOKEN)} end`), `echo ${MASKED_TOKEN} end`);
  });

  test('every other name a secret goes by, written as merchants and plugins write it', () => {
    const names: Record<string, string> = {
      'customParameters[cvc]': 'securityCode',
      card_security_code: 'securityCode',
      cardCvv: 'securityCode',
      creditCardNumber: 'cardNumber',
      'wallet.paymentToken': 'walletToken',
      'customParameters[card.number]': 'cardNumber',
      'customParameters[card][number]': 'cardNumber',
    };
    for (const [name, kind] of Object.entries(names)) assert.equal(secretKindOfName(name), kind, name);
    // `number` is a card's only inside `card`: a house or an invoice has a number too.
    for (const name of ['number', 'house.number', 'invoice[number]', 'card.numbers', 'card'])
      assert.equal(secretKindOfName(name), undefined, name);
  });

  test("a request's fields: only its merchantTransactionId is an id; anything named like an answer's id is scrubbed fully", () => {
    const redact = createRedactor({});
    assert.equal(redact.deep('4200000000000000', 'merchantTransactionId', false, REQUEST_IDENTIFIER_NAMES), '4200000000000000');
    for (const name of ['id', 'ndc', 'shortId', ''])
      assert.equal(redact.deep('4200000000000000', name, false, REQUEST_IDENTIFIER_NAMES), '420000******0000', name);
    // An answer's ids are kept by default.
    assert.equal(redact.deep('4200000000000000', 'id'), '4200000000000000');
  });

  test('a token without its padding, percent-encoded in lower-case hex, or decoded is the token', () => {
    const redact = createRedactor({ accessToken: TOKEN });
    for (const spelling of [
      TOKEN.replace(/=+$/, ''),
      encodeURIComponent(TOKEN).replace(/%3D/g, '%3d'),
      atob(TOKEN),
      encodeURIComponent(atob(TOKEN)),
    ]) {
      const shown = redact(`echo ${spelling} end`);
      assert.equal(shown, `echo ${MASKED_TOKEN} end`, spelling);
      assert.equal(redact.mayHold(`echo ${spelling}`), true, spelling);
    }
  });

  test("a merchantTransactionId is kept whole only where scrubbing would change it, and never the request's code alone", () => {
    // Eight characters a card number may contain: not kept, so the card number around them is masked.
    assert.equal(createRedactor({ keep: ['42424242'] })('card 4242424242424242'), 'card 424242******4242');
    // Eight characters holding the request's code: kept, so the order id stays readable.
    assert.equal(createRedactor({ cvv: '123', keep: ['order123'] })('ref order123, cvv 123'), 'ref order123, cvv ***');
    // The code itself as the order id: the code is masked where it stands alone.
    assert.equal(createRedactor({ cvv: '737', keep: ['737'] })('order 737'), 'order ***');
  });

  test("the request's other declared secrets: long ones replaced anywhere, short ones where they stand alone, tiny or non-text ones never", () => {
    const redact = createRedactor({ others: ['tok_wallet_1234', 'abcdefgh', '482913', 'ab', 12345678 as unknown as string, undefined] });
    assert.equal(redact('xtok_wallet_1234y xabcdefghy'), `x${MASKED_CVV}y x${MASKED_CVV}y`);
    assert.equal(redact('otp 482913, ref 9482913'), `otp ${MASKED_CVV}, ref 9482913`);
    assert.equal(redact('ab abc'), 'ab abc');
    assert.equal(redact('12345678'), '12345678');
  });

  test("mayHold sees the request's card number spelled with separators in JSON text, at its start too", () => {
    const redact = createRedactor({ cardNumber: '4111111111111111' });
    assert.equal(redact.mayHold('{"note":"4111 1111 1111 1111"}'), true);
    assert.equal(redact.mayHold('4111-1111-1111-1111 is it'), true);
    assert.equal(redact.mayHold('{"note":"4111 1111 1111 1112"}'), false);
  });

  test('a short merchantTransactionId never splits a card number around it', () => {
    for (const orderId of ['42', '1', '4242', '1001'])
      assert.equal(
        createRedactor({ keep: [orderId] })(`order ${orderId}: backup card 4242424242424242`),
        `order ${orderId}: backup card 424242******4242`,
        orderId,
      );
  });

  test('security codes under the other names cards and gateways give them, also with stray spaces', () => {
    for (const name of [
      'customParameters[CID]',
      'customParameters[csc]',
      'cardVerificationValue',
      'card_verification_code',
      'cardCode',
      'customParameters[cvv ]',
    ])
      assert.equal(secretKindOfName(name), 'securityCode', name);
    assert.equal(maskLabelledSecrets('csc=9876&cardCode=123'), `csc=${MASKED_CVV}&cardCode=${MASKED_CVV}`);
  });
});

describe('a token echoed in a form or a URL', () => {
  test('its percent-encoded spelling is masked as the token is (a base64 token ends in = or holds + and /)', () => {
    const token = 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c2VjcmV0+/Q==';
    const redact = createRedactor({ accessToken: token });
    const echoed = `bad amount=1&customParameters%5Bnote%5D=${encodeURIComponent(token)}&currency=EUR`;
    const masked = redact(echoed);
    assert.ok(!masked.includes('OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c2VjcmV0'), masked);
    assert.ok(masked.includes(MASKED_TOKEN));
    assert.equal(redact(`as sent: ${token}`), `as sent: ${MASKED_TOKEN}`);
  });
});

describe('the edges of each rule, one case each', () => {
  // Ids built around a 16-digit run that passes the Luhn check, bounded by letters: only the id rule keeps them.
  const ID_32 = `8ac7a4ab${PAN}abcdefab`;
  const ID_32_UPPER = `8AC7A4AB${PAN}ABCDEFAB`;
  const ID_40 = `a1cccf5b${PAN}abcdefab01234567`;
  const UUID = '12345678-4200-0000-0000-00000000000a';

  test('an id is the whole word: 32 hex (one case), 40 hex or a UUID; a longer or shorter word around the run is not an id', () => {
    for (const id of [ID_32, ID_32_UPPER, ID_40, UUID]) {
      assert.equal(maskCardNumbers(`payment ${id} failed`), `payment ${id} failed`, id);
      assert.equal(maskCardNumbers(id), id, id);
    }
    assert.equal(maskCardNumbers(`zz${ID_32}`), `zz8ac7a4ab420000******0000abcdefab`, 'a prefix: 34 characters');
    assert.equal(maskCardNumbers(`${ID_32}zz`), `8ac7a4ab420000******0000abcdefabzz`, 'a suffix: 34 characters');
    assert.equal(maskCardNumbers(`8ac7a4ab${PAN}ABCDEFAB`), `8ac7a4ab420000******0000ABCDEFAB`, 'mixed case is no id');
  });

  test('separated card numbers: 13 and 19 digits are cards; of 20, the longest leading card is masked', () => {
    assert.equal(maskCardNumbers('4222 222 222 222'), '4222 22* **2 222');
    assert.equal(maskCardNumbers('4200 0000 0000 0000 002'), '4200 00** **** ***0 002');
    assert.equal(maskCardNumbers('4200 0000 0000 0000 0000'), '4200 00** **** 0000 0000');
  });

  test('a known security code inside an id at the start of a word is kept; elsewhere every occurrence is masked', () => {
    const redact = createRedactor({ cvv: '753' });
    const id = `753${'a'.repeat(29)}`;
    assert.equal(redact(`id ${id}`), `id ${id}`);
    assert.equal(redact('cvv 753, again 753'), 'cvv ***, again ***');
    assert.equal(createRedactor({ cvv: '1.3' })('code 1.3 and 1x3'), 'code *** and 1x3', 'a code is matched as written, not as a pattern');
  });

  test('values of 8 characters are replaced by value; shorter ones only by name', () => {
    assert.equal(createRedactor({ accessToken: 'tok-8chr' })('a tok-8chr b'), `a ${MASKED_TOKEN} b`);
    assert.equal(createRedactor({ cardNumber: '12345678' })('a 12345678 b'), 'a ******** b');
    assert.equal(createRedactor({ accessToken: 'tok-7ch' })('a tok-7ch b'), 'a tok-7ch b');
    // A token's spellings too: `abcdef==` is replaced whole, its unpadded 6 characters are too short to replace anywhere.
    assert.equal(createRedactor({ accessToken: 'abcdef==' })('abcdef== and abcdef'), `${MASKED_TOKEN} and abcdef`);
  });

  test('without a security code, a text holding "undefined" is neither mangled nor thought to hold one', () => {
    const redact = createRedactor({ accessToken: 'calling-token-1' });
    assert.equal(redact('value undefined'), 'value undefined');
    assert.equal(redact.mayHold('value undefined'), false);
  });

  test('every identifier field keeps a digit run that passes the Luhn check; other fields do not', () => {
    const redact = createRedactor();
    for (const name of [
      'id',
      'referencedId',
      'registrationId',
      'merchantTransactionId',
      'ndc',
      'buildNumber',
      'timestamp',
      'paymentId',
      'checkoutId',
      'shortId',
      'CardholderInitiatedTransactionID',
    ]) {
      assert.deepEqual(redact.deep({ [name]: PAN }), { [name]: PAN }, name);
    }
    assert.deepEqual(redact.deep({ description: PAN }), { description: '420000******0000' });
    // A standing instruction's scheme id nested where the gateway puts it: 12 digits passing Luhn, then hex letters.
    const resultDetails = { CardholderInitiatedTransactionID: '189180480429E3A' };
    assert.deepEqual(redact.deep({ resultDetails }), { resultDetails });
  });

  test('maskParameter is total: numbers, null and objects as names or values are converted, a name still decides', () => {
    assert.equal(maskParameter('note', 4200000000000000 as unknown as string), '420000******0000');
    assert.equal(maskParameter('note', null as unknown as string), '');
    assert.equal(maskParameter(['cvv'] as unknown as string, '123'), MASKED_CVV);
    assert.equal(maskParameter(undefined as unknown as string, 'plain'), 'plain');
  });

  test('textOf never throws: a value without a string form is named by its type', () => {
    assert.equal(textOf(Object.create(null)), '[object]');
    assert.equal(
      textOf({
        toString: () => {
          throw new Error('no');
        },
      }),
      '[object]',
    );
    assert.equal(textOf(12), '12');
  });
});

describe('secrets named in an answer', () => {
  test('every spelling of a security code labels one in a text, and Amex `cid` only as a word of its own', () => {
    for (const [spelling, kind] of Object.entries(SECRET_NAME_SPELLINGS))
      if (kind === 'securityCode') assert.equal(maskLabelledSecrets(`${spelling}=4821`), `${spelling}=${MASKED_CVV}`, spelling);
    assert.equal(maskLabelledSecrets('customParameters[CID]=4821'), `customParameters[CID]=${MASKED_CVV}`);
    assert.equal(maskLabelledSecrets('acid=4821&decid=7'), 'acid=4821&decid=7');
  });

  test('an answer holding a key that names a secret is copied and masked by name, whatever else it holds', () => {
    const redact = createRedactor();
    for (const text of [
      '{"card":{"number":"4111111111111111"}}',
      '{"customParameters":{"CID":"1234"}}',
      '{"x":{"card_number":"1"}}',
      '{"customParameters[Security-Code]":"1"}',
      '{"wallet":{"paymentToken":["t"]}}',
    ]) {
      assert.ok(redact.mayHold(text), text);
      assert.equal(JSON.stringify(redact.deep(JSON.parse(text), '', true)).includes('"1"'), false, text);
    }
    // The platform's own fields name none: a payment is handed back as parsed, without a copy.
    assert.equal(redact.mayHold('{"id":"8ac7a4a1","amount":"1.00","card":{"bin":"420000","last4Digits":"0000"},"shortId":"1.2.3"}'), false);
  });

  test('what lies under a secret name is masked, in a list or an object', () => {
    const copy = createRedactor().deep({ customParameters: { cvv: ['737'] }, card: { securityCode: { value: '738' } } }, '', true);
    assert.doesNotMatch(JSON.stringify(copy), /73[78]/);
  });
});

describe('a hostile text at the size of an answer', () => {
  // Each try of a pattern must cost a bounded amount, never a walk to the text's end: at ANSWER_MAX_BYTES a scan that
  // does took minutes (a key scan over `[cvv.[cvv.…`, a word walk over `1234-1234-…`) and held the event loop all along.
  // The limit stops such a regression as a failure, not a hang: the linear scans take well under a second.
  const texts = ['[cvv.', '"number.', '1234-', '4111 1111 1111 1111 ', '7391a', '%34'].map((piece) =>
    piece.repeat(Math.ceil(ANSWER_MAX_BYTES / piece.length)).slice(0, ANSWER_MAX_BYTES),
  );
  test('is scanned, scrubbed and copied in one pass', { timeout: 60_000 }, () => {
    const redact = createRedactor({ cardNumber: PAN, cvv: '7391' });
    for (const text of texts) {
      assert.equal(typeof redact.mayHold(text), 'boolean');
      assert.equal(typeof redact(text), 'string');
      redact.deep({ [text.slice(0, 64 * 1024)]: text }, '', true);
      maskCardNumbers(text);
    }
  });

  test('a key that names a secret ahead of more segments still marks the answer, however long the key', () => {
    const redact = createRedactor();
    for (const key of ['cvv.value', 'customParameters[CVV]', `cvv.${'x'.repeat(100_000)}`, 'card.number.note'])
      assert.ok(redact.mayHold(JSON.stringify({ [key]: 'v' })), key.slice(0, 40));
  });
});

test("a `__proto__` key of an answer is copied as a field, never as the copy's prototype", () => {
  const parsed = JSON.parse('{"cvv":"999","__proto__":{"redirect":{"url":"https://evil.example/"}}}') as Record<string, unknown>;
  const copy = createRedactor().deep(parsed, '', true) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.equal((copy as { redirect?: unknown }).redirect, undefined, 'no field inherited from it');
  assert.deepEqual(Object.keys(copy), ['cvv', '__proto__']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value, { redirect: { url: 'https://evil.example/' } });
});
