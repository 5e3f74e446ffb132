/**
 * The served widget's decisions, tested on its own modules (no DOM): which answers keep the shopper
 * on the form, what its fields accept, and that it agrees with the sandbox, which checks the same
 * card again with the same contract.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CARD_BRANDS, brandOfCardNumber, passesLuhn } from '../../src/contract/card.js';
import { brandOfCard, type FormCardBrand } from '../../src/contract/brands.js';
import { classifyResult, RESULT_CODES, type ResultKind } from '../../src/contract/result-codes.js';
import { validateParameters } from '../../src/contract/rules.js';
import { checkRedirect, RedirectProblem } from '../../src/browser/three-d-secure-flow.js';
import { nextStep } from '../../src/widget/next-step.js';
import { errorTextOf, FIELDS, isSavedCardCvv, isValidField, parseExpiry, type FieldContext } from '../../src/widget/fields.js';
import { TEST_CARDS } from '../../src/sandbox/gateway/triggers.js';

/** Kinds after which the payment certainly did not go through. */
const DEFINITE_REJECTIONS: ReadonlySet<ResultKind> = new Set([
  'declined',
  'rejected_3ds',
  'rejected_risk',
  'rejected_validation',
  'soft_decline',
  'rejected_async',
  'system_error',
]);

const code = fc
  .tuple(
    fc.constantFrom('000', '100', '200', '300', '500', '600', '700', '800', '900', '999', '123'),
    fc.integer({ min: 0, max: 999 }),
    fc.integer({ min: 0, max: 999 }),
  )
  .map(([first, second, third]) => `${first}.${String(second).padStart(3, '0')}.${String(third).padStart(3, '0')}`);

const after = (resultCode: string, parameterErrors?: { name: string }[]) =>
  nextStep({ result: { code: resultCode, ...(parameterErrors ? { parameterErrors } : {}) } });

describe('the widget after a card submission', () => {
  it('keeps the shopper on the form only after a definite rejection (never approved, pending, uncertain or unknown)', () => {
    for (const named of Object.values(RESULT_CODES)) {
      if (after(named).step === 'retry') assert.ok(DEFINITE_REJECTIONS.has(classifyResult(named)), `${named} is ${classifyResult(named)}`);
    }
    fc.assert(
      fc.property(code, (candidate) => after(candidate).step !== 'retry' || DEFINITE_REJECTIONS.has(classifyResult(candidate))),
      { numRuns: 5_000 },
    );
  });

  it("lets the shopper try again after every decline the sandbox triggers and the platform's bank and 3DS declines", () => {
    const declines = TEST_CARDS.flatMap((card) => (card.behaviour.kind === 'decline' ? [card.behaviour.code] : []));
    assert.ok(declines.length >= 4);
    const published = [
      '800.100.151',
      '800.100.152',
      '800.100.153',
      '800.100.155',
      '800.100.157',
      '800.100.159',
      '800.100.162',
      '800.100.165',
      '800.100.171',
      '000.400.101',
      '000.400.102',
      '000.400.109',
      RESULT_CODES.threeDsFailed,
      '300.100.100',
    ];
    for (const candidate of [...declines, ...published])
      assert.deepEqual(after(candidate), { step: 'retry', rejected: [], text: 'declined' }, candidate);
  });

  it('never tells the shopper "declined" for a configuration refusal (600.200.201): the brand is not available, the card was fine', () => {
    assert.deepEqual(after(RESULT_CODES.brandNotConfigured), { step: 'retry', rejected: [], text: 'brandUnavailable' });
  });

  it('sends every approved, pending, uncertain or unknown outcome to the result page', () => {
    for (const candidate of [
      '000.000.000',
      '000.100.110',
      '000.100.112',
      '000.400.110',
      '000.400.000',
      '000.200.000',
      '800.400.500',
      '900.100.300',
      '000.400.030',
      '123.456.789',
      '',
    ]) {
      assert.deepEqual(after(candidate), { step: 'result' }, candidate);
    }
    assert.deepEqual(nextStep(undefined), { step: 'result' });
  });

  it('tells a checkout that is gone (200.300.404 alone) from card data the gateway refused (200.300.404 with parameterErrors)', () => {
    assert.deepEqual(after(RESULT_CODES.invalidParameter), { step: 'expired' });
    assert.deepEqual(after(RESULT_CODES.invalidParameter, [{ name: 'card.cvv' }]), {
      step: 'retry',
      rejected: ['card.cvv'],
      text: 'declined',
    });
  });

  it('runs 3-D Secure whenever the answer carries a redirect', () => {
    const redirect = { url: 'https://acs.example/challenge', parameters: [] };
    assert.deepEqual(nextStep({ result: { code: RESULT_CODES.pending }, redirect }), { step: 'authenticate', redirect });
  });
});

const context = (brand: FormCardBrand, now = new Date('2026-05-15T12:00:00Z'), requireCvv = true): FieldContext => ({
  brand,
  requireCvv,
  now,
});

