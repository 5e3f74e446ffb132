/**
 * The gateway's hosted widget is a page-global singleton (one script, the
 * global `wpwlOptions` and `wpwl`); this module lets any number of
 * `<gw-checkout>` elements share it safely and undoes everything on the way out.
 */
import type { WpwlError, WpwlOptions } from '../../browser/widget-contract.js';
import { widgetScriptUrl } from '../../contract/widget-script.js';
import { explained } from '../shared/messages.js';
import { RENDERED_CHECKOUT_GLOBAL, RENDERED_SCRIPT_ATTRIBUTE, type RenderedCheckout } from '../../contract/rendered-checkout.js';

export type { WpwlError, WpwlErrorName, WpwlOptions } from '../../browser/widget-contract.js';

/** The widget's public handle, `window.wpwl`. */
interface Wpwl {
  unload?: () => void;
}

type WidgetGlobals = { wpwlOptions?: WpwlOptions; wpwl?: Wpwl; [RENDERED_CHECKOUT_GLOBAL]?: RenderedCheckout };

/** The page's own value of a global before we touched it, to put back on teardown. */
interface SavedGlobal {
  readonly had: boolean;
  readonly value: unknown;
}

/** What identifies one loaded widget: one checkout from one gateway with one integrity value. */
export interface WidgetSource {
  readonly checkoutId: string;
  /** The gateway's base URL (origin, optionally with a path prefix). */
  readonly baseUrl: string;
  readonly integrity: string | undefined;
  readonly nonce: string | undefined;
}

/** The part of `<gw-checkout>` a session talks to. */
export interface WidgetOwner {
  connected(): boolean;
  /** The wpwlOptions to load with, over the page's own (read at load, and for callbacks at each call). */
  widgetOptions(pageOptions: WpwlOptions | undefined): WpwlOptions;
  /** Puts a fresh `form.paymentWidgets` into the light DOM, replacing any previous one. */
  mountForm(): void;
  /**
   * Takes the form the page's HTML holds (`renderCheckout`) as its own, and the options the server rendered with it
   * as its own base options (every later load keeps them); false when its light DOM has none.
   */
  adoptForm(renderedOptions: WpwlOptions): boolean;
  /** Removes the form and whatever the widget put next to it. */
  unmountForm(): void;
  /** True while a payment this owner's form sent is under way (reloading the widget would cut it off). */
  submitting(): boolean;
  /** True when the DOM node is inside this owner's form area. */
  holds(node: Node): boolean;
  widgetLoading(): void;
  widgetReady(): void;
  widgetFailed(code: 'script-load-failed' | 'widget-error', message: string, cause: unknown): void;
  widgetError(error: WpwlError): void;
  /** The shopper pressed pay; false stops the payment. */
  widgetBeforeSubmit(): boolean;
  widgetBrandChanged(brand: string): void;
}

type Phase = 'settling' | 'loading' | 'loaded' | 'ready';

function globals(): WidgetGlobals {
  return window as unknown as WidgetGlobals;
}

function save(name: keyof WidgetGlobals): SavedGlobal {
  return { had: name in window, value: globals()[name] };
}

function restore(name: keyof WidgetGlobals, saved: SavedGlobal): void {
  if (saved.had) (globals() as Record<string, unknown>)[name] = saved.value;
  else delete globals()[name];
}

/** Calls the widget's own teardown, never letting its failure stop ours. */
function unloadWidget(): void {
  try {
    globals().wpwl?.unload?.();
  } catch (error) {
    globalThis.reportError?.(error);
  }
}

/**
 * A script that was removed before it loaded still runs when it arrives (the
 * HTML spec executes it anyway), so the next session waits for it and undoes
 * what it did before loading its own.
 */
let straggler: Promise<void> | undefined;
const STRAGGLER_WAIT_MS = 10_000;

let active: WidgetSession | undefined;

function lateStraggler(): void {
  const session = active;
  if (session && [...session.owners].some((owner) => owner.submitting())) return;
  unloadWidget();
  session?.restart();
}

class WidgetSession {
  readonly owners = new Set<WidgetOwner>();
  #phase: Phase = 'settling';
  #script: HTMLScriptElement | undefined;
  #scriptsBefore = new Set<HTMLScriptElement>();
  #savedOptions: SavedGlobal | undefined;
  #savedWpwl: SavedGlobal | undefined;
  #generation = 0;

