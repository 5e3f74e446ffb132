/**
 * JSX types for React 19 users of both elements (types only, no runtime code).
 * Add once, e.g. in a `global.d.ts`: `import type {} from 'gw-elements/react';`
 *
 * React 19 sets a prop as a property when the element has it (`checkoutId`,
 * `options`, `redirect` …), otherwise as an attribute, and turns an `on<event>`
 * prop into a listener for `<event>`, so `gw-ready` is `ongw-ready`.
 */
import type { HTMLAttributes, RefAttributes } from 'react';
import type { GwElementTypes, GwTagName, OnEventProps } from './element-types.js';

/** Props of a gw-elements element in JSX: the element's properties and `on<event>` listeners, over React's HTML attributes. */
export type GwJsxProps<Tag extends GwTagName> = HTMLAttributes<GwElementTypes[Tag]['element']> &
  RefAttributes<GwElementTypes[Tag]['element']> &
  GwElementTypes[Tag]['properties'] &
  OnEventProps<Tag>;

/** Props of `<gw-checkout>` in JSX. */
export type GwCheckoutJsxProps = GwJsxProps<'gw-checkout'>;
/** Props of `<gw-3ds-handler>` in JSX. */
export type Gw3dsHandlerJsxProps = GwJsxProps<'gw-3ds-handler'>;

declare module 'react' {
  // React's own typings declare JSX as a namespace; augmenting it takes one.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'gw-checkout': GwCheckoutJsxProps;
      'gw-3ds-handler': Gw3dsHandlerJsxProps;
    }
  }
}
