/**
 * JSX types for React 19 users of the elements (types only, no runtime code).
 * Add once, e.g. in a `global.d.ts`: `import type {} from 'gw-elements/react';`
 *
 * React 19 sets a prop as a property when the element has it (`checkoutId`,
 * `options`, `expiresAt` …), otherwise as an attribute, and turns an `on<event>`
 * prop into a listener for `<event>`, so `gw-ready` is `ongw-ready`.
 */
import type { HTMLAttributes, RefAttributes } from 'react';
import type { GwCheckout } from './components/gw-checkout/gw-checkout.js';
import type { GwBeforeSubmitEvent, GwBrandChangeEvent, GwErrorEvent, GwExpiredEvent, GwReadyEvent } from './components/gw-checkout/events.js';
import type { WpwlOptions } from './components/gw-checkout/widget-session.js';

/** Props of `<gw-checkout>` in JSX. */
export interface GwCheckoutJsxProps extends HTMLAttributes<GwCheckout>, RefAttributes<GwCheckout> {
  checkoutId?: string | undefined;
  integrity?: string | undefined;
  baseUrl?: string | undefined;
  shopperResultUrl?: string | undefined;
  brands?: string;
  locale?: string | undefined;
  widgetStyle?: 'card' | 'plain' | undefined;
  expiresAt?: Date | undefined;
  options?: WpwlOptions | undefined;
  'ongw-ready'?: (event: GwReadyEvent) => void;
  'ongw-before-submit'?: (event: GwBeforeSubmitEvent) => void;
  'ongw-brand-change'?: (event: GwBrandChangeEvent) => void;
  'ongw-error'?: (event: GwErrorEvent) => void;
  'ongw-expired'?: (event: GwExpiredEvent) => void;
}

declare module 'react' {
  // React's own typings declare JSX as a namespace; augmenting it takes one.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'gw-checkout': GwCheckoutJsxProps;
    }
  }
}
