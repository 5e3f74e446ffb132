/**
 * The base of both elements: the read-only `state` reflected as an attribute,
 * `emit()` typed by the element's one event map, and `define()`, which
 * tolerates a second load. Side-effect free, like the element classes.
 * A ReactiveElement (Lit's properties, attributes, update cycle and styles), not
 * a LitElement: each element draws its shadow DOM as it needs, so a page with
 * `<gw-checkout>` alone, which draws with plain DOM, carries no lit-html.
 */
import { ReactiveElement } from '@lit/reactive-element';

/** An event fired by a gw-elements component, with a typed `detail`. */
export type GwEvent<Detail> = CustomEvent<Detail>;

type DetailOf<Event> = Event extends CustomEvent<infer Detail> ? Detail : never;

declare global {
  /**
   * The `detail` of `gw-error` for each element, by tag name (each element's
   * `events.ts` adds its entry): both elements fire `gw-error`, and the global
   * map has one entry per event name, so listeners narrow on `detail.code`.
   */
  // Filled by declaration merging, in each element's events.ts.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GwErrorDetailMap {}
  interface HTMLElementEventMap {
    'gw-error': GwEvent<GwErrorDetailMap[keyof GwErrorDetailMap]>;
  }
}

/**
 * @template Events - The element's events by name (`'gw-ready': GwReadyEvent` …): what `emit()` accepts.
 * @template State - The element's states; every element starts `idle`.
 */
export abstract class GwElement<Events extends object, State extends string> extends ReactiveElement {
  /** The element's tag name, registered by `define()`. */
  declare static readonly tagName: string;

  /**
   * Registers the element under its tag name unless the name is taken (a second
   * load of the package, or a second bundle): the first definition stays. Does
   * nothing where there is no `customElements` (in Node, Lit's own build brings
   * a stand-in registry, in which the element is then defined).
   */
  static define(this: CustomElementConstructor & { readonly tagName: string }): void {
    if (typeof customElements !== 'undefined' && !customElements.get(this.tagName)) customElements.define(this.tagName, this);
  }

  /**
   * `lang` picks the language of the element's own texts (see shared/texts.ts): a change of the
   * element's own attribute renders again; an ancestor's is read at the next render.
   */
  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'lang'];
  }

  #state = 'idle' as State;

  /** Where the element is in its life cycle (the element's description lists the states). Reflected as the `state` attribute, for CSS. */
  get state(): State {
    return this.#state;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#reflectState();
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    // `lang` is the native property, not a Lit one: tell Lit it changed, so `updated()` sees it.
    if (name === 'lang') this.requestUpdate('lang', old ?? '');
  }

  /** Moves to `state`, reflects it, and renders again: each element's template shows its state. */
  protected setState(state: State): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#reflectState();
    this.requestUpdate();
  }

  /**
   * Says on the console what `gw-error` says, naming the element: the shopper
   * only sees that something failed, and a developer who does not listen for
   * `gw-error` would otherwise learn nothing. Messages never hold card data.
   */
  protected reportToConsole(message: string, severity: 'error' | 'warn'): void {
    // A developer's mistake is an error; what a shopper or the gateway caused (an expired checkout, a lost network) a warning.
    console[severity](`<${this.localName}>: ${message}`, this);
  }

  /**
   * Fires `name` from the element, bubbling out of shadow roots (`composed`);
   * returns the event, so the caller of a cancelable one can read `defaultPrevented`.
   * Only events whose `preventDefault()` means something are cancelable.
   */
  protected emit<Name extends keyof Events & `gw-${string}`>(name: Name, detail: DetailOf<Events[Name]>, cancelable = false): Events[Name] {
    const event = new CustomEvent(name, { bubbles: true, composed: true, cancelable, detail });
    this.dispatchEvent(event);
    return event as Events[Name];
  }

  #reflectState(): void {
    if (this.getAttribute('state') !== this.#state) this.setAttribute('state', this.#state);
  }
}
