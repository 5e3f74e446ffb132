/**
 * The framework-free 3-D Secure runner (src/browser/three-d-secure-flow.ts) on its own, in Chromium
 * against the sandbox: the gateway names the parameters, and whatever the names (even a form's own
 * properties: DOM clobbering), the post carries exactly those parameters and the scope still
 * removes what it added.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { checkRedirect, navigate, runPrecondition, Scope } from '../../src/browser/three-d-secure-flow.js';
import type { RedirectParameter } from '../../src/contract/redirect.js';
import { merchantCall } from '../support/gateway.js';
import { echoUrl, loggedParams } from '../support/three-ds.js';

/** Every property a form has, own or inherited: each one is a name an input could hide. */
function formPropertyNames(): string[] {
  const names = new Set<string>();
  for (let proto: object | null = HTMLFormElement.prototype; proto; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
  }
  return [...names];
}

const precondition = (url: string, parameters: readonly RedirectParameter[]) => ({
  origin: 'iframe#hidden',
  waitUntil: 'iframe#onload',
  method: 'POST',
  url,
  parameters,
});

function hiddenFrame(scope: Scope, name: string): HTMLIFrameElement {
  const frame = scope.own(document.createElement('iframe'));
  frame.name = name;
  frame.hidden = true;
  document.body.append(frame);
  return frame;
}

describe('the shared 3-D Secure runner (flow.ts)', () => {
  const scopes: Scope[] = [];
  const track = (scope: Scope) => (scopes.push(scope), scope);
  afterEach(() => {
    for (const scope of scopes.splice(0)) scope.end();
  });

  it('posts parameters named after every property of a form, unchanged, and its scope still removes the form', async () => {
    const names = formPropertyNames();
    expect(names).to.include.members(['submit', 'action', 'method', 'target', 'append', 'remove', 'setAttribute', 'elements', 'toString']);
    // In chunks, so each post stays an ordinary size (and within what the sandbox's log keeps).
    for (let start = 0; start < names.length; start += 40) {
      const parameters = names.slice(start, start + 40).map((name, index) => ({ name, value: `value ${start + index} & = + % é` }));
      const url = echoUrl();
      const { preconditions } = checkRedirect(
        { url: 'https://acs.example/challenge', parameters: [], preconditions: [precondition(url, parameters)] },
        () => true,
      );
      const scope = track(new Scope());
      const frame = hiddenFrame(scope, `flow-test-${crypto.randomUUID()}`);
      const { outcome } = await runPrecondition(scope, frame, preconditions[0]!);
      expect(outcome).to.equal('loaded');
      expect(await loggedParams(url)).to.deep.equal(Object.fromEntries(parameters.map(({ name, value }) => [name, value])));
      expect(document.querySelectorAll('form[target^="flow-test-"]').length).to.equal(1);
      scope.end();
      expect(document.querySelectorAll('form[target^="flow-test-"], iframe[name^="flow-test-"]').length).to.equal(0);
    }
  });

  it('goes on without a method page that does not load in time, and ends a step when its scope ends', async () => {
    const url = echoUrl();
    await merchantCall('POST', '/__sandbox/faults', { path: new URL(url).pathname, mode: 'hang', count: '2' });
    const { preconditions } = checkRedirect(
      { url: 'https://acs.example/challenge', parameters: [], preconditions: [precondition(url, [])] },
      () => true,
    );
    const scope = track(new Scope());
    expect((await runPrecondition(scope, hiddenFrame(scope, `flow-test-${crypto.randomUUID()}`), preconditions[0]!, 200)).outcome).to.equal(
      'timeout',
    );

    const running = runPrecondition(scope, hiddenFrame(scope, `flow-test-${crypto.randomUUID()}`), preconditions[0]!);
    scope.end();
    expect((await running).outcome).to.equal('aborted');
    expect(document.querySelectorAll('iframe[name^="flow-test-"], form[target^="flow-test-"]').length).to.equal(0);
  });

  it("loads a GET step by the frame's src, its parameters in the query", async () => {
    const url = echoUrl();
    const { preconditions } = checkRedirect(
      {
        url: 'https://acs.example/challenge',
        parameters: [],
        preconditions: [{ ...precondition(url, [{ name: 'submit', value: 'a b' }]), method: 'GET' }],
      },
      () => true,
    );
    const scope = track(new Scope());
    const frame = hiddenFrame(scope, `flow-test-${crypto.randomUUID()}`);
    expect((await runPrecondition(scope, frame, preconditions[0]!)).outcome).to.equal('loaded');
    expect(await loggedParams(url, 'GET')).to.deep.equal({ submit: 'a b' });
    scope.end();
  });

  it('posts the challenge into a frame by name, even with an input named target', async () => {
    const url = echoUrl();
    const { challenge } = checkRedirect(
      {
        url,
        parameters: [
          { name: 'creq', value: 'x' },
          { name: 'target', value: '_top' },
        ],
      },
      () => true,
    );
    const scope = track(new Scope());
    const frame = hiddenFrame(scope, `flow-test-${crypto.randomUUID()}`);
    navigate(scope, challenge, frame);
    let posted: Record<string, string> | undefined;
    await waitUntil(async () => (posted = await loggedParams(url)) !== undefined, 'the challenge post did not reach the sandbox', {
      timeout: 5000,
    });
    expect(posted).to.deep.equal({ creq: 'x', target: '_top' });
    expect(window.location.href, 'the input named target does not retarget the form').to.not.contain('/v1/threeDSecure/');
    scope.end();
  });
});
