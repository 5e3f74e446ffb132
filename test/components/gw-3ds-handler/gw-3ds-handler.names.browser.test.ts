// Issue 12, class 8: the gateway names the inputs of the forms <gw-3ds-handler> posts, and a form exposes its
// inputs as properties by name (DOM clobbering). Whatever the names, the POST reaches the sandbox with exactly
// the redirect's parameters, or the element reports gw-error and posts nothing.
import { expect, fixture, fixtureCleanup, html, oneEvent, waitUntil } from '@open-wc/testing';
import fc from 'fast-check';
import '../../../src/components/gw-3ds-handler/define.js';
import type { Gw3dsHandler } from '../../../src/components/gw-3ds-handler/gw-3ds-handler.js';
import type { RedirectParameter, ThreeDsErrorDetail, ThreeDsRedirect } from '../../../src/components/gw-3ds-handler/events.js';
import { echoUrl, loggedParams } from '../../support/three-ds.js';

/** Every property a form has, own or inherited: each one is a name an input could hide. */
function formPropertyNames(): string[] {
  const names = new Set<string>();
  for (let proto: object | null = HTMLFormElement.prototype; proto; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
  }
  return [...names];
}
const FORM_PROPERTIES = formPropertyNames();

/** The parameters as the sandbox logs them: one value per name (the generated names are unique). */
const asRecord = (parameters: readonly RedirectParameter[]) => Object.fromEntries(parameters.map(({ name, value }) => [name, value]));

/** What a form post cannot carry unchanged: the element must refuse these with gw-error. */
const unsendable = (text: string, isName: boolean) =>
  /\p{Cs}/u.test(text) || /\r(?!\n)|(?<!\r)\n/.test(text) || (isName && text.toLowerCase() === '_charset_');
const sendable = (parameters: readonly RedirectParameter[]) =>
  parameters.every(({ name, value }) => !unsendable(name, true) && !unsendable(value, false));

/**
 * A method step given as long as the challenge: on a loaded machine the post of hundreds of parameters may not have
 * gone out when a 5 s method step times out and removes its frame (a fresh-clone CI run once saw no method post).
 */
async function handler(): Promise<Gw3dsHandler> {
  return fixture<Gw3dsHandler>(html`<gw-3ds-handler method-timeout="15000" challenge-timeout="15000"></gw-3ds-handler>`);
}

/**
 * Runs a redirect whose precondition and challenge carry `method` and `challenge` as parameters, both posted
 * to fresh sandbox paths, and checks the outcome: both posts arrived with exactly those parameters and the flow
 * reached the challenge, or (only when a parameter cannot be sent unchanged) gw-error `invalid-redirect` and no post.
 */
async function runFlow(method: RedirectParameter[], challenge: RedirectParameter[]): Promise<void> {
  const el = await handler();
  const urls = { method: echoUrl(), challenge: echoUrl() };
  const redirect: ThreeDsRedirect = {
    url: urls.challenge,
    parameters: challenge,
    preconditions: [{ origin: 'iframe#hidden', waitUntil: 'iframe#load', method: 'POST', url: urls.method, parameters: method }],
  };
  const errors: ThreeDsErrorDetail[] = [];
  el.addEventListener('gw-error', (event) => errors.push(event.detail as ThreeDsErrorDetail));
  if (!sendable([...method, ...challenge])) {
    el.redirect = redirect;
    await el.updateComplete;
    expect(errors.map((error) => error.code)).to.deep.equal(['invalid-redirect']);
    expect(el.state).to.equal('error');
    expect(el.shadowRoot!.querySelectorAll('form, iframe')).to.have.length(0);
    expect(await loggedParams(urls.method)).to.equal(undefined);
    expect(await loggedParams(urls.challenge)).to.equal(undefined);
    fixtureCleanup();
    return;
  }
  const started = oneEvent(el, 'gw-3ds-challenge-start');
  el.redirect = redirect;
  await started;
  expect(errors).to.deep.equal([]);
  expect(el.state).to.equal('challenge');
  // The challenge may start on the method's timeout, before a slow machine's sandbox has recorded the method post.
  // Both waits allow the element's own challenge time (15 s) and poll gently: each look reads the whole request log.
  let methodPosted: Record<string, string> | undefined;
  await waitUntil(async () => (methodPosted = await loggedParams(urls.method)) !== undefined, 'the method post did not reach the sandbox', {
    timeout: 15_000,
    interval: 250,
  });
  expect(methodPosted).to.deep.equal(asRecord(method));
  let challengePosted: Record<string, string> | undefined;
  await waitUntil(
    async () => (challengePosted = await loggedParams(urls.challenge)) !== undefined,
    'the challenge post did not reach the sandbox',
    { timeout: 15_000, interval: 250 },
  );
  expect(challengePosted).to.deep.equal(asRecord(challenge));
  // Teardown calls the form too: cancel() must still remove every form and frame.
  el.cancel();
  expect(el.state).to.equal('idle');
  expect(el.shadowRoot!.querySelectorAll('form, iframe')).to.have.length(0);
  fixtureCleanup();
}

const parameter = (name: string, value: string): RedirectParameter => ({ name, value });

afterEach(() => fixtureCleanup());

describe('<gw-3ds-handler> with parameter names that clobber a form', () => {
  // Each run loads two frames from the sandbox: generous time for a busy CI machine, few runs.
  it('posts every property name of HTMLFormElement (and its prototypes) as a parameter, unchanged', async function () {
    this.timeout(60_000);
    expect(FORM_PROPERTIES).to.include.members([
      'submit',
      'action',
      'method',
      'target',
      'elements',
      'id',
      'append',
      'remove',
      'setAttribute',
      '__proto__',
    ]);
    // In chunks, so each post stays an ordinary size; the method and the challenge post each get half of a chunk.
    const CHUNK = 40;
    for (let start = 0; start < FORM_PROPERTIES.length; start += CHUNK) {
      const names = FORM_PROPERTIES.slice(start, start + CHUNK);
      const parameters = names.map((name, index) => parameter(name, `value ${start + index} & = + %`));
      await runFlow(
        parameters.filter((_, index) => index % 2 === 0),
        parameters.filter((_, index) => index % 2 === 1),
      );
    }
  });

  it('posts generated names and values exactly, or refuses with gw-error and posts nothing', async function () {
    this.timeout(60_000);
    const name = fc.oneof(
      fc.constantFrom(...FORM_PROPERTIES, '_charset_', '_CHARSET_'),
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 16 }),
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.constantFrom('a\r\nb', 'a\nb', 'a\rb', '\uD800', ''),
    );
    const parameters = fc.uniqueArray(fc.record({ name, value }), { selector: (entry) => entry.name, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(parameters, parameters, async (method, challenge) => runFlow(method, challenge)),
      { numRuns: 15 },
    );
  });

  it('refuses a precondition the browser cannot post unchanged before posting anything at all', async () => {
    for (const bad of [parameter('_charset_', 'x'), parameter('a', 'line\nbreak'), parameter('\uDC00', 'x')]) {
      await runFlow([parameter('submit', 'x'), bad], [parameter('action', 'y')]);
    }
  });
});
