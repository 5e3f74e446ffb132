import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESULT_CODES } from '../../../src/contract/result-codes.js';
import { browserCall, cardPayment, CARDS, formFields, postForm, threeDsFields, useSandbox, widgetCard } from '../support.js';

const handle = useSandbox();
const { call } = handle;

const pending = (number: string, extra: Record<string, string> = {}) =>
  call('POST', '/v1/payments', cardPayment({ 'card.number': number, ...threeDsFields(), ...extra }));

/** Where a 303 sends the browser, parsed. */
const location = (response: Response) => new URL(response.headers.get('location')!);

describe('3-D Secure, server-to-server', () => {
  it('a challenge card with method data answers 000.200.000 with the platform redirect shape', async () => {
    const { status, body } = await pending(CARDS.challenge);
    assert.equal(status, 200);
    assert.equal(body.result.code, RESULT_CODES.pending);
    const { redirect } = body;
    assert.equal(redirect.url, `${handle.sandbox.url}/v1/threeDSecure/execute`);
    assert.ok(redirect.parameters.length > 0);
    for (const parameter of redirect.parameters) assert.deepEqual(Object.keys(parameter).sort(), ['name', 'value']);
    assert.equal(redirect.preconditions.length, 1);
    const [precondition] = redirect.preconditions;
    assert.deepEqual(
      { ...precondition, parameters: undefined },
      {
        origin: 'iframe#hidden',
        waitUntil: 'iframe#onload',
        description: 'Hidden iframe post for 3D Secure 2.0',
        method: 'POST',
        url: `${handle.sandbox.url}/v1/threeDSecure/method`,
        parameters: undefined,
      },
    );
    assert.equal(precondition.parameters[0].name, 'threeDSMethodData');
    const read = await call('GET', `/v1/payments/${body.id}`);
    assert.equal(read.body.result.code, RESULT_CODES.pending);
  });

  it('a card without method data has no preconditions', async () => {
    const { body } = await pending(CARDS.challengeNoMethod);
    assert.equal(body.redirect.preconditions, undefined);
  });

  it('the 3DS method post is recorded, then "Complete authentication" approves and returns the shopper with id and resourcePath', async () => {
    const { body } = await pending(CARDS.challenge);
    const method = await postForm(body.redirect.preconditions[0].url, body.redirect.preconditions[0].parameters);
    assert.equal(method.status, 200);
    assert.match(await method.text(), /^<!doctype html>/i);
    const logged = handle.sandbox.requests().find((entry) => entry.path === '/v1/threeDSecure/method' && entry.paymentId === body.id);
    assert.ok(logged, 'the method post is in the request log with its payment');
    assert.ok(logged.params.threeDSMethodData);
    assert.equal((await call('GET', `/v1/payments/${body.id}`)).body.resultDetails.threeDSMethodCompletion, 'Y', 'visible on the payment');

    const acs = await postForm(body.redirect.url, body.redirect.parameters);
    assert.equal(acs.status, 200);
    assert.equal(acs.headers.get('x-frame-options'), null);
    const html = await acs.text();
    assert.match(html, /^<!doctype html>/i);
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<title>[^<]+<\/title>/);
    assert.match(html, /<button type="submit" name="outcome" value="complete">Complete authentication<\/button>/);
    assert.match(html, /<button type="submit" name="outcome" value="fail">Fail authentication<\/button>/);
    assert.ok(!html.includes('<script'), 'no script, so a page CSP cannot break it');

    // The form posts where the page came from, below any path prefix (the service worker serves the sandbox under one).
    const action = /<form method="post" action="([^"]+)">/.exec(html)![1]!;
    assert.equal(new URL(action, body.redirect.url).href, `${handle.sandbox.url}/v1/threeDSecure/challenge`);
    const prefixed = 'https://shop.example/sb/__gw/gateway/v1/threeDSecure/execute';
    assert.equal(new URL(action, prefixed).href, 'https://shop.example/sb/__gw/gateway/v1/threeDSecure/challenge');
    const answer = await postForm(new URL(action, body.redirect.url).href, [
      ...Object.entries(formFields(html)).map(([name, value]) => ({ name, value })),
      { name: 'outcome', value: 'complete' },
    ]);
    assert.equal(answer.status, 303);
    const back = location(answer);
    assert.equal(back.origin + back.pathname, 'https://shop.example/result');
    assert.equal(back.searchParams.get('order'), '42', 'the result URL keeps its own query');
    assert.equal(back.searchParams.get('id'), body.id);
    assert.equal(back.searchParams.get('resourcePath'), `/v1/payments/${body.id}`);

    const read = await call('GET', `/v1/payments/${body.id}`);
    assert.equal(read.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(read.body.redirect, undefined);
    const threeDSecure = read.body.threeDSecure;
    assert.equal(threeDSecure.eci, '05');
    assert.equal(threeDSecure.authenticationStatus, 'Y');
    assert.equal(threeDSecure.version, '2.2.0');
    assert.equal(threeDSecure.flow, 'challenge');
    assert.match(threeDSecure.dsTransactionId, /^[0-9a-f-]{36}$/);
    assert.match(threeDSecure.acsTransactionId, /^[0-9a-f-]{36}$/);
  });

  it('"Fail authentication" rejects with 100.380.401', async () => {
    const { body } = await pending(CARDS.challengeNoMethod);
    const acs = await postForm(body.redirect.url, body.redirect.parameters);
    const fields = formFields(await acs.text());
    const answer = await postForm(`${handle.sandbox.url}/v1/threeDSecure/challenge`, [
      { name: 'threeDSSessionData', value: fields.threeDSSessionData! },
      { name: 'outcome', value: 'fail' },
    ]);
    assert.equal(answer.status, 303);
    const read = await call('GET', `/v1/payments/${body.id}`);
    assert.equal(read.body.result.code, RESULT_CODES.threeDsFailed);
    assert.equal(read.body.result.description, 'User Authentication Failed');
    assert.equal(read.body.threeDSecure.authenticationStatus, 'N');
    assert.equal(read.body.resultDetails.threeDSMethodCompletion, undefined, 'a card without method data has none');
  });

  it('a frictionless card completes at /execute without a challenge and redirects at once', async () => {
    const { body } = await pending(CARDS.frictionless);
    const answer = await postForm(body.redirect.url, body.redirect.parameters);
    assert.equal(answer.status, 303);
    assert.equal(location(answer).searchParams.get('id'), body.id);
    const read = await call('GET', `/v1/payments/${body.id}`);
    assert.equal(read.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(read.body.threeDSecure.flow, 'frictionless');
    assert.equal(read.body.resultDetails.threeDSMethodCompletion, 'N', 'the method data was never posted');
    assert.match(read.body.resultDetails.ExtendedDescription, /000\.400\.110/);
  });

  it('3DS2_flow forces the flow; 3DS2_enrolled (or 3DS_enrolled) makes any card enrolled and keeps its own outcome', async () => {
    const forced = await pending(CARDS.challenge, { 'customParameters[3DS2_flow]': 'frictionless' });
    assert.equal((await postForm(forced.body.redirect.url, forced.body.redirect.parameters)).status, 303);
    for (const flag of ['3DS2_enrolled', '3DS_enrolled']) {
      const enrolled = await pending(CARDS.declined, {
        [`customParameters[${flag}]`]: 'true',
        'customParameters[3DS2_flow]': 'frictionless',
      });
      assert.equal(enrolled.body.result.code, RESULT_CODES.pending, flag);
      await postForm(enrolled.body.redirect.url, enrolled.body.redirect.parameters);
      const read = await call('GET', `/v1/payments/${enrolled.body.id}`);
      assert.equal(read.body.result.code, RESULT_CODES.declinedByAuthorization, flag);
    }
  });

  it('an enrolled card needs shopperResultUrl and billing data', async () => {
    const answer = await call('POST', '/v1/payments', cardPayment({ 'card.number': CARDS.challenge }));
    assert.equal(answer.status, 400);
    const names = answer.body.result.parameterErrors.map((error: { name: string }) => error.name).sort();
    assert.deepEqual(names, ['billing.city', 'billing.country', 'billing.postcode', 'billing.street1', 'shopperResultUrl']);
  });

  it('own-MPI results skip the gateway step and are echoed', async () => {
    const { body } = await pending(CARDS.challenge, {
      'threeDSecure.eci': '05',
      'threeDSecure.authenticationStatus': 'Y',
      'threeDSecure.version': '2.2.0',
      'threeDSecure.flow': 'challenge',
    });
    assert.equal(body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.deepEqual(body.threeDSecure, { eci: '05', authenticationStatus: 'Y', version: '2.2.0', flow: 'challenge' });
  });

  it('a 3DS step left unfinished for 30 minutes times out (100.396.103) and can no longer be completed', async () => {
    const { body } = await pending(CARDS.challengeNoMethod);
    const acs = await postForm(body.redirect.url, body.redirect.parameters);
    const fields = formFields(await acs.text());
    handle.sandbox.clock.advance(30 * 60);
    const read = await call('GET', `/v1/payments/${body.id}`);
    assert.equal(read.body.result.code, '100.396.103');
    assert.equal(read.body.redirect, undefined);
    const late = await postForm(`${handle.sandbox.url}/v1/threeDSecure/challenge`, [
      { name: 'threeDSSessionData', value: fields.threeDSSessionData! },
      { name: 'outcome', value: 'complete' },
    ]);
    assert.equal(late.status, 303, 'the shopper still goes back to the shop');
    assert.equal((await call('GET', `/v1/payments/${body.id}`)).body.result.code, '100.396.103');
    handle.sandbox.reset();
  });

  it('unknown sessions get an error page, not a crash', async () => {
    const answer = await postForm(`${handle.sandbox.url}/v1/threeDSecure/execute`, [{ name: 'threeDSSessionData', value: 'nope' }]);
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /session not found/);
    const method = await postForm(`${handle.sandbox.url}/v1/threeDSecure/method`, [{ name: 'threeDSMethodData', value: '%%%' }]);
    assert.equal(method.status, 400);
  });
});

