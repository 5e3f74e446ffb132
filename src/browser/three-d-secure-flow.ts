/**
 * The 3-D Secure steps of a gateway `redirect`, without a framework (part of the
 * browser floor that the elements and the served widget both stand on), for
 * `<gw-3ds-handler>` and the sandbox's served payment widget: the redirect is
 * checked whole before anything is posted; each precondition (the 3DS method)
 * is posted into a hidden frame and awaited until it loads, for at most 10
 * seconds (EMVCo), or until the page's Content Security Policy refuses it;
 * then the challenge is posted where the caller says.
 *
 * The gateway names the parameters, and a form exposes its inputs as
 * properties by name (an input named `submit`, `action` or `remove` hides the
 * form's own: DOM clobbering). So forms are set up with attributes before
 * they hold inputs, and are only ever called through the prototypes.
 */
import { REDIRECT_MAX_PRECONDITIONS } from '../contract/limits.js';
import type { RedirectParameter } from '../contract/redirect.js';
import { httpUrl, isSecureEndpoint } from './url.js';

/** EMVCo: when the 3DS method page has not loaded within 10 seconds, go on without it. */
export const METHOD_TIMEOUT_MS = 10_000;

const PRECONDITION_ORIGINS = ['iframe#hidden'];
const PRECONDITION_WAITS = ['iframe#onload', 'iframe#load'];

/** One navigation a frame or the page makes: a precondition, or the challenge itself. */
export interface FrameNavigation {
  readonly method: 'POST' | 'GET';
  readonly url: URL;
  readonly parameters: readonly RedirectParameter[];
}

/** A `redirect` checked whole. */
export interface CheckedRedirect {
  readonly preconditions: readonly FrameNavigation[];
  readonly challenge: FrameNavigation;
}

