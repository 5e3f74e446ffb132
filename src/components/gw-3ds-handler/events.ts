/**
 * The events `<gw-3ds-handler>` fires and their detail types, declared once:
 * the element's event map types its `emit()`, and the same map is merged into
 * `HTMLElementEventMap`. The `redirect` it reads is the contract's.
 */
import type { ChallengeWindow } from '../../contract/challenge-window.js';
import type { GwEvent } from '../shared/gw-element.js';
export type { RedirectParameter, RedirectPrecondition, ThreeDsRedirect } from '../../contract/redirect.js';

/** `idle` → `method` → `challenge` → `complete`, or `error`, or `timeout`. */
export type ThreeDsState = 'idle' | 'method' | 'challenge' | 'complete' | 'error' | 'timeout';

/** The documented `gw-error` codes of `<gw-3ds-handler>`. */
export type ThreeDsErrorCode =
  /** `redirect` is missing or not the gateway's shape, or a parameter cannot be posted unchanged (a lone CR or LF, an unpaired surrogate, the name `_charset_`); nothing was posted. */
  | 'invalid-redirect'
  /** A URL is not `https:` (or `http:` on localhost); nothing was posted. */
  | 'unsafe-url'
  /** The page refused the 3DS method request (its Content Security Policy blocked the form or the frame). */
  | 'method-failed'
  /** The page refused the challenge request (its Content Security Policy blocked the form or the frame): the shopper cannot authenticate. */
  | 'challenge-refused'
  /** The shopper did not come back from the challenge within `challenge-timeout`. */
  | 'challenge-timeout'
  /** `start()` was called while a flow runs; the running flow goes on. */
  | 'busy';

export interface ThreeDsErrorDetail {
  readonly code: ThreeDsErrorCode;
  /**
   * For developers: what went wrong in a few words and, for the element's own checks, a link to what to do
   * (docs/messages.md). Never holds card data. Branch on `code`, never on these words.
   */
  readonly message: string;
  readonly cause?: unknown;
}

export interface ThreeDsMethodCompleteDetail {
  /** True when a method page did not load within `method-timeout`: the flow went on anyway, as EMVCo prescribes. */
  readonly timedOut: boolean;
}

export interface ThreeDsChallengeStartDetail {
  /** The EMVCo challenge window size the frame was given. */
  readonly challengeWindow: ChallengeWindow;
}

/** Where the shopper came back: the shopper result URL with the gateway's `id` and `resourcePath`. */
export interface ThreeDsCompleteDetail {
  /** The payment id; read the outcome on the server with `GET /v1/payments/{id}`. */
  readonly id: string;
  /** `/v1/payments/{id}` */
  readonly resourcePath: string;
  /** The shopper result URL the challenge ended on. */
  readonly url: string;
}

export type Gw3dsMethodCompleteEvent = GwEvent<ThreeDsMethodCompleteDetail>;
export type Gw3dsChallengeStartEvent = GwEvent<ThreeDsChallengeStartDetail>;
export type Gw3dsCompleteEvent = GwEvent<ThreeDsCompleteDetail>;
export type Gw3dsErrorEvent = GwEvent<ThreeDsErrorDetail>;

/** Every event `<gw-3ds-handler>` fires, by name. */
export interface Gw3dsHandlerEventMap {
  'gw-3ds-method-complete': Gw3dsMethodCompleteEvent;
  'gw-3ds-challenge-start': Gw3dsChallengeStartEvent;
  'gw-3ds-complete': Gw3dsCompleteEvent;
  'gw-error': Gw3dsErrorEvent;
}

declare global {
  // `gw-error` is shared with <gw-checkout>: its global entry is in ../shared/gw-element.ts.
  // Merges the map's entries into the global one: the members come from the `extends`.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends Omit<Gw3dsHandlerEventMap, 'gw-error'> {}
  interface GwErrorDetailMap {
    'gw-3ds-handler': ThreeDsErrorDetail;
  }
}