/** A new checkout, and the shopper's card payment on it in the widget. */
async function paidInWidget(number: string, shopperResultUrl: string) {
  const created = await call('POST', '/v1/checkouts', { amount: '12.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' });
  const checkoutId: string = created.body.id;
  const paid = await browserCall(
    handle.sandbox,
    'POST',
    `/v1/checkouts/${checkoutId}/widget/payments`,
    widgetCard(number, shopperResultUrl),
  );
  return { checkoutId, paid };
}

describe('3-D Secure in the widget', () => {
  it('a challenge in a checkout returns the shopper with the checkout id and its resourcePath', async () => {
    const { checkoutId, paid } = await paidInWidget(CARDS.challenge, 'https://shop.example/back?x=1');
    assert.equal(paid.body.result.code, RESULT_CODES.pending);
    assert.match(paid.body.id, /^[a-f0-9]{32}$/);
    assert.equal(paid.body.redirect.preconditions[0].url, `${handle.sandbox.url}/v1/threeDSecure/method`);
    const acs = await postForm(paid.body.redirect.url, paid.body.redirect.parameters);
    const fields = formFields(await acs.text());
    const answer = await postForm(`${handle.sandbox.url}/v1/threeDSecure/challenge`, [
      { name: 'threeDSSessionData', value: fields.threeDSSessionData! },
      { name: 'outcome', value: 'complete' },
    ]);
    const back = location(answer);
    assert.equal(back.searchParams.get('x'), '1');
    assert.equal(back.searchParams.get('id'), checkoutId);
    assert.equal(back.searchParams.get('resourcePath'), `/v1/checkouts/${checkoutId}/payment`);
    const status = await call('GET', `/v1/checkouts/${checkoutId}/payment`);
    assert.equal(status.body.id, paid.body.id);
    assert.equal(status.body.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(status.body.threeDSecure.authenticationStatus, 'Y');
  });
});

describe('a finished step, its pages posted again (they need only the session)', () => {
  it('changes nothing: the method completion stays as it was, and the paid checkout is not kept alive', async () => {
    const { checkoutId, paid } = await paidInWidget(CARDS.frictionless, 'https://shop.example/back');
    const { redirect } = paid.body;
    // The shopper skips the method step: the step runs without it.
    assert.equal((await postForm(redirect.url, redirect.parameters)).status, 303);
    const before = (await call('GET', `/v1/payments/${paid.body.id}`)).body;
    assert.equal(before.result.code, RESULT_CODES.approvedIntegratorTest);
    assert.equal(before.resultDetails.threeDSMethodCompletion, 'N');
    for (let round = 0; round < 2; round++) {
      handle.sandbox.clock.advance(20 * 60);
      await postForm(redirect.preconditions[0].url, redirect.preconditions[0].parameters);
      await postForm(redirect.url, redirect.parameters);
    }
    const after = (await call('GET', `/v1/payments/${paid.body.id}`)).body;
    assert.equal(after.resultDetails.threeDSMethodCompletion, 'N');
    const status = await call('GET', `/v1/checkouts/${checkoutId}/payment`);
    assert.notEqual(status.status, 200, '40 minutes after the payment, its checkout is no longer read');
  });
});

describe('the shopper result URL is sent back to as it was sent', () => {
  it('an order number or a port that reads like the security code: intact', async () => {
    // The request's security code is 123 (cardPayment).
    for (const url of ['https://shop.example/orders/123/result?order=123', 'http://localhost:123/result']) {
      const { body } = await pending(CARDS.challengeNoMethod, threeDsFields(url));
      const acs = await postForm(body.redirect.url, body.redirect.parameters);
      const html = await acs.text();
      const answer = await postForm(new URL('challenge', body.redirect.url).href, [
        ...Object.entries(formFields(html)).map(([name, value]) => ({ name, value })),
        { name: 'outcome', value: 'complete' },
      ]);
      assert.equal(answer.status, 303, url);
      const back = location(answer);
      back.searchParams.delete('id');
      back.searchParams.delete('resourcePath');
      assert.equal(back.href, new URL(url).href, url);
    }
  });

  it('one holding a secret where its mask cannot stand (a token as its host): the step still ends in a redirect', async () => {
    const url = `https://${handle.sandbox.tokens[0]!.replace(/[^A-Za-z0-9]/g, '')}.example.com/result`;
    const { body } = await pending(CARDS.frictionless, threeDsFields(url));
    const answer = await postForm(body.redirect.url, body.redirect.parameters);
    assert.equal(answer.status, 303);
    assert.match(answer.headers.get('location')!, /^https:\/\/\[access token\]\.example\.com\/result\?id=/);
    assert.equal((await call('GET', `/v1/payments/${body.id}`)).body.result.code, RESULT_CODES.approvedIntegratorTest);
  });
});