/** Why a `redirect` was refused before anything was posted. */
export class RedirectProblem extends Error {
  constructor(
    readonly code: 'invalid-redirect' | 'unsafe-url',
    message: string,
  ) {
    super(message);
    this.name = 'RedirectProblem';
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (message: string) => new RedirectProblem('invalid-redirect', message);

/** A UTF-16 surrogate without its pair: the browser sends U+FFFD instead. */
const LONE_SURROGATE = /\p{Cs}/u;
/** A CR or LF outside a CRLF pair: a form post turns it into CRLF. */
const LONE_LINE_BREAK = /\r(?!\n)|(?<!\r)\n/;

/**
 * Why the browser would not send `text` unchanged as a parameter name or value
 * of a step, or undefined when it would. (A form post sends a hidden input
 * named `_charset_` with the page's charset instead of its value.)
 */
function unsendable(text: string, method: 'POST' | 'GET', isName: boolean): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'holds an unpaired surrogate';
  if (method === 'GET') return undefined;
  if (LONE_LINE_BREAK.test(text)) return 'holds a line break a form post would change';
  if (isName && text.toLowerCase() === '_charset_') return 'is _charset_, which a form post replaces with the charset';
  return undefined;
}

function checkedParameters(value: unknown, method: 'POST' | 'GET', where: string): RedirectParameter[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(`${where}.parameters must be an array`);
  return value.map((entry, index) => {
    if (!isObject(entry) || typeof entry.name !== 'string' || !entry.name || typeof entry.value !== 'string')
      throw invalid(`${where}.parameters[${index}] must be {name, value} strings`);
    // Posted exactly as the gateway gave it, or not at all: a changed parameter would fail at the ACS, unseen.
    const problem = unsendable(entry.name, method, true) ?? unsendable(entry.value, method, false);
    if (problem) throw invalid(`${where}.parameters[${index}] cannot be sent unchanged: its name or value ${problem}`);
    return { name: entry.name, value: entry.value };
  });
}

/** One step's method and parameters; its URL is checked after every step's shape. */
function checkedShape(step: Record<string, unknown>, where: string) {
  const method = step.method === undefined ? 'POST' : String(step.method).toUpperCase();
  if (method !== 'POST' && method !== 'GET') throw invalid(`${where}.method must be POST or GET`);
  return { method: method as 'POST' | 'GET', parameters: checkedParameters(step.parameters, method, where), url: step.url, where };
}

/**
 * Checks the whole `redirect` object, so a flaw anywhere means nothing is
 * posted at all; throws a `RedirectProblem`. URLs must be http(s) and pass
 * `isAllowed` (by default: https, or http on this machine).
 */
export function checkRedirect(redirect: unknown, isAllowed: (url: URL) => boolean = isSecureEndpoint): CheckedRedirect {
  if (!isObject(redirect)) throw invalid("redirect must be the gateway's {url, parameters, preconditions?} object");
  const preconditions = redirect.preconditions ?? [];
  if (!Array.isArray(preconditions)) throw invalid('redirect.preconditions must be an array');
  if (preconditions.length > REDIRECT_MAX_PRECONDITIONS)
    throw invalid(`redirect.preconditions must hold at most ${REDIRECT_MAX_PRECONDITIONS} steps, not ${preconditions.length}`);
  const shapes = preconditions.map((precondition: unknown, index) => {
    const where = `redirect.preconditions[${index}]`;
    if (!isObject(precondition)) throw invalid(`${where} must be an object`);
    if (!PRECONDITION_ORIGINS.includes(precondition.origin as string))
      throw invalid(`${where}.origin must be ${PRECONDITION_ORIGINS.join(' or ')}`);
    if (!PRECONDITION_WAITS.includes(precondition.waitUntil as string))
      throw invalid(`${where}.waitUntil must be ${PRECONDITION_WAITS.join(' or ')}`);
    return checkedShape(precondition, where);
  });
  shapes.push(checkedShape(redirect, 'redirect'));
  // URLs last: a malformed object is `invalid-redirect` even when it also carries a bad URL.
  const steps = shapes.map(({ url, where, ...step }) => {
    if (typeof url !== 'string' || !url) throw invalid(`${where}.url must be a string`);
    const checked = httpUrl(url);
    if (!checked || !isAllowed(checked))
      throw new RedirectProblem('unsafe-url', `${where}.url must be an https: URL (http: only on localhost)`);
    return { ...step, url: checked };
  });
  return { preconditions: steps.slice(0, -1), challenge: steps.at(-1)! };
}

/**
 * What one run owns: its listeners (through `signal`), timers, nodes and other
 * clean-ups. Ending it undoes all of them, last first.
 */
export class Scope {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  readonly #cleanups: (() => void)[] = [];

  /** Runs `cleanup` when the scope ends. */
  defer(cleanup: () => void): void {
    this.#cleanups.push(cleanup);
  }

  /** Removes `node` from the document when the scope ends. */
  own<T extends Element>(node: T): T {
    // Through the prototype: a form's `remove` can be one of its inputs.
    this.defer(() => Element.prototype.remove.call(node));
    return node;
  }

  /** Calls `callback` after `ms` unless the scope ends first; returns a function that cancels it. */
  timer(ms: number, callback: () => void): () => void {
    const id = setTimeout(callback, ms);
    const cancel = () => clearTimeout(id);
    this.signal.addEventListener('abort', cancel, { once: true });
    return cancel;
  }

