/**
 * `<gw-3ds-handler>` given any `redirect` a hostile gateway (or a proxy, or a
 * merchant's page passing junk through) could hand it, in real Chromium against
 * the sandbox: any value, and objects shaped like the gateway's with URLs,
 * methods, parameters and preconditions that are script URLs, other origins,
 * plain http, relative, huge, or of the wrong type, and more preconditions than it runs.
 *
 * Invariants: nothing is thrown out of the element or left uncaught; the state
 * and every `gw-error` code are documented ones; a form is only ever posted to
 * an https URL (http on this machine only) and into one of the element's own
 * frames (never the page itself, `_top` or a new window); a frame is only ever
 * pointed at such a URL; a redirect with more preconditions than the kit runs is
 * refused whole; cancelled, the flow leaves no frame or form behind.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { assertInBrowser, sleep } from '../support/browser-property.js';
import { sandboxUrl } from '/__gw/sandbox.js';
import '../../src/components/gw-3ds-handler/define.js';
import type { ThreeDsErrorDetail, ThreeDsRedirect } from '../../src/components/gw-3ds-handler/events.js';
import { isSecureEndpoint } from '../../src/browser/url.js';
import { REDIRECT_MAX_PRECONDITIONS } from '../../src/contract/limits.js';

const STATES = ['idle', 'method', 'challenge', 'complete', 'error', 'timeout'];
const ERROR_CODES = ['invalid-redirect', 'unsafe-url', 'method-failed', 'challenge-timeout', 'busy'];

/** A sandbox path of its own: the sandbox answers it (404) and logs what was posted. */
const echoUrl = fc.uuid().map((id) => `${sandboxUrl}/v1/threeDSecure/echo-${id}`);
const hostile = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', ' ', 'constructor', '__proto__', 'target', 'action', 'submit', 'method', '_top', '_self', '_blank', '\r\n', '\ud800'),
  fc.integer({ min: 1_000, max: 100_000 }).map((length) => 'x'.repeat(length)),
);
const url = fc.oneof(
  { weight: 4, arbitrary: echoUrl },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'blob:https://evil.example/1',
      'about:blank',
      'http://evil.example/acs',
      'http://localhost.evil.example/acs',
      '//evil.example/acs',
      '/relative/acs',
      'https://user:secret@127.0.0.1:9/acs',
      'file:///etc/passwd',
    ),
  },
  { weight: 1, arbitrary: fc.webUrl({ validSchemes: ['http', 'https'] }) },
  { weight: 1, arbitrary: fc.oneof(hostile, fc.anything({ maxDepth: 1 })) },
);
const method = fc.oneof(fc.constantFrom(undefined, 'POST', 'GET', 'get', 'PUT'), fc.anything({ maxDepth: 0 }));
const parameters = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(fc.record({ name: fc.oneof(fc.constantFrom('TermUrl', 'creq', 'threeDSMethodData'), hostile), value: hostile }), {
      maxLength: 5,
    }),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);
const precondition = fc.record(
  {
    origin: fc.oneof(fc.constant('iframe#hidden'), hostile),
    waitUntil: fc.oneof(fc.constantFrom('iframe#onload', 'iframe#load'), hostile),
    url,
    method,
    parameters,
    description: hostile,
  },
  { requiredKeys: [] },
);
const redirect = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        url,
        method,
        parameters,
        preconditions: fc.oneof(
          fc.constant(undefined),
          fc.array(precondition, { maxLength: REDIRECT_MAX_PRECONDITIONS + 2 }),
          fc.anything({ maxDepth: 1 }),
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
);

