/**
 * `nest`, the sandbox's echo of flat form names in the gateway's JSON shape: a
 * name's text is answered as sent whatever else is sent beside it. A name below
 * one that holds text (`customer.email.x` beside `customer.email`) made that
 * text an object, so an approved payment answered without the e-mail it was
 * sent, and with a value that is no text, which no answer of the gateway has.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { nest } from '../../../src/sandbox/protocol/wire.js';
import { cardPayment, useSandbox } from '../support.js';

/** The value at a dotted name of a nested tree, or undefined. */
const at = (tree: unknown, name: string) =>
  name
    .split('.')
    .reduce<unknown>(
      (node, segment) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined),
      tree,
    );

describe('nest', () => {
  it('answers the text of every name no other name sent is a prefix of, in any order; deeper names never make it an object', () => {
    const name = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 4 }).map((segments) => segments.join('.'));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(name, fc.string({ maxLength: 3 })), { selector: ([key]) => key, maxLength: 12 }), (pairs) => {
        const tree = nest(Object.fromEntries(pairs));
        const names = pairs.map(([key]) => key);
        for (const [key, value] of pairs) {
          const shadowed = names.some((other) => other !== key && key.startsWith(`${other}.`));
          if (!shadowed) assert.equal(at(tree, key), value, `${key} in ${JSON.stringify(tree)}`);
        }
        const leaves = (node: unknown): unknown[] =>
          typeof node === 'object' && node !== null ? Object.values(node).flatMap(leaves) : [node];
        assert.ok(leaves(tree).every((leaf) => typeof leaf === 'string'));
      }),
    );
  });
});

describe('a payment sent with a name below a field it echoes', () => {
  const { call } = useSandbox();

  it('answers the field as sent (customer.email, billing.city)', async () => {
    const answer = await call(
      'POST',
      '/v1/payments',
      cardPayment({ 'customer.email.x': 'y', 'billing.city': 'Vienna', 'billing.city.district': '1' }),
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body.customer.email, cardPayment()['customer.email']);
    assert.equal(answer.body.billing.city, 'Vienna');
  });
});
