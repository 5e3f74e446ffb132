/**
 * The widget as each of its parts sees it (the card form, the saved cards,
 * the wallets, the payment's one request): its options, texts, scope and the
 * few things it does for them. Its own module, so the parts depend on it and
 * not on one another.
 */
import type { Scope } from '../browser/three-d-secure-flow.js';
import type { WpwlCallback, WpwlErrorName, WpwlOptions } from '../browser/widget-contract.js';
import type { Language, Texts } from './texts.js';

/** What a card form, a wallet or a saved card needs from the widget around it. */
export interface Widget {
  readonly options: WpwlOptions;
  readonly texts: Texts;
  /** The language of `texts`. */
  readonly language: Language;
  /** Ends with `wpwl.unload()`: every listener, request, timer and node the widget added. */
  readonly scope: Scope;
  call(name: WpwlCallback, ...args: unknown[]): unknown;
  report(name: WpwlErrorName, message: string): void;
  /** A registration-only checkout (`checkoutId={id}/registration`): the form saves the card and takes no payment. */
  readonly registration: boolean;
  /** The URL of this checkout's widget endpoint `path`. */
  gatewayUrl(path: string): string;
  /** Sends the shopper to `form`'s action, the shop's result page, with the checkout's id and resourcePath. */
  showResult(form: HTMLFormElement): void;
  /** Runs the 3-D Secure steps of a pending payment. */
  authenticate(redirect: unknown, form: HTMLFormElement): void;
  /**
   * A payment of this checkout is being sent, from any of its forms (card, saved card, wallet, STC Pay): every other
   * press is ignored until it is refused (the shopper may try again) or ends on the result page. One at a time.
   */
  sending: boolean;
}