  constructor(
    readonly source: WidgetSource,
    readonly key: string,
  ) {}

  get phase(): Phase {
    return this.#phase;
  }

  /** Loads the widget for the current owners, after any straggler script has settled. */
  start(): void {
    const generation = ++this.#generation;
    this.#phase = 'settling';
    for (const owner of this.owners) owner.widgetLoading();
    const begin = () => {
      if (generation !== this.#generation || active !== this) return;
      this.#inject();
    };
    if (straggler) void straggler.then(begin);
    else begin();
  }

  /**
   * Takes over the widget the page's HTML loaded (`renderCheckout`): its form,
   * its script in whatever state it is, the globals the page's inline script
   * made, and what the widget reported before this code ran, replayed in order.
   */
  adopt(script: HTMLScriptElement, rendered: RenderedCheckout): void {
    const generation = ++this.#generation;
    // The inline script made both globals, so the way out removes them; every gateway script is the widget's.
    this.#savedOptions = { had: false, value: undefined };
    this.#savedWpwl = { had: false, value: undefined };
    this.#scriptsBefore = new Set();
    this.#script = script;
    this.#phase = script.dataset.gwState === 'loaded' ? 'loaded' : 'loading';
    for (const owner of this.owners) owner.widgetLoading();
    this.#watch(script, generation);
    // In place: the widget keeps the object it read and looks each callback up on it when it calls.
    const options: WpwlOptions = Object.assign(globals().wpwlOptions ?? {}, this.#options(generation, rendered.options));
    delete globals()[RENDERED_CHECKOUT_GLOBAL];
    if (script.dataset.gwState === 'failed') this.#scriptFailed(script);
    else for (const [name, args] of rendered.events) (options[name] as (...parameters: unknown[]) => unknown)(...args);
  }

  /** Unloads the widget and puts back everything the page had. */
  stop(): void {
    this.#generation++;
    const script = this.#script;
    const injected = this.#phase === 'loading' || this.#phase === 'loaded' || this.#phase === 'ready';
    this.#phase = 'settling';
    for (const owner of this.owners) owner.unmountForm();
    if (!injected || !script) return;
    const savedOptions = this.#savedOptions!;
    const savedWpwl = this.#savedWpwl!;
    const scriptsBefore = this.#scriptsBefore;
    const origin = new URL(script.src).origin;
    const cleanUp = () => {
      unloadWidget();
      this.#removeWidgetScripts(origin, scriptsBefore);
      restore('wpwl', savedWpwl);
      restore('wpwlOptions', savedOptions);
    };
    this.#script = undefined;
    if (script.dataset.gwState === 'pending') {
      // Not run yet: the browser will still run it, so undo its work once it has.
      script.remove();
      restore('wpwlOptions', savedOptions);
      const previous = straggler ?? Promise.resolve();
      const settled: Promise<void> = previous.then(
        () =>
          new Promise<void>((resolve) => {
            const finish = (clean: boolean) => {
              clearTimeout(timer);
              script.removeEventListener('load', done);
              script.removeEventListener('error', done);
              if (clean) cleanUp();
              // Given up on, it still runs if it arrives, and may take the form and options of whatever widget the
              // page shows by then: unload it, and load that one again (never under a payment being sent).
              else script.addEventListener('load', lateStraggler);
              if (straggler === settled) straggler = undefined;
              resolve();
            };
            const done = () => finish(true);
            // A request that hangs must not block the next checkout for good: give up waiting.
            const timer = setTimeout(() => finish(false), STRAGGLER_WAIT_MS);
            if (script.dataset.gwState !== 'pending') done();
            else {
              script.addEventListener('load', done);
              script.addEventListener('error', done);
            }
          }),
      );
      straggler = settled;
    } else cleanUp();
  }

  /** Reloads the widget so that it sees every owner's form (it scans forms once, when it runs). */
  restart(): void {
    this.stop();
    this.start();
  }

  #inject(): void {
    const generation = this.#generation;
    this.#savedOptions = save('wpwlOptions');
    this.#savedWpwl = save('wpwl');
    this.#scriptsBefore = new Set(document.querySelectorAll('script'));
    for (const owner of this.owners) owner.mountForm();
    // The widget reads its configuration when it runs: set it before the script exists.
    globals().wpwlOptions = this.#options(generation, this.#savedOptions.value as WpwlOptions | undefined);
    const script = document.createElement('script');
    // Integrity, CORS mode and nonce must be in place before `src` starts the fetch.
    if (this.source.integrity) script.integrity = this.source.integrity;
    script.crossOrigin = 'anonymous';
    if (this.source.nonce) script.nonce = this.source.nonce;
    script.async = true;
    script.dataset.gwState = 'pending';
    this.#watch(script, generation);
    script.src = widgetScriptUrl(this.source.baseUrl, this.source.checkoutId).href;
    this.#script = script;
    this.#phase = 'loading';
    document.head.append(script);
  }

  /** Follows the script's load: `data-gw-state` tells a later session whether it still has to run. */
  #watch(script: HTMLScriptElement, generation: number): void {
    script.addEventListener('load', () => {
      script.dataset.gwState = 'loaded';
      if (generation !== this.#generation) return;
      if (this.#phase === 'loading') this.#phase = 'loaded';
    });
    script.addEventListener('error', (event) => {
      script.dataset.gwState = 'failed';
      if (generation === this.#generation) this.#scriptFailed(script, event);
    });
  }

  #scriptFailed(script: HTMLScriptElement, cause?: Event): void {
    this.#fail(
      'script-load-failed',
      explained('script-load-failed', `the widget script from ${new URL(script.src).origin} did not load`),
      cause,
    );
  }

  /**
   * The first owner's options (over the page's own) with our callbacks around
   * theirs: theirs run first and are never lost; ours run even if theirs throw.
   */
  #options(generation: number, pageOptions: WpwlOptions | undefined): WpwlOptions {
    const creator = this.owners.values().next().value;
    const options = creator ? creator.widgetOptions(pageOptions) : {};
    const current = () => generation === this.#generation;
    const owners = () => [...this.owners];
    const call = (name: keyof WpwlOptions, args: unknown[]): unknown => {
      const callback = options[name];
      return typeof callback === 'function' ? callback.apply(globals().wpwlOptions, args) : undefined;
    };
    const relay =
      (name: keyof WpwlOptions, ours: (...args: any[]) => void) =>
      (...args: unknown[]): unknown => {
        try {
          return call(name, args);
        } finally {
          if (current()) ours(...args);
        }
      };
    return {
      ...options,
      onReady: relay('onReady', () => {
        this.#phase = 'ready';
        for (const owner of owners()) owner.widgetReady();
      }),
      onError: relay('onError', (error: WpwlError) => {
        for (const owner of owners()) owner.widgetError(error);
      }),
      onChangeBrand: relay('onChangeBrand', (brand: string) => {
        for (const owner of owners()) owner.widgetBrandChanged(brand);
      }),
      onBeforeSubmitCard: (...args: unknown[]) => {
        // One payment per checkout at a time, whichever element's form sends it (two show the same checkout).
        if (current() && owners().some((owner) => owner.submitting())) return false;
        if (call('onBeforeSubmitCard', args) === false) return false;
        if (!current()) return true;
        // The widget passes the submit event: only the element whose form it is goes to `submitting`. A saved card's
        // payment passes one it never dispatched: the element holding the saved cards sends it.
        const target =
          args.find((arg): arg is Event => arg instanceof Event)?.target ?? document.querySelector('.wpwl-container-registration');
        const submitting = owners().filter((owner) => !(target instanceof Node) || owner.holds(target));
        return (submitting.length ? submitting : owners()).map((owner) => owner.widgetBeforeSubmit()).every(Boolean);
      },
    };
  }

