// <gw-3ds-handler> in Chromium against the real sandbox: its 3DS method page, its ACS page and its redirect to the shopper result URL.
import { aTimeout, expect, fixture, fixtureCleanup, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sandboxUrl } from '/__gw/sandbox.js';
import '../../../src/components/gw-3ds-handler/define.js';
import type { Gw3dsHandler } from '../../../src/components/gw-3ds-handler/gw-3ds-handler.js';
import { THREE_DS_RESULT_MESSAGE } from '../../../src/components/gw-3ds-handler/post-result.js';
import type { ThreeDsErrorDetail, ThreeDsRedirect } from '../../../src/components/gw-3ds-handler/events.js';
import { classifyResult, RESULT_CODES } from '../../../src/contract/result-codes.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { REDIRECT_MAX_PRECONDITIONS } from '../../../src/contract/limits.js';
import { merchantCall, shopperResultUrl } from '../../support/gateway.js';
import { clickInFrame, crossOriginResultUrl, pageFrames, pendingThreeDsPayment, withHangingMethod } from '../../support/three-ds.js';

const ACS = `${sandboxUrl}/v1/threeDSecure/execute`;
const METHOD = `${sandboxUrl}/v1/threeDSecure/method`;

interface Pending {
  id: string;
  redirect: ThreeDsRedirect;
}

async function pending(card: string, extra: Record<string, string> = {}): Promise<Pending> {
  const { body } = await pendingThreeDsPayment(card, extra);
  return { id: body.id, redirect: body.redirect };
}

