/**
 * The one description of both elements that every framework typing module
 * (`gw-elements/react`, `/vue`, `/solid`) reads: each element's class, the
 * properties a page sets (the keys of its Lit `properties`, so adding one there
 * adds it everywhere) and its events (the element's own event map). Types only.
 */
import type { Gw3dsHandler } from './components/gw-3ds-handler/gw-3ds-handler.js';
import type { Gw3dsHandlerEventMap } from './components/gw-3ds-handler/events.js';
import type { GwCheckout } from './components/gw-checkout/gw-checkout.js';
import type { GwCheckoutEventMap } from './components/gw-checkout/events.js';

/** The properties a page may set on an element: those its class declares to Lit, all optional. */
type SettableProperties<Class extends { properties: object; prototype: object }> = Partial<
  Pick<Class['prototype'], keyof Class['properties'] & keyof Class['prototype']>
>;

/** Each element by tag name: its class, settable properties and events. */
export interface GwElementTypes {
  'gw-checkout': { element: GwCheckout; properties: SettableProperties<typeof GwCheckout>; events: GwCheckoutEventMap };
  'gw-3ds-handler': { element: Gw3dsHandler; properties: SettableProperties<typeof Gw3dsHandler>; events: Gw3dsHandlerEventMap };
}

export type GwTagName = keyof GwElementTypes;

/**
 * Listener props named `on` + the event's name (`ongw-ready`): how React 19
 * attaches a listener for a custom element's event.
 */
export type OnEventProps<Tag extends GwTagName> = {
  [Name in keyof GwElementTypes[Tag]['events'] & string as `on${Name}`]?: (event: GwElementTypes[Tag]['events'][Name]) => void;
};

/** `gw-3ds-method-complete` → `Gw3dsMethodComplete`: how Vue names the listener of `@gw-3ds-method-complete`. */
type PascalCase<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${PascalCase<Tail>}`
  : Capitalize<Name>;

/** Listener props as Vue's templates bind them: `@gw-ready` is `onGwReady`. */
export type VueEventProps<Tag extends GwTagName> = {
  [Name in keyof GwElementTypes[Tag]['events'] & string as `on${PascalCase<Name>}`]?: (event: GwElementTypes[Tag]['events'][Name]) => void;
};
