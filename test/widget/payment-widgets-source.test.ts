/**
 * Node checks of the served widget script's source: its retry decision can never drift from the
 * shared result-code classification, and it holds nothing a strict Content-Security-Policy refuses.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import ts from 'typescript';
import { classifyResult, RESULT_CODES, type ResultKind } from '../../src/contract/result-codes.js';
import { passesLuhn } from '../../src/contract/formats.js';
import { validateParameters } from '../../src/contract/rules.js';
import { TEST_CARDS } from '../../src/sandbox/triggers.js';

const scriptPath = new URL('../../src/sandbox/widget/payment-widgets.js', import.meta.url);
const source = readFileSync(scriptPath, 'utf8');

/** The script's own pattern, read from its source: the served file is a classic script, not a module. */
function retryOnForm(): RegExp {
  const match = /const RETRY_ON_FORM = \/(.+)\/;\n/.exec(source);
  assert.ok(match, 'payment-widgets.js declares `const RETRY_ON_FORM = /…/;`');
  return new RegExp(match[1]!);
}

/** Kinds after which the payment certainly did not go through, so the shopper may try again. */
const DEFINITE_REJECTIONS: ReadonlySet<ResultKind> = new Set([
  'declined', 'rejected_3ds', 'rejected_risk', 'rejected_validation', 'soft_decline', 'rejected_async', 'system_error',
]);

const code = fc
  .tuple(
    fc.constantFrom('000', '100', '200', '300', '500', '600', '700', '800', '900', '999', '123'),
    fc.integer({ min: 0, max: 999 }),
    fc.integer({ min: 0, max: 999 }),
  )
  .map(([first, second, third]) => `${first}.${String(second).padStart(3, '0')}.${String(third).padStart(3, '0')}`);

describe('payment-widgets.js retry decision', () => {
  const pattern = retryOnForm();

  it('keeps the shopper on the form only after a definite rejection (never approved, pending, uncertain or unknown)', () => {
    for (const named of Object.values(RESULT_CODES)) {
      if (pattern.test(named)) assert.ok(DEFINITE_REJECTIONS.has(classifyResult(named)), `${named} is ${classifyResult(named)}`);
    }
    fc.assert(
      fc.property(code, (candidate) => !pattern.test(candidate) || DEFINITE_REJECTIONS.has(classifyResult(candidate))),
      { numRuns: 20_000 },
    );
  });

  it('lets the shopper try again after every decline the sandbox triggers and the platform\'s bank and 3DS declines', () => {
    const declines = TEST_CARDS.flatMap((card) => (card.behaviour.kind === 'decline' ? [card.behaviour.code] : []));
    assert.ok(declines.length >= 4);
    const published = ['800.100.151', '800.100.152', '800.100.153', '800.100.155', '800.100.157', '800.100.159', '800.100.162', '800.100.165', '800.100.171', '000.400.101', '000.400.102', '000.400.109', RESULT_CODES.threeDsFailed, RESULT_CODES.invalidParameter];
    for (const candidate of [...declines, ...published]) assert.ok(pattern.test(candidate), candidate);
  });

  it('sends every approved, pending, uncertain or unknown outcome to the result page', () => {
    for (const candidate of ['000.000.000', '000.100.110', '000.100.112', '000.400.110', '000.400.000', '000.200.000', '800.400.500', '900.100.300', '000.400.030', '123.456.789', '']) {
      assert.equal(pattern.test(candidate), false, candidate);
    }
  });
});

describe('payment-widgets.js brand detection', () => {
  /** The script's brand prefixes, read from its BRANDS table. */
  const prefixes = new Map([...source.matchAll(/^ {4}(\w+): \{ prefix: \/(.+?)\/, lengths/gm)].map(([, brand, pattern]) => [brand!, new RegExp(pattern!)]));

  it('reads the brand table', () => {
    assert.deepEqual([...prefixes.keys()], ['VISA', 'MASTER', 'AMEX', 'DINERS', 'DISCOVER', 'JCB', 'UNIONPAY', 'MAESTRO']);
  });

  it('agrees with the sandbox about which numbers are VISA, MASTER and AMEX', () => {
    const brandRefused = (brand: string, number: string) =>
      validateParameters('payment', { paymentBrand: brand, 'card.number': number }).some((error) => error.name === 'paymentBrand');
    const number = fc.stringMatching(/^[2-6][0-9]{15}$/);
    fc.assert(
      fc.property(number, fc.constantFrom('VISA', 'MASTER', 'AMEX'), (candidate, brand) => prefixes.get(brand)!.test(candidate) === !brandRefused(brand, candidate)),
      { numRuns: 20_000 },
    );
    for (const edge of ['2220', '2221', '2229', '2230', '2299', '2300', '2700', '2720', '2721', '5099', '5100', '5599', '5600', '3399', '3400', '3799']) {
      const candidate = edge.padEnd(16, '0');
      for (const brand of ['VISA', 'MASTER', 'AMEX']) assert.equal(prefixes.get(brand)!.test(candidate), !brandRefused(brand, candidate), `${brand} ${candidate}`);
    }
    for (const card of TEST_CARDS) {
      assert.ok(passesLuhn(card.number), card.number);
      assert.ok(prefixes.get(card.brand)!.test(card.number), `${card.number} is ${card.brand} to the widget`);
    }
  });
});

describe('payment-widgets.js under a strict Content-Security-Policy', () => {
  it('uses no eval, no Function constructor, no HTML strings and no inline style attributes', () => {
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const refused of [/\beval\s*\(/, /\bnew\s+Function\b/, /\bFunction\s*\(/, /\.innerHTML\b/, /\.outerHTML\b/, /insertAdjacentHTML/, /document\.write/, /setAttribute\(\s*['"](style|on\w+)['"]/, /setTimeout\(\s*['"`]/]) {
      assert.doesNotMatch(code, refused);
    }
  });

  it('is a classic script in one function scope, leaving only wpwl behind', () => {
    assert.match(source, /^\/\/ @ts-check\n/);
    assert.match(source, /\n\(function \(\) \{\n {2}'use strict';\n/);
    assert.match(source, /\n\}\)\(\);\n$/);
    assert.doesNotMatch(source, /^\s*(import|export)\s/m);
  });
});

describe('payment-widgets.js types', () => {
  it('passes the type checker (// @ts-check with JSDoc types, strict, DOM only)', () => {
    const program = ts.createProgram([fileURLToPath(scriptPath)], {
      allowJs: true, checkJs: true, noEmit: true, strict: true, target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'], types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    assert.deepEqual(problems, []);
  });
});