  #fail(code: 'script-load-failed' | 'widget-error', message: string, cause: unknown): void {
    for (const owner of [...this.owners]) owner.widgetFailed(code, message, cause);
  }

  /** The widget's own scripts come from the gateway's origin; the page's scripts are left alone. */
  #removeWidgetScripts(origin: string, scriptsBefore: Set<HTMLScriptElement>): void {
    for (const script of document.querySelectorAll('script[src]')) {
      if (scriptsBefore.has(script as HTMLScriptElement)) continue;
      if (new URL((script as HTMLScriptElement).src, document.baseURI).origin === origin) script.remove();
    }
  }
}

/** Why an owner could not join: the page already shows another checkout, or a payment of this one is under way. */
export interface WidgetConflict {
  readonly checkoutId: string;
  readonly submitting: boolean;
}

/** What makes two widgets the same: their script's URL (checkout and gateway) and integrity. */
const widgetKey = (scriptUrl: string, integrity: string | undefined) => JSON.stringify([scriptUrl, integrity ?? '']);

/** Whether an element showing the loaded checkout is sending its payment: none of them expires meanwhile. */
export const widgetSending = (): boolean => !!active && [...active.owners].some((owner) => owner.submitting());

/**
 * Adds `owner` to the widget for `source`, loading it if needed. Fails with
 * the conflicting checkout when the page already shows a different one.
 */
