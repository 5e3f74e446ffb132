/**
 * The React 19 JSX typing of <gw-checkout> (src/react.ts): checked by the type
 * checker (`npm run typecheck` covers test/), the lines marked @ts-expect-error
 * must stay errors. The runtime part only proves the module is types-only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSX } from 'react';
import type {} from '../../../src/react.js';

type CheckoutProps = JSX.IntrinsicElements['gw-checkout'];

const props: CheckoutProps = {
  checkoutId: '8ac7a4c8…',
  baseUrl: 'http://127.0.0.1:8080',
  shopperResultUrl: 'https://shop.example/result',
  widgetStyle: 'plain',
  expiresAt: new Date(),
  options: { locale: 'de', onBeforeSubmitCard: () => true },
  nonce: 'abc',
  'ongw-ready': (event) => event.detail.expiresAt.getTime(),
  'ongw-error': (event) => (event.detail.code === 'missing-attribute' ? event.detail.attribute : event.detail.message),
  'ongw-before-submit': (event) => event.preventDefault(),
};

// @ts-expect-error widget-style is card or plain
const wrongStyle: CheckoutProps = { widgetStyle: 'fancy' };
// @ts-expect-error gw-error codes are a closed set
const wrongCode: CheckoutProps = { 'ongw-error': (event) => event.detail.code === 'timeout' };

test('the React typing module is types-only', async () => {
  const module = await import('../../../src/react.js');
  assert.deepEqual(Object.keys(module), []);
  assert.equal(props.checkoutId, '8ac7a4c8…');
  assert.ok(wrongStyle && wrongCode);
});
