/**
 * `<gw-3ds-handler>`: carries out endpoint 8 of the gateway (the 3-D Secure
 * step of a server-to-server payment) in the browser. Side-effect free: the
 * element is registered by `define.ts`.
 */
import { html, type PropertyValues } from 'lit';
import { CHALLENGE_WINDOWS, type ChallengeWindow } from '../../contract/challenge-window.js';
import { GwElement } from '../shared/gw-element.js';
import { httpUrl, isSecureEndpoint } from '../shared/url.js';
import { styles } from './gw-3ds-handler.styles.js';
import { threeDsResultOf, threeDsResultOfMessage } from './post-result.js';
import type {
  Gw3dsHandlerEventMap,
  RedirectParameter,
  ThreeDsCompleteDetail,
  ThreeDsErrorCode,
  ThreeDsErrorDetail,
  ThreeDsRedirect,
  ThreeDsState,
} from './events.js';

/** EMVCo: when the 3DS method page has not loaded within 10 seconds, go on without it. */
const DEFAULT_METHOD_TIMEOUT_MS = 10_000;
const DEFAULT_CHALLENGE_TIMEOUT_MS = 600_000;
const DEFAULT_CHALLENGE_WINDOW: ChallengeWindow = '02';
const PRECONDITION_ORIGINS = ['iframe#hidden'];
const PRECONDITION_WAITS = ['iframe#onload', 'iframe#load'];

/** One navigation the element makes a frame do: a precondition, or the challenge itself. */
interface FrameNavigation {
  readonly method: 'POST' | 'GET';
  readonly url: URL;
  readonly parameters: readonly RedirectParameter[];
}

/** A `redirect` checked whole before anything is posted. */
interface CheckedRedirect {
  readonly preconditions: readonly FrameNavigation[];
  readonly challenge: FrameNavigation;
}

class RedirectProblem extends Error {
  constructor(
    readonly code: 'invalid-redirect' | 'unsafe-url',
    message: string,
  ) {
    super(message);
  }
}