/** A handler with short timeouts, recording every state it reflects. */
async function handler(
  attributes: { methodTimeout?: number; challengeTimeout?: number; challengeWindow?: string; resultOrigin?: string } = {},
) {
  const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler
    method-timeout=${attributes.methodTimeout ?? 5000}
    challenge-timeout=${attributes.challengeTimeout ?? 15000}
    challenge-window=${attributes.challengeWindow ?? '02'}
    result-origin=${attributes.resultOrigin ?? ''}
  ></gw-3ds-handler>`);
  // Each record's old value, then the current one: every state in order, even when records come batched.
  const olds: string[] = [];
  const observer = new MutationObserver((records) => olds.push(...records.map((entry) => entry.oldValue!)));
  observer.observe(el, { attributes: true, attributeFilter: ['state'], attributeOldValue: true });
  const states = () => {
    olds.push(...observer.takeRecords().map((entry) => entry.oldValue!));
    return [...olds, el.getAttribute('state')!];
  };
  return { el, states };
}

/** Every event of `names` that `el` fires from now on. */
function record(el: HTMLElement, names: string[]): CustomEvent[] {
  const seen: CustomEvent[] = [];
  for (const name of names) el.addEventListener(name, (event) => seen.push(event as CustomEvent));
  return seen;
}

/** No frame is left anywhere in the page, not only in the element: no browsing context of the sandbox remains. */
const noFrameLeft = () => waitUntil(() => pageFrames().length === 0, 'a frame is still open', { timeout: 3000 });

const frames = (el: Gw3dsHandler) => [...el.shadowRoot!.querySelectorAll('iframe')];
const challengeFrame = (el: Gw3dsHandler) => el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part~="challenge-frame"]');
/** Clicks go to the element's own challenge frame, never to one a replaced or parallel flow left behind. */
const challengeFrameName = (el: Gw3dsHandler) => challengeFrame(el)!.name;

interface LoggedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  paymentId?: string;
}

/** Every request the sandbox received, in order. */
async function sandboxLog(): Promise<LoggedRequest[]> {
  return (await merchantCall('GET', '/__sandbox/requests')).body.requests;
}

/** The 3DS pages the sandbox served for a payment, in order. */
async function threeDsRequests(paymentId: string): Promise<string[]> {
  return (await sandboxLog())
    .filter((entry) => entry.paymentId === paymentId && entry.path.startsWith('/v1/threeDSecure/'))
    .map((entry) => entry.path);
}

async function paymentCode(id: string): Promise<string> {
  return (await merchantCall('GET', `/v1/payments/${id}`)).body.result.code;
}

/** Watches the element's shadow root and the page for any form or frame being added: "nothing posted" means none ever was. */
function watchForPosts(el: Gw3dsHandler): () => string[] {
  const added: string[] = [];
  const observer = new MutationObserver((mutations) => {
    for (const mutation of mutations)
      for (const node of mutation.addedNodes)
        if (node instanceof HTMLFormElement || node instanceof HTMLIFrameElement) added.push(node.outerHTML);
  });
  observer.observe(el.shadowRoot!, { childList: true, subtree: true });
  observer.observe(document.body, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    return added;
  };
}

afterEach(() => fixtureCleanup());

describe('<gw-3ds-handler> with the sandbox', () => {
  it('posts the method, then the challenge; the shopper completes it and the server reads the payment approved', async () => {
    const payment = await pending(CARDS.challenge);
    const { el, states } = await handler();
    const events = record(el, ['gw-3ds-method-complete', 'gw-3ds-challenge-start', 'gw-3ds-complete', 'gw-error']);
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    expect(el.state).to.equal('challenge');
    expect(challengeFrame(el)!.getAttribute('allow')).to.equal('payment *; publickey-credentials-get *');
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    const { detail } = await complete;
    expect(detail.id).to.equal(payment.id);
    expect(detail.resourcePath).to.equal(`/v1/payments/${payment.id}`);
    expect(detail.url.startsWith(`${shopperResultUrl}?`)).to.equal(true);
    expect(events.map((event) => event.type)).to.deep.equal(['gw-3ds-method-complete', 'gw-3ds-challenge-start', 'gw-3ds-complete']);
    expect(events[0]!.detail).to.deep.equal({ timedOut: false });
    expect(events[1]!.detail).to.deep.equal({ challengeWindow: '02' });
    expect(events.every((event) => event.bubbles && event.composed)).to.equal(true);
    expect(states()).to.deep.equal(['idle', 'method', 'challenge', 'complete']);
    expect(el.getAttribute('state')).to.equal('complete');
    expect(frames(el), 'frames removed once complete').to.have.length(0);
    expect(await threeDsRequests(payment.id)).to.deep.equal([
      '/v1/threeDSecure/method',
      '/v1/threeDSecure/execute',
      '/v1/threeDSecure/challenge',
    ]);
    expect(classifyResult(await paymentCode(payment.id))).to.equal('approved');
  });

  it('reports the shopper back after a failed challenge too: the server decides, and reads it rejected', async () => {
    const payment = await pending(CARDS.challenge);
    const { el } = await handler();
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Fail authentication', challengeFrameName(el));
    expect((await complete).detail.id).to.equal(payment.id);
    expect(await paymentCode(payment.id)).to.equal(RESULT_CODES.threeDsFailed);
    expect(classifyResult(RESULT_CODES.threeDsFailed)).to.not.equal('approved');
  });

  it('completes a frictionless flow without the shopper doing anything', async () => {
    const payment = await pending(CARDS.frictionless);
    const { el, states } = await handler();
    const complete = oneEvent(el, 'gw-3ds-complete');
    el.redirect = payment.redirect;
    expect((await complete).detail.id).to.equal(payment.id);
    expect(states()).to.deep.equal(['idle', 'method', 'challenge', 'complete']);
    expect(classifyResult(await paymentCode(payment.id))).to.equal('approved');
  });

  it('goes straight to the challenge when there are no preconditions', async () => {
    const payment = await pending(CARDS.challengeNoMethod);
    expect(payment.redirect.preconditions).to.equal(undefined);
    const { el, states } = await handler();
    const events = record(el, ['gw-3ds-method-complete']);
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    expect(el.shadowRoot!.querySelector('.method-frames')!.children).to.have.length(0);
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    await complete;
    expect(events).to.have.length(0);
    expect(states()).to.deep.equal(['idle', 'challenge', 'complete']);
  });

  it('goes on to the challenge when the method page never loads (EMVCo: a method timeout is not an error)', async () => {
    const payment = await pending(CARDS.challenge);
    const { el } = await handler({ methodTimeout: 300 });
    const errors = record(el, ['gw-error']);
    const method = oneEvent(el, 'gw-3ds-method-complete');
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = await withHangingMethod(payment.redirect);
    expect(el.getAttribute('state')).to.equal('idle');
    await el.updateComplete;
    expect(el.state).to.equal('method');
    expect((await method).detail).to.deep.equal({ timedOut: true });
    await started;
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    expect((await complete).detail.id).to.equal(payment.id);
    expect(errors).to.have.length(0);
  });

  it('honours a GET precondition and the `iframe#load` spelling, putting the parameters in the query', async () => {
    const payment = await pending(CARDS.challenge);
    const precondition = { ...payment.redirect.preconditions![0]!, method: 'GET', waitUntil: 'iframe#load' };
    const { el } = await handler();
    const method = oneEvent(el, 'gw-3ds-method-complete');
    el.redirect = { ...payment.redirect, preconditions: [precondition] };
    expect((await method).detail).to.deep.equal({ timedOut: false });
    const [get] = (await sandboxLog()).filter((entry) => entry.params.threeDSMethodData === precondition.parameters[0]!.value);
    expect(get?.method).to.equal('GET');
  });

  it(`honours several preconditions (as many as ${REDIRECT_MAX_PRECONDITIONS}) in order, each after the previous one loaded, before the challenge`, async () => {
    const payment = await pending(CARDS.challenge);
    const first = payment.redirect.preconditions![0]!;
    const later = Array.from({ length: REDIRECT_MAX_PRECONDITIONS - 1 }, (_, index) => ({
      ...first,
      method: 'GET',
      url: `${METHOD}?step=${index + 2}`,
    }));
    const { el } = await handler();
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = { ...payment.redirect, preconditions: [first, ...later] };
    await started;
    expect(el.shadowRoot!.querySelectorAll('.method-frames iframe')).to.have.length(REDIRECT_MAX_PRECONDITIONS);
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    await complete;
    const token = first.parameters[0]!.value;
    const steps = (await sandboxLog())
      .filter(
        (entry) =>
          entry.path.startsWith('/v1/threeDSecure/') && (entry.params.threeDSMethodData === token || entry.paymentId === payment.id),
      )
      .map((entry) => `${entry.method} ${entry.path}${entry.params.step ? `?step=${entry.params.step}` : ''}`);
    expect(steps).to.deep.equal([
      'POST /v1/threeDSecure/method',
      ...later.map((_, index) => `GET /v1/threeDSecure/method?step=${index + 2}`),
      'POST /v1/threeDSecure/execute',
      'POST /v1/threeDSecure/challenge',
    ]);
  });

  for (const [label, patch] of [
    ['a javascript: challenge URL', { url: 'javascript:window.__gwPwned=1' }],
    ['a data: challenge URL', { url: 'data:text/html,<script>parent.__gwPwned=1</script>' }],
    ['a javascript: precondition URL', { precondition: 'javascript:window.__gwPwned=1' }],
    ['a data: precondition URL', { precondition: 'data:text/html,<script>parent.__gwPwned=1</script>' }],
    ['an http: URL that is not this machine', { url: 'http://acs.example/challenge' }],
    ['a relative URL', { url: '/v1/threeDSecure/execute' }],
    ['a URL with credentials', { url: 'https://user:secret@acs.example/challenge' }],
  ] as const) {
    it(`refuses ${label} with unsafe-url and posts nothing`, async () => {
      const payment = await pending(CARDS.challenge);
      const precondition = payment.redirect.preconditions![0]!;
      const redirect = {
        ...payment.redirect,
        ...('url' in patch ? { url: patch.url } : {}),
        preconditions: [{ ...precondition, ...('precondition' in patch ? { url: patch.precondition } : {}) }],
      };
      const { el, states } = await handler();
      const posts = watchForPosts(el);
      const error = oneEvent(el, 'gw-error');
      el.redirect = redirect;
      const { detail } = (await error) as CustomEvent<ThreeDsErrorDetail>;
      expect(detail.code).to.equal('unsafe-url');
      expect(el.state).to.equal('error');
      expect(states()).to.deep.equal(['idle', 'error']);
      await aTimeout(100);
      expect(posts()).to.deep.equal([]);
      expect((window as { __gwPwned?: number }).__gwPwned).to.equal(undefined);
      expect(await threeDsRequests(payment.id)).to.deep.equal([]);
    });
  }

  const method = { origin: 'iframe#hidden', waitUntil: 'iframe#onload', method: 'POST', url: METHOD, parameters: [] };
  for (const [label, redirect] of [
    ['a string', 'https://acs.example/'],
    ['no url', { parameters: [] }],
    ['a url that is not a string', { url: 42, parameters: [] }],
    ['parameters that are not an array', { url: ACS, parameters: { name: 'a', value: 'b' } }],
    ['a parameter without a name', { url: ACS, parameters: [{ value: 'b' }] }],
    ['a parameter value that is not a string', { url: ACS, parameters: [{ name: 'a', value: 1 }] }],
    ['preconditions that are not an array', { url: ACS, parameters: [], preconditions: method }],
    ['a precondition of another origin', { url: ACS, parameters: [], preconditions: [{ ...method, origin: 'iframe#visible' }] }],
    ['a precondition waiting for something else', { url: ACS, parameters: [], preconditions: [{ ...method, waitUntil: 'iframe#ready' }] }],
    ['a precondition with method PUT', { url: ACS, parameters: [], preconditions: [{ ...method, method: 'PUT' }] }],
    ['a precondition without url', { url: ACS, parameters: [], preconditions: [{ ...method, url: undefined }] }],
    [
      `more than ${REDIRECT_MAX_PRECONDITIONS} preconditions`,
      { url: ACS, parameters: [], preconditions: Array.from({ length: REDIRECT_MAX_PRECONDITIONS + 1 }, () => method) },
    ],
    [
      'a valid challenge after a malformed precondition',
      { url: ACS, parameters: [{ name: 'a', value: 'b' }], preconditions: [method, { ...method, parameters: 'x' }] },
    ],
  ] as const) {
    it(`refuses a redirect with ${label} as invalid-redirect and posts nothing`, async () => {
      const { el } = await handler();
      const posts = watchForPosts(el);
      const error = oneEvent(el, 'gw-error');
      el.redirect = redirect as unknown as ThreeDsRedirect;
      expect(((await error) as CustomEvent<ThreeDsErrorDetail>).detail.code).to.equal('invalid-redirect');
      expect(el.state).to.equal('error');
      await aTimeout(50);
      expect(posts()).to.deep.equal([]);
    });
  }

  it('starts when the redirect was set before the element was connected (as frameworks do)', async () => {
    const payment = await pending(CARDS.frictionlessNoMethod);
    const el = document.createElement('gw-3ds-handler');
    el.redirect = payment.redirect;
    const complete = oneEvent(el, 'gw-3ds-complete');
    document.body.append(el);
    try {
      expect((await complete).detail.id).to.equal(payment.id);
    } finally {
      el.remove();
    }
  });

  it('a redirect set while the element is out of the page waits, and starts when it is put back', async () => {
    const payment = await pending(CARDS.frictionlessNoMethod);
    const { el } = await handler();
    el.remove();
    const events = record(el, ['gw-3ds-challenge-start', 'gw-3ds-complete', 'gw-error']);
    el.redirect = payment.redirect;
    await el.updateComplete;
    await aTimeout(100);
    expect(el.state, 'nothing runs out of the page').to.equal('idle');
    expect(frames(el)).to.have.length(0);
    expect(events).to.have.length(0);
    const complete = oneEvent(el, 'gw-3ds-complete');
    document.body.append(el);
    try {
      expect((await complete).detail.id).to.equal(payment.id);
    } finally {
      el.remove();
    }
  });

  it('a flow waiting to be put back is cancelled by cancel(), and by a redirect cleared as it is put back', async () => {
    const { el } = await handler();
    const parent = el.parentNode!;
    const events = record(el, ['gw-3ds-method-complete', 'gw-3ds-challenge-start', 'gw-3ds-complete', 'gw-error']);
    el.remove();
    el.redirect = (await pending(CARDS.challengeNoMethod)).redirect;
    await el.updateComplete;
    el.cancel();
    parent.append(el);
    await aTimeout(200);
    expect(el.state).to.equal('idle');
    el.remove();
    el.redirect = (await pending(CARDS.challengeNoMethod)).redirect;
    await el.updateComplete;
    // Cleared in the same task as it is put back (a framework moving it, then patching its properties).
    el.redirect = undefined;
    parent.append(el);
    await aTimeout(200);
    expect(el.state).to.equal('idle');
    expect(frames(el)).to.have.length(0);
    expect(events, 'nothing started, nothing refused').to.have.length(0);
  });

  it('a redirect set as a waiting element is put back replaces the waiting one: one flow, its own payment', async () => {
    const waiting = await pending(CARDS.challengeNoMethod);
    const moved = await pending(CARDS.frictionlessNoMethod);
    const { el } = await handler();
    const parent = el.parentNode!;
    el.remove();
    el.redirect = waiting.redirect;
    await el.updateComplete;
    const events = record(el, ['gw-3ds-challenge-start', 'gw-3ds-complete', 'gw-error']);
    el.redirect = moved.redirect;
    parent.append(el);
    await waitUntil(() => el.state === 'complete', 'the flow of the redirect set last completes', { timeout: 5000 });
    expect(events.map((event) => event.type)).to.deep.equal(['gw-3ds-challenge-start', 'gw-3ds-complete']);
    expect(events[1]!.detail.id).to.equal(moved.id);
    expect(await threeDsRequests(waiting.id), 'nothing posted for the replaced redirect').to.deep.equal([]);
  });

  it('put back, then given a redirect or start() in the same task: one flow, and a cleared redirect refuses nothing', async () => {
    const waiting = await pending(CARDS.challengeNoMethod);
    const moved = await pending(CARDS.frictionlessNoMethod);
    const { el } = await handler();
    const parent = el.parentNode!;
    el.remove();
    el.redirect = waiting.redirect;
    await el.updateComplete;
    let events = record(el, ['gw-3ds-challenge-start', 'gw-3ds-complete', 'gw-error']);
    // React commits the insertion, then the new properties.
    parent.append(el);
    el.redirect = moved.redirect;
    await waitUntil(() => el.state === 'complete', 'the flow of the redirect set last completes', { timeout: 5000 });
    expect(events.map((event) => event.type)).to.deep.equal(['gw-3ds-challenge-start', 'gw-3ds-complete']);
    expect(await threeDsRequests(waiting.id), 'nothing posted for the replaced redirect').to.deep.equal([]);
    // start() as the element is put back: it starts the waiting flow once, not twice.
    const again = await pending(CARDS.frictionlessNoMethod);
    el.remove();
    el.redirect = again.redirect;
    await el.updateComplete;
    events = record(el, ['gw-3ds-challenge-start', 'gw-3ds-complete', 'gw-error']);
    parent.append(el);
    el.start();
    await waitUntil(() => el.state === 'complete', 'the waiting flow completes', { timeout: 5000 });
    await aTimeout(200);
    expect(events.map((event) => event.type)).to.deep.equal(['gw-3ds-challenge-start', 'gw-3ds-complete']);
    // Cleared as it is put back: nothing starts, nothing is refused.
    el.remove();
    el.redirect = (await pending(CARDS.challengeNoMethod)).redirect;
    await el.updateComplete;
    events = record(el, ['gw-3ds-challenge-start', 'gw-error']);
    parent.append(el);
    el.redirect = undefined;
    await aTimeout(200);
    expect(el.state).to.equal('complete');
    expect(events).to.have.length(0);
  });

  it('a waiting flow survives a move (out and in again within a task) and starts once the element stays', async () => {
    const payment = await pending(CARDS.frictionlessNoMethod);
    const { el } = await handler();
    const parent = el.parentNode!;
    el.remove();
    el.redirect = payment.redirect;
    await el.updateComplete;
    const complete = oneEvent(el, 'gw-3ds-complete');
    parent.append(el);
    el.remove();
    parent.append(el);
    expect((await complete).detail.id).to.equal(payment.id);
  });

  it('setting redirect to undefined cancels the running flow', async () => {
    const payment = await pending(CARDS.challengeNoMethod);
    const { el, states } = await handler();
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    el.redirect = undefined;
    await el.updateComplete;
    expect(frames(el)).to.have.length(0);
    expect(states()).to.deep.equal(['idle', 'challenge', 'idle']);
  });

  it('start() without a redirect is invalid-redirect', async () => {
    const { el } = await handler();
    const error = oneEvent(el, 'gw-error');
    el.start();
    expect(((await error) as CustomEvent<ThreeDsErrorDetail>).detail.code).to.equal('invalid-redirect');
  });

  it('runs two handlers on one page side by side, each with its own frames', async () => {
    const [first, second] = await Promise.all([pending(CARDS.challengeNoMethod), pending(CARDS.challengeNoMethod)]);
    const a = await handler();
    const b = await handler();
    const startedA = oneEvent(a.el, 'gw-3ds-challenge-start');
    const startedB = oneEvent(b.el, 'gw-3ds-challenge-start');
    a.el.redirect = first!.redirect;
    b.el.redirect = second!.redirect;
    await Promise.all([startedA, startedB]);
    expect(challengeFrame(a.el)!.name).to.not.equal(challengeFrame(b.el)!.name);
    const completeA = oneEvent(a.el, 'gw-3ds-complete');
    const completeB = oneEvent(b.el, 'gw-3ds-complete');
    const completedA = record(a.el, ['gw-3ds-complete']);
    await clickInFrame(ACS, 'Fail authentication', challengeFrame(a.el)!.name);
    await completeA;
    expect(completedA.map((event) => event.detail.id)).to.deep.equal([first!.id]);
    expect(b.el.state).to.equal('challenge');
    await clickInFrame(ACS, 'Complete authentication', challengeFrame(b.el)!.name);
    expect((await completeB).detail.id).to.equal(second!.id);
    expect(await paymentCode(first!.id)).to.equal(RESULT_CODES.threeDsFailed);
    expect(classifyResult(await paymentCode(second!.id))).to.equal('approved');
  });

  it('replaces a running flow cleanly when a new redirect is set', async () => {
    const [old, fresh] = await Promise.all([pending(CARDS.challenge), pending(CARDS.challengeNoMethod)]);
    const { el } = await handler();
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = old!.redirect;
    await started;
    const oldFrame = challengeFrame(el)!;
    const events = record(el, ['gw-3ds-complete', 'gw-error']);
    const restarted = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = fresh!.redirect;
    await restarted;
    expect(oldFrame.isConnected).to.equal(false);
    expect(frames(el)).to.have.length(1);
    expect(el.shadowRoot!.querySelectorAll('form')).to.have.length(1);
    // Listening before the click: its command's answer can reach the page after the frame has loaded the result.
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    await complete;
    expect(events.map((event) => [event.type, event.detail.id])).to.deep.equal([['gw-3ds-complete', fresh!.id]]);
  });

  it('a redirect set from a gw-3ds-method-complete listener replaces the flow: the old challenge never starts', async () => {
    const [old, fresh] = await Promise.all([pending(CARDS.challenge), pending(CARDS.challengeNoMethod)]);
    const { el } = await handler({ methodTimeout: 5000 });
    const events = record(el, ['gw-3ds-method-complete', 'gw-3ds-challenge-start', 'gw-error']);
    el.addEventListener('gw-3ds-method-complete', () => (el.redirect = fresh!.redirect), { once: true });
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = old!.redirect;
    await started;
    await aTimeout(300);
    expect(events.map((event) => event.type)).to.deep.equal(['gw-3ds-method-complete', 'gw-3ds-challenge-start']);
    expect(frames(el)).to.have.length(1);
  });

  it('replaces a flow still in its method step', async () => {
    const [old, fresh] = await Promise.all([pending(CARDS.challenge), pending(CARDS.challengeNoMethod)]);
    const { el, states } = await handler({ methodTimeout: 400 });
    const events = record(el, ['gw-3ds-method-complete', 'gw-error']);
    el.redirect = await withHangingMethod(old!.redirect);
    await el.updateComplete;
    expect(el.state).to.equal('method');
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = fresh!.redirect;
    await started;
    await aTimeout(600);
    expect(events, 'the replaced flow is silent after its method timeout').to.have.length(0);
    expect(states()).to.deep.equal(['idle', 'method', 'challenge']);
  });

  it('cancel() mid-challenge removes the frames and nothing fires afterwards', async () => {
    const payment = await pending(CARDS.challengeNoMethod);
    const { el } = await handler({ challengeTimeout: 300 });
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    const events = record(el, ['gw-3ds-complete', 'gw-error']);
    el.cancel();
    expect(el.state).to.equal('idle');
    expect(frames(el)).to.have.length(0);
    expect(el.shadowRoot!.querySelectorAll('form')).to.have.length(0);
    await aTimeout(500);
    expect(events).to.have.length(0);
    await noFrameLeft();
  });

  it('cancel() during the method step stops before the challenge', async () => {
    const payment = await pending(CARDS.challenge);
    const { el } = await handler({ methodTimeout: 300 });
    const events = record(el, ['gw-3ds-method-complete', 'gw-3ds-challenge-start', 'gw-error']);
    el.redirect = await withHangingMethod(payment.redirect);
    await el.updateComplete;
    expect(el.state).to.equal('method');
    el.cancel();
    await aTimeout(500);
    expect(events).to.have.length(0);
    expect(el.state).to.equal('idle');
    expect(await threeDsRequests(payment.id)).to.not.include('/v1/threeDSecure/execute');
  });

  it('start() while a flow runs is busy and leaves the flow running', async () => {
    const payment = await pending(CARDS.challengeNoMethod);
    const { el } = await handler();
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    const error = oneEvent(el, 'gw-error');
    el.start();
    expect(((await error) as CustomEvent<ThreeDsErrorDetail>).detail.code).to.equal('busy');
    expect(el.state).to.equal('challenge');
    expect(frames(el)).to.have.length(1);
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    expect((await complete).detail.id).to.equal(payment.id);
  });

  it('ends in timeout when the shopper does not finish the challenge within challenge-timeout', async () => {
    const payment = await pending(CARDS.challengeNoMethod);
    const { el, states } = await handler({ challengeTimeout: 400 });
    const error = oneEvent(el, 'gw-error');
    el.redirect = payment.redirect;
    expect(((await error) as CustomEvent<ThreeDsErrorDetail>).detail.code).to.equal('challenge-timeout');
    expect(states()).to.deep.equal(['idle', 'challenge', 'timeout']);
    expect(frames(el)).to.have.length(0);
  });

  it('a method-timeout or challenge-timeout beyond what a browser timer holds (2^31 - 1 ms) waits, never ends at once', async () => {
    const payment = await pending(CARDS.challenge);
    const { el } = await handler({ methodTimeout: 3e9, challengeTimeout: 3e9 });
    const events = record(el, ['gw-3ds-method-complete', 'gw-error']);
    el.redirect = await withHangingMethod(payment.redirect);
    await aTimeout(500);
    expect(events, 'the method page is still awaited').to.have.length(0);
    expect(el.state).to.equal('method');
    el.cancel();
    const challenge = await pending(CARDS.challengeNoMethod);
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = challenge.redirect;
    await started;
    await aTimeout(500);
    expect(events, 'the shopper still has the challenge').to.have.length(0);
    expect(el.state).to.equal('challenge');
  });

  it('tears everything down when removed: frames, timers and the message listener', async () => {
    const payment = await pending(CARDS.challengeNoMethod);
    const { el } = await handler({ challengeTimeout: 400 });
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    const events = record(el, ['gw-3ds-complete', 'gw-error']);
    el.remove();
    expect(el.state).to.equal('idle');
    expect(frames(el)).to.have.length(0);
    await noFrameLeft();
    await aTimeout(600);
    expect(events).to.have.length(0);
    // Put back, it does not post again on its own.
    document.body.append(el);
    await aTimeout(200);
    expect(el.state).to.equal('idle');
    expect(frames(el)).to.have.length(0);
    el.remove();
  });

  it('completes through postThreeDsResult() from a result page on another origin named in result-origin', async () => {
    const payment = await pending(CARDS.challengeNoMethod, { shopperResultUrl: crossOriginResultUrl });
    // With a trailing slash and a second, unrelated origin: both are normalised, the right one matches.
    const { el } = await handler({ resultOrigin: `https://pay.example ${new URL(crossOriginResultUrl).origin}/` });
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    const { detail } = await complete;
    expect(detail.id).to.equal(payment.id);
    expect(detail.resourcePath).to.equal(`/v1/payments/${payment.id}`);
    expect(detail.url.startsWith(new URL(crossOriginResultUrl).origin)).to.equal(true);
  });

  it('ignores a result message whose url is on another origin than the one that sent it', async () => {
    const payment = await pending(CARDS.challengeNoMethod, { shopperResultUrl: `${crossOriginResultUrl}&forgeUrl=1` });
    const { el } = await handler({ challengeTimeout: 4000, resultOrigin: new URL(crossOriginResultUrl).origin });
    const completes = record(el, ['gw-3ds-complete']);
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    const error = oneEvent(el, 'gw-error');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    expect(((await error) as CustomEvent<ThreeDsErrorDetail>).detail.code).to.equal('challenge-timeout');
    expect(completes).to.have.length(0);
  });

  it('ignores a result message from an origin not in result-origin, and one not sent by its challenge frame', async () => {
    const payment = await pending(CARDS.challengeNoMethod, { shopperResultUrl: crossOriginResultUrl });
    const { el } = await handler({ challengeTimeout: 4000 });
    const completes = record(el, ['gw-3ds-complete']);
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = payment.redirect;
    await started;
    // Same origin, well formed, but from this window rather than the challenge frame.
    window.postMessage(
      { type: THREE_DS_RESULT_MESSAGE, id: payment.id, resourcePath: `/v1/payments/${payment.id}`, url: shopperResultUrl },
      location.origin,
    );
    const error = oneEvent(el, 'gw-error');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    expect(((await error) as CustomEvent<ThreeDsErrorDetail>).detail.code).to.equal('challenge-timeout');
    expect(completes).to.have.length(0);
  });
});
