// The result a shopper result URL carries: the gateway appends `id` and `resourcePath` to the URL the shop gave, which
// may hold parameters of the shop's own, an `id` among them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { threeDsResultOf } from '../../../src/components/gw-3ds-handler/post-result.js';

const PAYMENT = '8ac7a4a1845f7e3e01846199ab5a7a23';
const appended = `id=${PAYMENT}&resourcePath=${encodeURIComponent(`/v1/payments/${PAYMENT}`)}`;

test('the id and resourcePath the gateway appended, also after an id of the shop own', () => {
  for (const url of [`https://shop.example/return?${appended}`, `https://shop.example/return?id=order-1234&lang=en&${appended}`]) {
    assert.deepEqual(threeDsResultOf(url), { id: PAYMENT, resourcePath: `/v1/payments/${PAYMENT}`, url }, url);
  }
});

test('no result where the last pair does not agree, or names no payment', () => {
  for (const url of [
    `https://shop.example/return?${appended}&id=order-1234`,
    `https://shop.example/return?id=${PAYMENT}&resourcePath=${encodeURIComponent(`/v1/checkouts/${PAYMENT}/payment`)}`,
    'https://shop.example/return?id=order-1234',
  ])
    assert.equal(threeDsResultOf(url), undefined, url);
});