/** Frame names are global to the browsing context group: unique per element, and per flow within it. */
let nextInstance = 0;
function uniquePrefix(): string {
  const random = new Uint32Array(1);
  globalThis.crypto.getRandomValues(random);
  nextInstance += 1;
  return `gw-3ds-${nextInstance}-${random[0]!.toString(36)}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = (message: string) => new RedirectProblem('invalid-redirect', message);

/** A UTF-16 surrogate without its pair: the browser sends U+FFFD instead. */
const LONE_SURROGATE = /\p{Cs}/u;
/** A CR or LF outside a CRLF pair: a form post turns it into CRLF. */
const LONE_LINE_BREAK = /\r(?!\n)|(?<!\r)\n/;

/**
 * Why the browser would not send `text` unchanged as a parameter name or value
 * of a `method` step, or undefined when it would. (A hidden input named
 * `_charset_` is sent with the page's charset instead of its value.)
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
    if (!isObject(entry) || typeof entry.name !== 'string' || !entry.name || typeof entry.value !== 'string') throw invalid(`${where}.parameters[${index}] must be {name, value} strings`);
    // Posted exactly as the gateway gave it, or not at all: a changed parameter would fail at the ACS with no event here.
    const nameProblem = unsendable(entry.name, method, true);
    const valueProblem = unsendable(entry.value, method, false);
    if (nameProblem || valueProblem) throw invalid(`${where}.parameters[${index}] cannot be sent unchanged: its ${nameProblem ? `name ${nameProblem}` : `value ${valueProblem}`}`);
    return { name: entry.name, value: entry.value };
  });
}

/** Only https:, or http: on this machine (the sandbox): never javascript:, data:, or a relative URL. */
function checkedUrl(value: unknown, where: string): URL {
  if (typeof value !== 'string' || !value) throw invalid(`${where}.url must be a string`);
  const url = httpUrl(value);
  if (!url || !isSecureEndpoint(url)) throw new RedirectProblem('unsafe-url', `${where}.url must be an https: URL (http: only on localhost)`);
  return url;
}

/** One step's method and parameters; its URL is checked after every step's shape. */
function checkedShape(step: Record<string, unknown>, where: string) {
  const method = step.method === undefined ? 'POST' : String(step.method).toUpperCase();
  if (method !== 'POST' && method !== 'GET') throw invalid(`${where}.method must be POST or GET`);
  return { method: method as 'POST' | 'GET', parameters: checkedParameters(step.parameters, method as 'POST' | 'GET', where), url: step.url, where };
}

/** Checks the whole `redirect` object, so a flaw anywhere means nothing is posted at all. */
function checkRedirect(redirect: unknown): CheckedRedirect {
  if (!isObject(redirect)) throw invalid('redirect must be the gateway\'s {url, parameters, preconditions?} object');
  const preconditions = redirect.preconditions ?? [];
  if (!Array.isArray(preconditions)) throw invalid('redirect.preconditions must be an array');
  const shapes = preconditions.map((precondition: unknown, index) => {
    const where = `redirect.preconditions[${index}]`;
    if (!isObject(precondition)) throw invalid(`${where} must be an object`);
    if (!PRECONDITION_ORIGINS.includes(precondition.origin as string)) throw invalid(`${where}.origin must be ${PRECONDITION_ORIGINS.join(' or ')}`);
    if (!PRECONDITION_WAITS.includes(precondition.waitUntil as string)) throw invalid(`${where}.waitUntil must be ${PRECONDITION_WAITS.join(' or ')}`);
    return checkedShape(precondition, where);
  });
  shapes.push(checkedShape(redirect, 'redirect'));
  // URLs last: a malformed object is `invalid-redirect` even when it also carries a bad URL.
  const steps = shapes.map(({ url, where, ...step }) => ({ ...step, url: checkedUrl(url, where) }));
  return { preconditions: steps.slice(0, -1), challenge: steps.at(-1)! };
}

/** What one run of the flow owns; aborting it undoes everything the run set up. */
class Flow {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  readonly #nodes: Element[] = [];
  #frameCount = 0;

  constructor(
    readonly checked: CheckedRedirect,
    readonly namePrefix: string,
  ) {}

  frameName(kind: 'method' | 'challenge'): string {
    this.#frameCount += 1;
    return `${this.namePrefix}-${kind}-${this.#frameCount}`;
  }

  own<T extends Element>(node: T): T {
    this.#nodes.push(node);
    return node;
  }

  timer(ms: number, callback: () => void): void {
    const id = setTimeout(callback, ms);
    this.signal.addEventListener('abort', () => clearTimeout(id), { once: true });
  }

  end(): void {
    this.#controller.abort();
    // Through the prototype: a form's `remove` can be one of its inputs (see #navigate).
    for (const node of this.#nodes.splice(0)) Element.prototype.remove.call(node);
  }
}

/** True while the frame still shows its initial about:blank, whose load event is not the one we wait for. */
function showsInitialDocument(frame: HTMLIFrameElement): boolean {
  try {
    return frame.contentWindow?.location.href === 'about:blank';
  } catch {
    return false;
  }
}

/** The result on the frame's page when it is a same-origin shopper result URL; cross-origin pages throw and say nothing. */
function sameOriginResult(frame: HTMLIFrameElement): ThreeDsCompleteDetail | undefined {
  try {
    const href = frame.contentWindow?.location.href;
    return href && href !== 'about:blank' ? threeDsResultOf(href) : undefined;
  } catch {
    return undefined;
  }
}

/** This page's origin plus each origin of `result-origin`, normalised (`https://pay.example/` is `https://pay.example`). */
function acceptedOrigins(resultOrigin: string | undefined): Set<string> {
  const origins = new Set([window.location.origin]);
  for (const entry of (resultOrigin ?? '').split(/\s+/).filter(Boolean)) {
    try {
      const { origin } = new URL(entry);
      if (origin !== 'null') origins.add(origin);
    } catch {
      // Not a URL: accepts nothing.
    }
  }
  return origins;
}

function positiveOr(value: number, fallback: number): number {
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * Runs the 3-D Secure step of a server-to-server payment: posts each
 * precondition (the 3DS method) into a hidden frame and waits for it to load,
 * then posts the challenge into a visible frame and reports when the shopper
 * is back on the shopper result URL. Hand it the `redirect` object of a
 * pending (`000.200.000`) payment; read the outcome on your server.
 *
 * @tagname gw-3ds-handler
 * @summary Runs the gateway's server-to-server 3-D Secure redirect (method + challenge) in frames.
 *
 * @attr {'idle' | 'method' | 'challenge' | 'complete' | 'error' | 'timeout'} state - Read-only reflection of `state`, for styling (`gw-3ds-handler[state='challenge']`).
 * @prop {'idle' | 'method' | 'challenge' | 'complete' | 'error' | 'timeout'} state - Read-only: where the flow is, `idle` → `method` → `challenge` → `complete`, or `error`, or `timeout`. Reflected as the `state` attribute.
 *
 * @fires {Gw3dsMethodCompleteEvent} gw-3ds-method-complete - The preconditions are done; `detail.timedOut` is true when a method page did not load in time (not an error: the flow goes on).
 * @fires {Gw3dsChallengeStartEvent} gw-3ds-challenge-start - The challenge frame was posted, is showing and has focus; `detail.challengeWindow` is its size.
 * @fires {Gw3dsCompleteEvent} gw-3ds-complete - The shopper is back on the shopper result URL; `detail` has `id`, `resourcePath` and `url`. Read the payment on the server.
 * @fires {Gw3dsErrorEvent} gw-error - `detail.code` is `invalid-redirect`, `unsafe-url`, `method-failed`, `challenge-timeout` or `busy`.
 *
 * @csspart container - The scrollable box around the challenge frame; shown only in the `challenge` state.
 * @csspart challenge-frame - The challenge `<iframe>`.
 *
 * @cssprop --gw-3ds-frame-width - Width of the challenge frame (default: the challenge window's width).
 * @cssprop --gw-3ds-frame-height - Height of the challenge frame (default: the challenge window's height).
 * @cssprop --gw-3ds-full-height - Height of the frame for challenge window `05` (default `100vh`).
 * @cssprop --gw-3ds-frame-border - Border of the challenge frame (default none).
 * @cssprop --gw-3ds-frame-border-radius - Corner radius of the challenge frame (default 0).
 * @cssprop --gw-3ds-frame-background - Background behind the ACS page (default white).
 * @cssprop --gw-3ds-container-max-height - Maximum height of the container before it scrolls (default none).
 * @cssprop --gw-3ds-container-background - Background of the container (default transparent).
 * @cssprop --gw-3ds-container-padding - Padding of the container (default 0).
 */
export class Gw3dsHandler extends GwElement<Gw3dsHandlerEventMap, ThreeDsState> {
  static override readonly tagName = 'gw-3ds-handler';
  static override styles = styles;

  static override properties = {
    redirect: { attribute: false },
    challengeWindow: { attribute: 'challenge-window' },
    methodTimeout: { attribute: 'method-timeout', type: Number },
    challengeTimeout: { attribute: 'challenge-timeout', type: Number },
    resultOrigin: { attribute: 'result-origin' },
    label: {},
  };

  /**
   * The gateway's `redirect` object (`url`, `parameters`, `preconditions`) of a
   * pending payment. Setting it starts the flow, replacing a running one;
   * setting `undefined` cancels it.
   */
  declare redirect: ThreeDsRedirect | undefined;

  /**
   * EMVCo challenge window size: `01` 250x400, `02` 390x400, `03` 500x600,
   * `04` 600x400, `05` full. Unknown values mean `02`. Send the same value as
   * `customer.browser.challengeWindow` when creating the payment.
   */
  declare challengeWindow: string;

  /** Milliseconds to wait for each 3DS method page to load before going on without it (EMVCo: 10 s). */
  declare methodTimeout: number;

  /** Milliseconds the shopper has to finish the challenge before `gw-error` `challenge-timeout`. */
  declare challengeTimeout: number;

  /**
   * Origins (space-separated) of a shopper result page on another origin that
   * reports back with `postThreeDsResult()`. This page's own origin is always accepted.
   */
  declare resultOrigin: string | undefined;

  /** Accessible name of the challenge frame. */
  declare label: string;

  #flow: Flow | undefined;
  readonly #namePrefix = uniquePrefix();
  #flowCount = 0;

  constructor() {
    super();
    this.redirect = undefined;
    this.challengeWindow = DEFAULT_CHALLENGE_WINDOW;
    this.methodTimeout = DEFAULT_METHOD_TIMEOUT_MS;
    this.challengeTimeout = DEFAULT_CHALLENGE_TIMEOUT_MS;
    this.resultOrigin = undefined;
    this.label = 'Card verification (3-D Secure)';
  }

  /** The challenge window size in use: `challenge-window` when it is one of `01`…`05`, else `02`. */
  get effectiveChallengeWindow(): ChallengeWindow {
    return (CHALLENGE_WINDOWS as readonly string[]).includes(this.challengeWindow) ? (this.challengeWindow as ChallengeWindow) : DEFAULT_CHALLENGE_WINDOW;
  }

  /**
   * Starts the flow with the current `redirect` (setting `redirect` does this
   * for you). While a flow runs this fires `gw-error` `busy` and changes nothing.
   */
  start(): void {
    if (this.#flow) {
      this.#fail('busy', 'A 3-D Secure flow is already running; cancel() it or set a new redirect to replace it.', { keepFlow: true });
      return;
    }
    this.#begin(this.redirect);
  }

  /** Stops a running flow: removes its frames, timers and listeners; the state goes back to `idle`. */
  cancel(): void {
    if (!this.#flow) return;
    this.#endFlow();
    this.setState('idle');
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.cancel();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('label')) {
      const frame = this.renderRoot.querySelector<HTMLIFrameElement>('.frame');
      if (frame) frame.title = this.label;
    }
    if (!changed.has('redirect')) return;
    if (this.redirect === undefined || this.redirect === null) {
      this.cancel();
      return;
    }
    // A new redirect replaces a running flow: no `busy`, and no stop at `idle` in between.
    this.#endFlow();
    this.#begin(this.redirect);
  }

  protected override render() {
    return html`<div class="method-frames" aria-hidden="true"></div>
      <div class="container" part="container"></div>`;
  }

  #endFlow(): void {
    const flow = this.#flow;
    this.#flow = undefined;
    flow?.end();
  }

  #fail(code: ThreeDsErrorCode, message: string, options: { keepFlow?: boolean; state?: 'error' | 'timeout'; cause?: unknown } = {}): void {
    if (!options.keepFlow) {
      this.#endFlow();
      this.setState(options.state ?? 'error');
    }
    const detail: ThreeDsErrorDetail = options.cause === undefined ? { code, message } : { code, message, cause: options.cause };
    this.emit('gw-error', detail);
  }

  #begin(redirect: unknown): void {
    let checked: CheckedRedirect;
    try {
      checked = checkRedirect(redirect);
    } catch (error) {
      if (!(error instanceof RedirectProblem)) throw error;
      this.#fail(error.code, error.message);
      return;
    }
    this.#flowCount += 1;
    const flow = new Flow(checked, `${this.#namePrefix}-${this.#flowCount}`);
    this.#flow = flow;
    // The frames go into the rendered shadow root, which exists after the first update.
    if (this.hasUpdated) void this.#run(flow);
    else void this.updateComplete.then(() => this.#run(flow));
  }

  async #run(flow: Flow): Promise<void> {
    if (flow.signal.aborted) return;
    const { preconditions, challenge } = flow.checked;
    if (preconditions.length > 0) {
      this.setState('method');
      let timedOut = false;
      for (const step of preconditions) {
        const outcome = await this.#runPrecondition(flow, step);
        if (outcome === 'aborted' || flow.signal.aborted) return;
        timedOut ||= outcome === 'timeout';
      }
      this.emit('gw-3ds-method-complete', { timedOut });
      // A listener may have cancelled or replaced the flow.
      if (flow.signal.aborted) return;
    }
    this.#runChallenge(flow, challenge);
  }

  /** Posts one precondition into a hidden frame; settles on the first load after the post, a timeout, or the page's refusal. */
  #runPrecondition(flow: Flow, step: FrameNavigation): Promise<'loaded' | 'timeout' | 'aborted'> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: 'loaded' | 'timeout' | 'aborted') => {
        if (settled) return false;
        settled = true;
        resolve(outcome);
        return true;
      };
      const holder = this.renderRoot.querySelector('.method-frames')!;
      const frame = flow.own(this.#frame(flow.frameName('method')));
      frame.tabIndex = -1;
      frame.title = 'Card verification (3-D Secure method)';
      holder.append(frame);
      const { signal } = flow;
      signal.addEventListener('abort', () => settle('aborted'), { once: true });
      frame.addEventListener('load', () => !showsInitialDocument(frame) && settle('loaded'), { signal });
      this.#watchRefusal(flow, step.url, (violation) => {
        if (settle('aborted')) this.#fail('method-failed', `This page's Content Security Policy refused the 3-D Secure method request to ${step.url.origin}: allow it in form-action and frame-src.`, { cause: violation });
      });
      flow.timer(positiveOr(this.methodTimeout, DEFAULT_METHOD_TIMEOUT_MS), () => settle('timeout'));
      this.#navigate(flow, frame, holder, step);
    });
  }

  #runChallenge(flow: Flow, step: FrameNavigation): void {
    const container = this.renderRoot.querySelector('.container')!;
    const challengeWindow = this.effectiveChallengeWindow;
    const frame = flow.own(this.#frame(flow.frameName('challenge')));
    frame.className = 'frame';
    frame.part.add('challenge-frame');
    frame.dataset.window = challengeWindow;
    frame.title = this.label;
    // Passkey (WebAuthn) and payment-handler authentication inside the ACS page.
    frame.allow = 'payment *; publickey-credentials-get *';
    container.append(frame);
    const { signal } = flow;
    const complete = (result: ThreeDsCompleteDetail | undefined) => {
      if (!result || signal.aborted) return;
      this.#endFlow();
      this.setState('complete');
      this.emit('gw-3ds-complete', result);
    };
    frame.addEventListener('load', () => complete(sameOriginResult(frame)), { signal });
    const origins = acceptedOrigins(this.resultOrigin);
    window.addEventListener(
      'message',
      (event: MessageEvent) => {
        if (event.source !== frame.contentWindow || !origins.has(event.origin)) return;
        const result = threeDsResultOfMessage(event.data);
        // The page reports its own URL: it must be on the origin that sent the message.
        if (result && URL.canParse(result.url) && new URL(result.url).origin === event.origin) complete(result);
      },
      { signal },
    );
    flow.timer(positiveOr(this.challengeTimeout, DEFAULT_CHALLENGE_TIMEOUT_MS), () => {
      this.#fail('challenge-timeout', 'The shopper did not finish the 3-D Secure challenge in time; read the payment on the server before offering a new attempt.', { state: 'timeout' });
    });
    this.setState('challenge');
    this.#navigate(flow, frame, container, step);
    // The shopper's next step is inside the frame: take keyboard and screen-reader focus there, and scroll it into view.
    frame.focus();
    this.emit('gw-3ds-challenge-start', { challengeWindow });
  }

  #frame(name: string): HTMLIFrameElement {
    const frame = document.createElement('iframe');
    frame.name = name;
    return frame;
  }

  /**
   * Makes `frame` load `step`: a POST through a form in the same tree as the
   * frame (so its `target` finds it), a GET by the frame's `src`. Names and
   * values go in as DOM properties, never as markup.
   */
  #navigate(flow: Flow, frame: HTMLIFrameElement, holder: Element, step: FrameNavigation): void {
    if (step.method === 'GET') {
      const url = new URL(step.url);
      for (const { name, value } of step.parameters) url.searchParams.append(name, value);
      frame.src = url.href;
      return;
    }
    // The gateway names the inputs, and a form exposes its inputs as properties by name (an input named
    // `submit`, `action` or `append` hides the method or setting of that name: DOM clobbering). So the form
    // is set up with attributes before it has inputs, and is only ever called through the prototype.
    const form = flow.own(document.createElement('form'));
    form.setAttribute('method', 'post');
    form.setAttribute('action', step.url.href);
    form.setAttribute('target', frame.name);
    form.setAttribute('hidden', '');
    // UTF-8 whatever the page's own encoding, which would otherwise turn other characters into &#…; references.
    form.setAttribute('accept-charset', 'UTF-8');
    const inputs = document.createDocumentFragment();
    for (const { name, value } of step.parameters) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      inputs.append(input);
    }
    form.append(inputs);
    holder.append(form);
    HTMLFormElement.prototype.submit.call(form);
  }

  /** Calls `refused` when this page's Content Security Policy blocks a request to `url`'s origin. */
  #watchRefusal(flow: Flow, url: URL, refused: (violation: SecurityPolicyViolationEvent) => void): void {
    // The event is composed, so it reaches the document even when the form sits in our shadow root.
    const listener = (event: SecurityPolicyViolationEvent) => {
      if (event.blockedURI && new URL(event.blockedURI, window.location.href).origin === url.origin) refused(event);
    };
    document.addEventListener('securitypolicyviolation', listener, { signal: flow.signal });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'gw-3ds-handler': Gw3dsHandler;
  }
}