describe('<gw-3ds-handler> against any redirect', () => {
  it('posts only to safe URLs and only into its own frames, says what went wrong in documented terms, and leaves nothing behind', async function () {
    this.timeout(240_000);
    const reached = new Set<string>();
    await assertInBrowser(
      fc.asyncProperty(redirect, async (value) => {
        const uncaught: unknown[] = [];
        const onError = (event: ErrorEvent) => uncaught.push(event.error ?? event.message);
        const onRejection = (event: PromiseRejectionEvent) => uncaught.push(event.reason);
        window.addEventListener('error', onError);
        window.addEventListener('unhandledrejection', onRejection);
        const element = document.createElement('gw-3ds-handler');
        element.methodTimeout = 150;
        element.challengeTimeout = 300;
        const errors: ThreeDsErrorDetail[] = [];
        element.addEventListener('gw-error', (event) => errors.push(event.detail as ThreeDsErrorDetail));
        document.body.append(element);
        await element.updateComplete;
        // Every form and frame target as it appears: a flow that fails removes them again.
        const seen: string[] = [];
        const check = (records: MutationRecord[]) => {
          for (const record of records) {
            const nodes = record.type === 'childList' ? [...record.addedNodes] : [record.target];
            for (const node of nodes) {
              if (node instanceof HTMLFormElement) {
                const action = new URL(node.getAttribute('action')!);
                expect(isSecureEndpoint(action), `form to ${action.href.slice(0, 80)}`).to.equal(true);
                const target = node.getAttribute('target');
                const frameNames = [...element.shadowRoot!.querySelectorAll('iframe')].map((frame) => frame.name);
                expect(frameNames, `form target ${target}`).to.include(target);
                seen.push('form');
              }
              if (node instanceof HTMLIFrameElement && node.hasAttribute('src')) {
                expect(isSecureEndpoint(new URL(node.src)), `frame at ${node.src.slice(0, 80)}`).to.equal(true);
                seen.push('frame src');
              }
            }
          }
        };
        // Seen by the observer, outside the property's promise: kept, and reported by it below.
        const violations: unknown[] = [];
        const observer = new MutationObserver((records) => {
          try {
            check(records);
          } catch (violation) {
            violations.push(violation);
          }
        });
        observer.observe(element.shadowRoot!, { childList: true, subtree: true, attributes: true, attributeFilter: ['src'] });
        observer.observe(document.body, { childList: true });
        try {
          element.redirect = value as ThreeDsRedirect;
          await element.updateComplete;
          await sleep(60);
          check(observer.takeRecords());
          expect(STATES).to.include(element.state);
          reached.add(element.state);
          for (const error of errors) expect(ERROR_CODES).to.include(error.code);
          if (element.state === 'error') expect(errors.length, 'an error state says why').to.be.greaterThan(0);
          // Bounded: more steps than the platform could mean are refused whole, before any is posted.
          const steps = (value as { preconditions?: unknown } | null)?.preconditions;
          if (Array.isArray(steps) && steps.length > REDIRECT_MAX_PRECONDITIONS) {
            expect(errors[0]?.code, `${steps.length} preconditions`).to.equal('invalid-redirect');
            expect(seen, 'nothing posted').to.deep.equal([]);
          }
          element.redirect = undefined;
          await element.updateComplete;
          check(observer.takeRecords());
          expect(element.shadowRoot!.querySelectorAll('iframe, form'), 'nothing left behind').to.have.length(0);
          expect(document.querySelectorAll('body > form'), 'no form left in the page').to.have.length(0);
          if (violations.length) throw violations[0];
          expect(uncaught, String(uncaught[0])).to.have.length(0);
        } finally {
          observer.disconnect();
          element.remove();
          window.removeEventListener('error', onError);
          window.removeEventListener('unhandledrejection', onRejection);
        }
      }),
      { numRuns: 120 },
    );
    // Well-formed redirects are drawn most often: runs that never reached a frame proved nothing of the posting rules.
    expect([...reached], 'the runs reached a running flow and a refusal').to.include.members(['error']);
    expect(
      [...reached].some((state) => state === 'method' || state === 'challenge' || state === 'timeout'),
      [...reached].join(),
    ).to.equal(true);
  });
});
