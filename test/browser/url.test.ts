import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { httpUrl, isSecureEndpoint } from '../../src/browser/url.js';

describe("the elements' URL rules", () => {
  it('take http(s) only, relative only against a base', () => {
    assert.equal(httpUrl('https://gateway.example/v1')?.host, 'gateway.example');
    assert.equal(httpUrl('/result?order=1', 'https://shop.example/cart')?.href, 'https://shop.example/result?order=1');
    for (const bad of ['javascript:alert(1)', 'data:text/html,<p>', '/relative', 'not a url', 'ftp://files.example/'])
      assert.equal(httpUrl(bad), undefined, bad);
  });

  it('send card and 3DS data to https, or to plain http on this machine only', () => {
    for (const good of ['https://gateway.example', 'http://localhost:8080', 'http://127.0.0.1:9', 'http://[::1]:8080'])
      assert.equal(isSecureEndpoint(httpUrl(good)!), true, good);
    for (const bad of ['http://gateway.example', 'http://10.0.0.5', 'https://user:secret@gateway.example'])
      assert.equal(isSecureEndpoint(httpUrl(bad)!), false, bad);
  });
});