  end(): void {
    this.#controller.abort();
    for (const cleanup of this.#cleanups.splice(0).reverse()) cleanup();
  }
}

/**
 * Makes `target` (a frame, or `_self`: this page) load `step`. A POST goes
 * through a hidden form placed next to the frame (or in the body), which
 * `scope` removes; a GET by the frame's `src` or the page's location. Names and
 * values go in as DOM properties, never as markup.
 */
export function navigate(scope: Scope, step: FrameNavigation, target: HTMLIFrameElement | '_self'): void {
  const frame = target === '_self' ? undefined : target;
  if (step.method === 'GET') {
    const url = new URL(step.url);
    for (const { name, value } of step.parameters) url.searchParams.append(name, value);
    if (frame) frame.src = url.href;
    else window.location.assign(url.href);
    return;
  }
  const form = scope.own(document.createElement('form'));
  form.setAttribute('method', 'post');
  form.setAttribute('action', step.url.href);
  form.setAttribute('target', frame ? frame.name : '_self');
  form.setAttribute('hidden', '');
  // UTF-8 whatever the page's own encoding, which would turn other characters into &#…; references.
  form.setAttribute('accept-charset', 'UTF-8');
  const inputs = document.createDocumentFragment();
  for (const { name, value } of step.parameters) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    inputs.append(input);
  }
  // The form has no inputs yet, so its own `append` is still the method.
  form.append(inputs);
  // In the frame's tree (a shadow root, say), so its target finds the frame.
  (frame?.parentNode ?? document.body).append(form);
  HTMLFormElement.prototype.submit.call(form);
}

/** True while the frame still shows its initial about:blank, whose load event is not the one awaited. */
function showsInitialDocument(frame: HTMLIFrameElement): boolean {
  try {
    return frame.contentWindow?.location.href === 'about:blank';
  } catch {
    return false;
  }
}

/** The directives that refuse a form's post or a frame's navigation (`child-src` is what `frame-src` was in CSP 2). */
const NAVIGATION_DIRECTIVES = new Set(['form-action', 'frame-src', 'child-src']);

/**
 * Calls `refused` when this page's Content-Security-Policy blocks a request to `origin` (a form's action, a frame's
 * page), until `signal` aborts: the browser says so only in this event, and the frame stays blank.
 */
export function onRefusal(origin: string, refused: (violation: SecurityPolicyViolationEvent) => void, signal: AbortSignal): void {
  // The event is composed, so it reaches the document even from a form in a shadow root.
  document.addEventListener(
    'securitypolicyviolation',
    (violation) => {
      // Only what stops a post into a frame: an image or a fetch of the page's own to the same host is none of the flow's.
      if (
        NAVIGATION_DIRECTIVES.has(violation.effectiveDirective) &&
        violation.blockedURI &&
        new URL(violation.blockedURI, window.location.href).origin === origin
      )
        refused(violation);
    },
    { signal },
  );
}

export type PreconditionOutcome =
  | { readonly outcome: 'loaded' | 'timeout' | 'aborted' }
  /** This page's Content Security Policy blocked the request (form-action or frame-src). */
  | { readonly outcome: 'refused'; readonly violation: SecurityPolicyViolationEvent };

/**
 * Posts one precondition into `frame`, a hidden frame with a name, already in
 * the document; settles on the first load after the post, after `timeoutMs`,
 * on the page's refusal, or when `scope` ends.
 */
export function runPrecondition(
  scope: Scope,
  frame: HTMLIFrameElement,
  step: FrameNavigation,
  timeoutMs = METHOD_TIMEOUT_MS,
): Promise<PreconditionOutcome> {
  return new Promise((resolve) => {
    // Ends this step's own listeners and timer when it settles; the scope may run on.
    const done = new AbortController();
    const settle = (outcome: PreconditionOutcome) => {
      if (done.signal.aborted) return;
      done.abort();
      resolve(outcome);
    };
    const { signal } = done;
    if (scope.signal.aborted) return settle({ outcome: 'aborted' });
    scope.signal.addEventListener('abort', () => settle({ outcome: 'aborted' }), { signal });
    frame.addEventListener('load', () => !showsInitialDocument(frame) && settle({ outcome: 'loaded' }), { signal });
    onRefusal(step.url.origin, (violation) => settle({ outcome: 'refused', violation }), signal);
    signal.addEventListener(
      'abort',
      scope.timer(timeoutMs, () => settle({ outcome: 'timeout' })),
    );
    navigate(scope, step, frame);
  });
}