describe('the widget card fields', () => {
  it("accepts every sandbox test card as the brand the sandbox gives it, and the sandbox accepts the widget's brand", () => {
    for (const card of TEST_CARDS) {
      assert.ok(passesLuhn(card.number), card.number);
      // MADA cards by BIN first, as the widget detects them with binlist priority.
      assert.equal(brandOfCard(card.number), card.brand, card.number);
      assert.ok(isValidField('cardNumber', card.number.replace(/(\d{4})/g, '$1 ').trim(), context(card.brand)), card.number);
    }
  });

  it('agrees with the sandbox about which numbers are VISA, MASTER and AMEX', () => {
    const brandRefused = (brand: string, number: string) =>
      validateParameters('payment', { paymentBrand: brand, 'card.number': number }).some((error) => error.name === 'paymentBrand');
    const number = fc.stringMatching(/^[2-6][0-9]{15}$/);
    fc.assert(
      fc.property(
        number,
        fc.constantFrom('VISA', 'MASTER', 'AMEX'),
        (candidate, brand) => (brandOfCardNumber(candidate) === brand) === !brandRefused(brand, candidate),
      ),
      { numRuns: 2_000 },
    );
    for (const edge of [
      '2220',
      '2221',
      '2229',
      '2230',
      '2299',
      '2300',
      '2700',
      '2720',
      '2721',
      '5099',
      '5100',
      '5599',
      '5600',
      '3399',
      '3400',
      '3799',
    ]) {
      const candidate = edge.padEnd(16, '0');
      for (const brand of ['VISA', 'MASTER', 'AMEX'])
        assert.equal(brandOfCardNumber(candidate) === brand, !brandRefused(brand, candidate), `${brand} ${candidate}`);
    }
  });

  it('names at most one brand for any number: no two prefixes overlap', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{6}$/),
        (prefix) => Object.values(CARD_BRANDS).filter((brand) => brand.prefix.test(prefix)).length <= 1,
      ),
      { numRuns: 2_000 },
    );
  });

  it("refuses a number of the wrong length, a failed Luhn digit or another brand's number", () => {
    assert.equal(isValidField('cardNumber', '4200000000000001', context('VISA')), false);
    assert.equal(isValidField('cardNumber', '42000000000000', context('VISA')), false);
    assert.equal(isValidField('cardNumber', '5454545454545454', context('VISA')), false);
    assert.equal(isValidField('cardNumber', '5454-5454-5454-5454', context('MASTER')), true);
  });

  it('reads an expiry as the shopper types it and refuses one in the past, on the gateway clock (UTC)', () => {
    assert.deepEqual(parseExpiry('5 / 26'), { month: '05', year: '2026' });
    assert.deepEqual(parseExpiry('12/2030'), { month: '12', year: '2030' });
    assert.deepEqual(parseExpiry('0130'), { month: '01', year: '2030' });
    for (const bad of ['13/26', '00/26', '1/2', 'May 26', '']) assert.equal(parseExpiry(bad), undefined, bad);
    assert.equal(isValidField('expiry', '05 / 26', context('VISA')), true, 'valid to the end of its month');
    assert.equal(isValidField('expiry', '04 / 26', context('VISA')), false);
    // 23:30 on 31 May in New York is already June in UTC, where the gateway checks.
    assert.equal(isValidField('expiry', '05 / 26', context('VISA', new Date('2026-06-01T03:30:00Z'))), false);
    const sandboxRefuses = (month: string, year: string, now: Date) =>
      validateParameters('payment', { 'card.expiryMonth': month, 'card.expiryYear': year }, now).some(
        (error) => error.message === 'card has expired',
      );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 2020, max: 2032 }),
        fc.date({ min: new Date('2020-01-01'), max: new Date('2032-12-31'), noInvalidDate: true }),
        (month, year, now) => {
          const typed = `${String(month).padStart(2, '0')} / ${String(year).slice(2)}`;
          return isValidField('expiry', typed, context('VISA', now)) === !sandboxRefuses(String(month).padStart(2, '0'), String(year), now);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("tells a refused expiry in the platform's two texts: the year's when the year is unreadable or past, else the month's", () => {
    const expiry = FIELDS.find((field) => field.name === 'expiry')!;
    assert.equal(expiry.error, 'expiryMonthError', "the platform's hint: wpwl-hint-expiryMonthError");
    const now = new Date('2026-05-15T12:00:00Z');
    const textOf = (typed: string) => errorTextOf(expiry, typed, now);
    for (const typed of ['13 / 27', '00/27', 'May 27', '', '04 / 26']) assert.equal(textOf(typed), 'expiryMonthError', typed);
    for (const typed of ['12 / 25', '01/2020', '12 / 2', '05']) assert.equal(textOf(typed), 'expiryYearError', typed);
    const cvv = FIELDS.find((field) => field.name === 'cvv')!;
    assert.equal(errorTextOf(cvv, '1', now), 'cvvError');
  });

  it("asks the brand's CVV length, and none when requireCvv is false", () => {
    assert.equal(isValidField('cvv', '123', context('VISA')), true);
    assert.equal(isValidField('cvv', '1234', context('VISA')), false);
    assert.equal(isValidField('cvv', '1234', context('AMEX')), true);
    assert.equal(isValidField('cvv', '123', context('AMEX')), false);
    assert.equal(isValidField('cvv', '', context('VISA')), false);
    assert.equal(isValidField('cvv', '', context('VISA', undefined, false)), true);
    assert.equal(isValidField('cvv', '12a', context('VISA', undefined, false)), false);
  });

  it("asks a saved card's CVV at its listed brand's length, and any brand's length for a brand it has no rule for", () => {
    assert.equal(isSavedCardCvv('123', 'VISA'), true);
    assert.equal(isSavedCardCvv('1234', 'VISA'), false, 'a VISA code has three digits');
    assert.equal(isSavedCardCvv('1234', 'AMEX'), true);
    assert.equal(isSavedCardCvv('123', 'AMEX'), false, 'an AMEX code has four digits');
    assert.equal(isSavedCardCvv('123', 'MADA'), true);
    assert.equal(isSavedCardCvv('123', 'NEWBRAND'), true);
    assert.equal(isSavedCardCvv('1234', 'NEWBRAND'), true);
    assert.equal(isSavedCardCvv('12', 'NEWBRAND'), false);
    assert.equal(isSavedCardCvv('12a', 'VISA'), false);
    assert.equal(isSavedCardCvv('', 'VISA'), false);
  });

  it('takes a card holder exactly as the sandbox does: a name of any script, up to 128 characters', () => {
    const sandboxAccepts = (holder: string) =>
      !validateParameters('payment', { 'card.holder': holder }).some((error) => error.name === 'card.holder');
    for (const holder of [
      'Jane Jones',
      "Zoë O'Brien-Łukasz",
      '山田 太郎',
      'x'.repeat(128),
      '😀'.repeat(2),
      'x'.repeat(129),
      'Jane <script>',
      'a\tb',
    ]) {
      assert.equal(isValidField('cardHolder', holder, context('VISA')), sandboxAccepts(holder), JSON.stringify(holder));
    }
    assert.equal(isValidField('cardHolder', ' ', context('VISA')), false);
  });
});

