/**
 * `<gw-3ds-handler>`: carries out endpoint 8 of the gateway (the 3-D Secure
 * step of a server-to-server payment) in the browser. Side-effect free: the
 * element is registered by `define.ts`.
 */
import { showFeedback, tag, type Feedback } from '../shared/feedback.js';
import type { PropertyValues } from '@lit/reactive-element';
import { challengeWindowOf, type ChallengeWindow } from '../../contract/challenge-window.js';
import { TIMER_MAX_MS } from '../../contract/limits.js';
import { GwElement } from '../shared/gw-element.js';
import { explained } from '../shared/messages.js';
import {
  checkRedirect,
  METHOD_TIMEOUT_MS,
  navigate,
  onRefusal,
  RedirectProblem,
  runPrecondition,
  Scope,
  type CheckedRedirect,
  type FrameNavigation,
} from '../../browser/three-d-secure-flow.js';
import { styles } from './gw-3ds-handler.styles.js';
import { followTranslations, textsOf, type Gw3dsHandlerTexts } from '../shared/texts.js';
import { threeDsResultOf, threeDsResultOfMessage } from './post-result.js';
import type {
  Gw3dsHandlerEventMap,
  ThreeDsCompleteDetail,
  ThreeDsErrorCode,
  ThreeDsErrorDetail,
  ThreeDsRedirect,
  ThreeDsState,
} from './events.js';

/** Built in; other languages are modules the page imports (`gw-elements/3ds-handler/translations/de`, …). */
const ENGLISH: Gw3dsHandlerTexts = {
  method: 'Checking your card with your bank…',
  complete: 'Card verification finished.',
  error: 'Your card could not be verified.',
  timeout: 'The card verification timed out.',
  challengeFrame: 'Card verification (3-D Secure)',
  methodFrame: 'Card verification (3-D Secure method)',
};

const DEFAULT_CHALLENGE_TIMEOUT_MS = 600_000;
const DEFAULT_CHALLENGE_WINDOW: ChallengeWindow = '02';

/** Frame names are global to the browsing context group: unique per element, and per flow within it. */
let nextInstance = 0;
function uniquePrefix(): string {
  const random = new Uint32Array(1);
  globalThis.crypto.getRandomValues(random);
  nextInstance += 1;
  return `gw-3ds-${nextInstance}-${random[0]!.toString(36)}`;
}

/** One run of the flow: what it owns (the shared runner's Scope), its checked `redirect`, and its frames' names. */
class Flow extends Scope {
  #frameCount = 0;

  constructor(
    readonly checked: CheckedRedirect,
    readonly namePrefix: string,
    /** The `redirect` it runs: a listener that sets another replaces it (at the next update, which is too late to wait for). */
    readonly redirect: unknown,
  ) {
    super();
  }

