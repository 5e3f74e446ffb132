/** The one header encoding (src/contract/header.ts). */
import assert from 'node:assert/strict';
import { validateHeaderValue } from 'node:http';
import { test } from 'node:test';
import fc from 'fast-check';
import { headerValue } from '../../src/contract/header.js';

test('headerValue: whitespace runs become one space, everything else outside visible ASCII is percent-encoded', () => {
  assert.equal(headerValue('  sha384-a\n\tsha384-b\r\n'), 'sha384-a sha384-b');
  assert.equal(headerValue('<https://x/é>'), '<https://x/%C3%A9>');
  assert.equal(headerValue('a\u0000b'), 'a%00b');
});

test('headerValue: any text becomes a value Node accepts in a header, and visible ASCII passes unchanged', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      validateHeaderValue('link', headerValue(text));
    }),
  );
  fc.assert(fc.property(fc.stringMatching(/^[\x21-\x7e]+$/), (text) => assert.equal(headerValue(text), text)));
});
