/**
 * The `redirect` object of a pending (`000.200.000`) server-to-server payment,
 * as the gateway returns it (the API reference's payment response; the platform's 3-D Secure documentation). One
 * shape for the sandbox that emits it, the server helper that returns it and
 * `<gw-3ds-handler>` that runs it. Types only: nothing here reaches a bundle.
 */

/** One `{name, value}` entry of `redirect.parameters` or a precondition's `parameters`. */
export interface RedirectParameter {
  readonly name: string;
  readonly value: string;
}

/** A step the browser must take before the challenge: today always the hidden 3DS method iframe. */
export interface RedirectPrecondition {
  /** `iframe#hidden` */
  readonly origin: string;
  /** `iframe#onload` (some emitters write `iframe#load`) */
  readonly waitUntil: string;
  readonly description?: string;
  /** `POST` or `GET` */
  readonly method: string;
  readonly url: string;
  readonly parameters: readonly RedirectParameter[];
}

/** The whole `redirect` object. */
export interface ThreeDsRedirect {
  readonly url: string;
  /** `POST` unless the gateway says otherwise. */
  readonly method?: string;
  readonly parameters: readonly RedirectParameter[];
  readonly preconditions?: readonly RedirectPrecondition[];
}