  frameName(kind: 'method' | 'challenge'): string {
    this.#frameCount += 1;
    return `${this.namePrefix}-${kind}-${this.#frameCount}`;
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

/** A positive time in ms, at most what a timer holds (a longer one would fire at once). */
function positiveOr(value: number, fallback: number): number {
  return Number.isFinite(value) && value > 0 ? Math.min(value, TIMER_MAX_MS) : fallback;
}

/**
 * Runs the 3-D Secure step of a server-to-server payment: posts each
 * precondition (the 3DS method) into a hidden frame and waits for it to load,
 * then posts the challenge into a visible frame and reports when the shopper
 * is back on the shopper result URL. Hand it the `redirect` object of a
 * pending (`000.200.000`) payment; read the outcome on your server.
 *
 * Its own texts (and its frames' accessible names) are in the language of its
 * `lang` (its own attribute, else the nearest ancestor's, else the document's):
 * English, built in, or any language whose translation the page imports
 * (`gw-elements/3ds-handler/translations/de`: `ar`, `de`, `es`, `fr`, `it`,
 * `nl`, `pl`, `tr`), English for any other; `texts` overrides them.
 * Its layout follows the page's `dir`.
 *
 * @tagname gw-3ds-handler
 * @summary Runs the gateway's server-to-server 3-D Secure redirect (method + challenge) in frames.
 *
 * @attr {'idle' | 'method' | 'challenge' | 'complete' | 'error' | 'timeout'} state - Read-only reflection of `state`, for styling (`gw-3ds-handler[state='challenge']`).
 * @prop {'idle' | 'method' | 'challenge' | 'complete' | 'error' | 'timeout'} state - Read-only: where the flow is, `idle` → `method` → `challenge` → `complete`, or `error`, or `timeout`. Reflected as the `state` attribute.
 * @attr lang - The language of the element's own texts: English, or one whose translation module the page imports (with any region, e.g. `ar-SA`); any other gets English. Without it, the nearest ancestor's `lang`, else the document's.
 *
 * @fires {Gw3dsMethodCompleteEvent} gw-3ds-method-complete - The preconditions are done; `detail.timedOut` is true when a method page did not load in time (not an error: the flow goes on).
 * @fires {Gw3dsChallengeStartEvent} gw-3ds-challenge-start - The challenge frame was posted, is showing and has focus; `detail.challengeWindow` is its size.
 * @fires {Gw3dsCompleteEvent} gw-3ds-complete - The shopper is back on the shopper result URL; `detail` has `id`, `resourcePath` and `url`. Read the payment on the server.
 * @fires {Gw3dsErrorEvent} gw-error - `detail.code` is `invalid-redirect`, `unsafe-url`, `method-failed`, `challenge-refused`, `challenge-timeout` or `busy`.
 *
 * @slot method - Shown while the 3-D Secure method runs (the shopper waits); wins over `texts.method`. Default: a spinner and "Checking your card with your bank…" (in the element's language) in a `role="status"` region.
 * @slot complete - Shown in the `complete` state; wins over `texts.complete`. Default: "Card verification finished." in the `role="status"` region.
 * @slot error - Shown in the `error` state; wins over `texts.error`. Default: "Your card could not be verified." in a `role="alert"` region.
 * @slot timeout - Shown in the `timeout` state; wins over `texts.timeout`. Default: "The card verification timed out." in a `role="alert"` region.
 *
 * @csspart base - The wrapper of everything the element shows.
 * @csspart status - The `role="status"` region: the method and complete messages.
 * @csspart spinner - The default indicator of the `method` state.
 * @csspart error - The `role="alert"` region of the `error` state.
 * @csspart timeout - The `role="alert"` region of the `timeout` state.
 * @csspart container - The scrollable box around the challenge frame; shown only in the `challenge` state.
 * @csspart challenge-frame - The challenge `<iframe>`.
 *
 * @cssprop [--gw-3ds-gap=0.5rem] - Space between the spinner and its text.
 * @cssprop [--gw-3ds-spinner-size=1.25rem] - Size of the default spinner.
 * @cssprop [--gw-3ds-spinner-color=currentColor] - Colour of the spinner's moving arc.
 * @cssprop [--gw-3ds-spinner-track-color=rgb(0 0 0 / 0.15)] - Colour of the spinner's track.
 * @cssprop [--gw-3ds-error-color=#7a1010] - Text colour of the error and timeout messages.
 * @cssprop [--gw-3ds-error-background=#fdecec] - Background of the error and timeout messages.
 * @cssprop [--gw-3ds-alert-padding=0.75rem 1rem] - Padding of the error and timeout messages.
 * @cssprop [--gw-3ds-radius=0.25rem] - Corner radius of the error and timeout messages.
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
  /** The element's shadow-root styles (its parts and custom properties are the public styling API). */
  static override styles = styles;

  static override properties = {
    redirect: { attribute: false },
    challengeWindow: { attribute: 'challenge-window' },
    methodTimeout: { attribute: 'method-timeout', type: Number },
    challengeTimeout: { attribute: 'challenge-timeout', type: Number },
    resultOrigin: { attribute: 'result-origin' },
    label: {},
    texts: { attribute: false },
  };

  /**
   * The gateway's `redirect` object (`url`, `parameters`, `preconditions`) of a
   * pending payment. Setting it starts the flow, replacing a running one;
   * setting `undefined` cancels it. Set while the element is out of the page,
   * the flow starts when the element is put back.
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

  /** Accessible name of the challenge frame. Default: `texts.challengeFrame`, "Card verification (3-D Secure)" in the element's language. */
  declare label: string | undefined;

  /**
   * The element's own texts, any of `method`, `complete`, `error`, `timeout`,
   * `challengeFrame`, `methodFrame`, over the shipped ones of its language. A
   * slot with the same name wins over its text.
   */
  declare texts: Partial<Gw3dsHandlerTexts> | undefined;

  #flow: Flow | undefined;
  #view: (Feedback & { readonly base: HTMLElement }) | undefined;
  readonly #namePrefix = uniquePrefix();
  #flowCount = 0;
  /** A flow was asked for (a redirect set, `start()`) while the element was out of the page: it starts when put back. */
  #waiting = false;

  constructor() {
    super();
    this.redirect = undefined;
    this.challengeWindow = DEFAULT_CHALLENGE_WINDOW;
    this.methodTimeout = METHOD_TIMEOUT_MS;
    this.challengeTimeout = DEFAULT_CHALLENGE_TIMEOUT_MS;
    this.resultOrigin = undefined;
    this.label = undefined;
    this.texts = undefined;
  }

  /** The challenge window size in use: `challenge-window` when it names one (`01`…`05`, or one digit), else `02`. */
  get effectiveChallengeWindow(): ChallengeWindow {
    return challengeWindowOf(this.challengeWindow) ?? DEFAULT_CHALLENGE_WINDOW;
  }

  /**
   * Starts the flow with the current `redirect` (setting `redirect` does this
   * for you). While a flow runs this fires `gw-error` `busy` and changes nothing.
   */
  start(): void {
    if (this.#flow) {
      this.#fail('busy', explained('busy', 'a 3-D Secure flow is already running'), { keepFlow: true });
      return;
    }
    this.#begin(this.redirect);
  }

  /** Stops a running flow: removes its frames, timers and listeners; the state goes back to `idle`. */
  cancel(): void {
    this.#waiting = false;
    this.#stop();
  }

  /** Ends the running flow, if any: back to `idle`. */
  #stop(): void {
    if (!this.#flow) return;
    this.#endFlow();
    this.setState('idle');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    followTranslations(this, true);
    // A flow asked for while out of the page starts now (one that ran before removal was cancelled, and stays so),
    // in the next update: a redirect set in the same task, before or after the move, replaces it or cancels it.
    if (this.#waiting) this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    followTranslations(this, false);
    // A flow waiting to be put back keeps waiting: a move (out and in again within a task) must not lose it.
    this.#stop();
  }

  /** The element's texts now: those of its language (English unless a translation is registered) under `texts`. */
  #texts(): { language: string; texts: Gw3dsHandlerTexts } {
    return textsOf(this, 'gw-3ds-handler', ENGLISH, this.texts);
  }

  #challengeFrameTitle(): string {
    return this.label || this.#texts().texts.challengeFrame;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('label') || changed.has('texts') || changed.has('lang')) {
      const frame = this.renderRoot.querySelector<HTMLIFrameElement>('.frame');
      if (frame) frame.title = this.#challengeFrameTitle();
      for (const method of this.renderRoot.querySelectorAll<HTMLIFrameElement>('.method-frames iframe'))
        method.title = this.#texts().texts.methodFrame;
    }
    if (!changed.has('redirect')) {
      if (this.#waiting && this.isConnected) this.#begin(this.redirect);
      return;
    }
    this.#waiting = false;
    if (this.redirect === undefined || this.redirect === null) {
      this.cancel();
      return;
    }
    // A new redirect replaces a running flow: no `busy`, and no stop at `idle` in between.
    this.#endFlow();
    this.#begin(this.redirect);
  }

  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    const state = this.state;
    const { language, texts } = this.#texts();
    // Built once, in plain DOM (shared/feedback.ts): the role=status region is always there (empty unless it has news),
    // so its text is announced when it appears; the flow appends its frames to the frame holders.
    const view = (this.#view ??= this.#createView());
    view.base.lang = language;
    const alert = state === 'error' || state === 'timeout' ? state : undefined;
    if (state === 'method' || state === 'complete') showFeedback(view, state, texts[state], state === 'method' ? 'busy' : 'plain');
    else showFeedback(view, alert, alert && texts[alert]);
  }

