/**
 * JSX types for Solid users of both elements (types only, no runtime code).
 * Add once, e.g. in a `global.d.ts`: `import type {} from 'gw-elements/solid';`
 *
 * Solid sets a prop of a custom element as the property of that name
 * (`checkoutId`, `redirect` …; `prop:checkoutId` says so explicitly) and
 * `on:gw-ready` adds a listener for the element's `gw-ready` event, as is.
 * The listeners are typed per element, not through Solid's global
 * `JSX.CustomEvents`: both elements fire `gw-error`, each with its own codes.
 */
import type { JSX } from 'solid-js';
import type { GwElementTypes, GwTagName } from './element-types.js';

type Element<Tag extends GwTagName> = GwElementTypes[Tag]['element'];
type Events<Tag extends GwTagName> = GwElementTypes[Tag]['events'];

/** `on:<event>` listeners, typed by the element's own event map. */
type SolidEventProps<Tag extends GwTagName> = {
  [Name in keyof Events<Tag> & string as `on:${Name}`]?: JSX.EventHandlerWithOptionsUnion<Element<Tag>, Extract<Events<Tag>[Name], Event>>;
};

/** The element's properties, also as `prop:<name>` (set as a property whatever the name). */
type SolidPropProps<Tag extends GwTagName> = {
  [Name in keyof GwElementTypes[Tag]['properties'] & string as `prop:${Name}`]?: GwElementTypes[Tag]['properties'][Name];
};

/** Props of a gw-elements element in Solid's JSX: its properties, `prop:` and `on:` forms, over Solid's HTML attributes. */
export type GwSolidProps<Tag extends GwTagName> = JSX.HTMLAttributes<Element<Tag>> &
  GwElementTypes[Tag]['properties'] &
  SolidPropProps<Tag> &
  SolidEventProps<Tag>;

declare module 'solid-js' {
  // Solid's typings declare JSX as a namespace; augmenting it takes one.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'gw-checkout': GwSolidProps<'gw-checkout'>;
      'gw-3ds-handler': GwSolidProps<'gw-3ds-handler'>;
    }
  }
}
