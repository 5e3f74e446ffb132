/**
 * The one way our elements fire events: `gw-` names, bubbling out of shadow
 * roots (`composed`), typed detail. Only events whose `preventDefault()` has a
 * meaning are cancelable.
 */

/** An event fired by a gw-elements component, with a typed `detail`. */
export type GwEvent<Detail> = CustomEvent<Detail>;

/**
 * Dispatches `name` from `target` and returns the event, so a caller of a
 * cancelable event can read `defaultPrevented`.
 */
export function emit<Detail>(target: EventTarget, name: `gw-${string}`, detail: Detail, options: { cancelable?: boolean } = {}): GwEvent<Detail> {
  const event = new CustomEvent<Detail>(name, { bubbles: true, composed: true, cancelable: options.cancelable ?? false, detail });
  target.dispatchEvent(event);
  return event;
}

/** Defines a custom element once, tolerating a second load of the module that asks. */
export function defineOnce(name: string, constructor: CustomElementConstructor): void {
  if (typeof customElements !== 'undefined' && !customElements.get(name)) customElements.define(name, constructor);
}