  #createView() {
    const status = tag('div', { class: 'status', part: 'status', role: 'status' });
    const methodFrames = tag('div', { class: 'method-frames', 'aria-hidden': 'true' });
    const base = tag('div', { part: 'base' }, status, methodFrames, tag('div', { class: 'container', part: 'container' }));
    this.renderRoot.append(base);
    return { base, status, alertBefore: methodFrames };
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
    this.reportToConsole(message, code === 'challenge-timeout' ? 'warn' : 'error');
  }

  #begin(redirect: unknown): void {
    // Out of the page its frames could not load and the flow would run blind to `timeout`: it starts when put back.
    this.#waiting = !this.isConnected;
    if (this.#waiting) return;
    let checked: CheckedRedirect;
    try {
      checked = checkRedirect(redirect);
    } catch (error) {
      if (!(error instanceof RedirectProblem)) throw error;
      this.#fail(error.code, error.message);
      return;
    }
    this.#flowCount += 1;
    const flow = new Flow(checked, `${this.#namePrefix}-${this.#flowCount}`, redirect);
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
        const frame = flow.own(this.#frame(flow.frameName('method')));
        frame.tabIndex = -1;
        frame.title = this.#texts().texts.methodFrame;
        this.renderRoot.querySelector('.method-frames')!.append(frame);
        const result = await runPrecondition(flow, frame, step, positiveOr(this.methodTimeout, METHOD_TIMEOUT_MS));
        if (result.outcome === 'refused') {
          this.#fail(
            'method-failed',
            explained(
              'method-refused',
              `a Content-Security-Policy refused the method request to ${step.url.origin} (form-action, frame-src)`,
            ),
            { cause: result.violation },
          );
          return;
        }
        if (result.outcome === 'aborted' || flow.signal.aborted) return;
        timedOut ||= result.outcome === 'timeout';
      }
      this.emit('gw-3ds-method-complete', { timedOut });
      // A listener may have cancelled or replaced the flow.
      if (flow.signal.aborted || this.redirect !== flow.redirect) return;
    }
    this.#runChallenge(flow, challenge);
  }

  #runChallenge(flow: Flow, step: FrameNavigation): void {
    const container = this.renderRoot.querySelector('.container')!;
    const challengeWindow = this.effectiveChallengeWindow;
    const frame = flow.own(this.#frame(flow.frameName('challenge')));
    frame.className = 'frame';
    frame.part.add('challenge-frame');
    frame.dataset.window = challengeWindow;
    frame.title = this.#challengeFrameTitle();
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
    onRefusal(
      step.url.origin,
      (violation) =>
        this.#fail(
          'challenge-refused',
          explained(
            'challenge-refused',
            `a Content-Security-Policy refused the challenge request to ${step.url.origin} (form-action, frame-src)`,
          ),
          { cause: violation },
        ),
      signal,
    );
    flow.timer(positiveOr(this.challengeTimeout, DEFAULT_CHALLENGE_TIMEOUT_MS), () => {
      this.#fail('challenge-timeout', explained('challenge-timeout', 'the shopper did not finish the challenge in time'), {
        state: 'timeout',
      });
    });
    this.setState('challenge');
    navigate(flow, step, frame);
    // The shopper's next step is inside the frame: take keyboard and screen-reader focus there, and scroll it into view.
    frame.focus();
    this.emit('gw-3ds-challenge-start', { challengeWindow });
  }

  #frame(name: string): HTMLIFrameElement {
    const frame = document.createElement('iframe');
    frame.name = name;
    return frame;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'gw-3ds-handler': Gw3dsHandler;
  }
}