describe('the shared 3-D Secure runner checks the whole redirect first', () => {
  const method = {
    origin: 'iframe#hidden',
    waitUntil: 'iframe#onload',
    method: 'POST',
    url: 'https://acs.example/method',
    parameters: [{ name: 'threeDSMethodData', value: 'e30' }],
  };
  const redirect = { url: 'https://acs.example/challenge', parameters: [{ name: 'creq', value: 'abc' }], preconditions: [method] };
  const problem = (value: unknown, isAllowed?: (url: URL) => boolean) => {
    try {
      checkRedirect(value, isAllowed);
      return undefined;
    } catch (error) {
      assert.ok(error instanceof RedirectProblem);
      return error.code;
    }
  };

  it("reads the gateway's redirect into steps", () => {
    const checked = checkRedirect(redirect);
    assert.equal(checked.preconditions.length, 1);
    assert.equal(checked.preconditions[0]!.url.href, 'https://acs.example/method');
    assert.deepEqual(checked.challenge, {
      method: 'POST',
      url: new URL('https://acs.example/challenge'),
      parameters: [{ name: 'creq', value: 'abc' }],
    });
  });

  it('refuses a malformed redirect, an unsafe URL anywhere, or a parameter a form post would change', () => {
    assert.equal(problem(undefined), 'invalid-redirect');
    assert.equal(problem({ ...redirect, preconditions: [{ ...method, origin: 'iframe#visible' }] }), 'invalid-redirect');
    assert.equal(problem({ ...redirect, method: 'PUT' }), 'invalid-redirect');
    assert.equal(problem({ ...redirect, parameters: [{ name: '_charset_', value: 'x' }] }), 'invalid-redirect');
    assert.equal(problem({ ...redirect, parameters: [{ name: 'a', value: 'line\nbreak' }] }), 'invalid-redirect');
    assert.equal(problem({ ...redirect, url: 'javascript:alert(1)' }), 'unsafe-url');
    assert.equal(problem({ ...redirect, preconditions: [{ ...method, url: 'http://acs.example/method' }] }), 'unsafe-url');
    assert.equal(problem({ ...redirect, url: 'http://127.0.0.1:4010/challenge' }), undefined);
  });

  it("lets the caller allow another origin (the widget: the sandbox's own, plain http off this machine)", () => {
    const sandbox = { ...redirect, url: 'http://sandbox:4010/v1/threeDSecure/challenge', preconditions: [] };
    assert.equal(problem(sandbox), 'unsafe-url');
    assert.equal(
      problem(sandbox, (url) => url.origin === 'http://sandbox:4010'),
      undefined,
    );
    assert.equal(
      problem(sandbox, (url) => url.origin === 'http://other:4010'),
      'unsafe-url',
    );
  });
});
