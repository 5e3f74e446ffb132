/**
 * The translation modules (`gw-elements/checkout/translations/*`, `gw-elements/3ds-handler/translations/*`):
 * one per shipped language and element, each with every text of that element, none empty or left in
 * English, and each element entry carrying no translation: a page pays only for the languages it imports.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from 'esbuild';
import { ENTRY_POINTS, TRANSLATIONS } from '../../scripts/entry-points.mjs';

const ENGLISH = {
  checkout: {
    loading: 'Loading the payment form…',
    error: 'The payment form could not be loaded.',
    expired: 'This payment session has expired.',
  },
  '3ds-handler': {
    method: 'Checking your card with your bank…',
    complete: 'Card verification finished.',
    error: 'Your card could not be verified.',
    timeout: 'The card verification timed out.',
    challengeFrame: 'Card verification (3-D Secure)',
    methodFrame: 'Card verification (3-D Secure method)',
  },
} as const;

test('the elements ship French, Spanish, Italian, Dutch, Polish and Turkish beside English, German and Arabic', () => {
  assert.deepEqual([...TRANSLATIONS].sort(), ['ar', 'de', 'es', 'fr', 'it', 'nl', 'pl', 'tr']);
});

for (const element of ['checkout', '3ds-handler'] as const) {
  test(`each <gw-${element}> translation has every text, translated, and only that element's`, async () => {
    for (const code of TRANSLATIONS) {
      const { source } = ENTRY_POINTS[`gw-elements/${element}/translations/${code}`]!;
      const { default: translation } = (await import(`../../${source}`)) as { default: Record<string, unknown> };
      assert.deepEqual(Object.keys(translation).sort(), ['$code', `gw-${element}`].sort(), code);
      assert.equal(translation.$code, code);
      const texts = translation[`gw-${element}`] as Record<string, string>;
      assert.deepEqual(Object.keys(texts).sort(), Object.keys(ENGLISH[element]).sort(), code);
      for (const [key, text] of Object.entries(texts)) {
        assert.ok(text.trim().length > 0, `${code} ${key} is empty`);
        assert.notEqual(text, ENGLISH[element][key as keyof (typeof ENGLISH)[typeof element]], `${code} ${key} is English`);
      }
    }
  });
}

test("no element entry bundles a translation or the other element's texts, and English is built into each", async () => {
  for (const entry of ['src/checkout.ts', 'src/3ds-handler.ts', 'src/index.ts']) {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      external: ['lit', 'lit/*'],
      logLevel: 'silent',
    });
    assert.deepEqual(
      Object.keys(result.metafile.inputs).filter((path) => path.includes('translations')),
      [],
      entry,
    );
    const code = result.outputFiles[0]!.text;
    // Each entry holds its own element's English and none of the other's texts.
    assert.equal(code.includes(ENGLISH.checkout.expired), entry !== 'src/3ds-handler.ts', entry);
    assert.equal(code.includes(ENGLISH['3ds-handler'].timeout), entry !== 'src/checkout.ts', entry);
  }
});