export function joinWidget(owner: WidgetOwner, source: WidgetSource): WidgetConflict | undefined {
  const key = widgetKey(widgetScriptUrl(source.baseUrl, source.checkoutId).href, source.integrity);
  if (active && active.key !== key) {
    // Owners already removed from the page are about to leave (their sync runs later in this task).
    for (const stale of [...active.owners]) if (!stale.connected()) leaveWidget(stale);
  }
  if (active && active.key !== key) return { checkoutId: active.source.checkoutId, submitting: false };
  // A late joiner reloads a widget that already ran; never while it is sending a payment.
  const reloads = active && (active.phase === 'loaded' || active.phase === 'ready');
  if (active && reloads && [...active.owners].some((other) => other.submitting()))
    return { checkoutId: active.source.checkoutId, submitting: true };
  if (!active) {
    active = new WidgetSession(source, key);
    active.owners.add(owner);
    const rendered = renderedWidget();
    if (rendered && rendered.source === key && owner.adoptForm(rendered.checkout.options)) active.adopt(rendered.script, rendered.checkout);
    else {
      if (rendered) discardRendered(rendered);
      active.start();
    }
    return undefined;
  }
  active.owners.add(owner);
  owner.widgetLoading();
  if (active.phase === 'settling') return undefined; // the form is mounted when the script is injected
  if (active.phase === 'loading')
    owner.mountForm(); // the script has not run yet, so it will see this form
  else active.restart();
  return undefined;
}

/** The widget the page's HTML loaded (`renderCheckout`), not yet adopted: its script, what it recorded, and its `joinWidget` key. */
function renderedWidget(): { script: HTMLScriptElement; checkout: RenderedCheckout; source: string } | undefined {
  const checkout = globals()[RENDERED_CHECKOUT_GLOBAL];
  if (!checkout) return undefined;
  const script = document.querySelector<HTMLScriptElement>(`script[${RENDERED_SCRIPT_ATTRIBUTE}]`);
  if (!script) {
    // The page removed the script (a single-page app changed its view): what it and the inline script set up serves
    // nothing, and a widget it loaded would refuse the next checkout's.
    unloadWidget();
    delete globals().wpwl;
    delete globals()[RENDERED_CHECKOUT_GLOBAL];
    delete globals().wpwlOptions;
    return undefined;
  }
  return { script, checkout, source: widgetKey(script.src, script.integrity || undefined) };
}

/** Unloads the widget the page's HTML loaded when no element takes it: its element expired or failed before joining. */
export function discardRenderedWidget(): void {
  const rendered = renderedWidget();
  if (rendered) discardRendered(rendered);
}

/** Unloads a rendered widget no element takes (the element was given another checkout before it upgraded). */
function discardRendered({ script, checkout }: NonNullable<ReturnType<typeof renderedWidget>>): void {
  const session = new WidgetSession({ checkoutId: '', baseUrl: '', integrity: undefined, nonce: undefined }, '');
  session.adopt(script, checkout);
  session.stop();
}

/** Removes `owner`; the last one out unloads the widget and restores the page's globals. */
export function leaveWidget(owner: WidgetOwner): void {
  const session = active;
  if (!session?.owners.has(owner)) return;
  owner.unmountForm();
  session.owners.delete(owner);
  if (session.owners.size) return;
  active = undefined;
  session.stop();
}
