/**
 * Template types for Vue 3 users of both elements (types only, no runtime
 * code), checked by vue-tsc / Volar. Add once, e.g. in `env.d.ts`:
 * `import type {} from 'gw-elements/vue';` and tell Vue's compiler the tags
 * are custom elements (`compilerOptions.isCustomElement: (tag) => tag.startsWith('gw-')`).
 *
 * Vue sets a binding as a property when the element has it (`:checkout-id`,
 * `:redirect` …), and `@gw-ready` listens for the element's `gw-ready` event.
 */
import type { FunctionalComponent } from 'vue';
import type { GwElementTypes, GwTagName, VueEventProps } from './element-types.js';

/** Props of a gw-elements element in a Vue template: its properties and `@event` listeners. */
export type GwVueProps<Tag extends GwTagName> = GwElementTypes[Tag]['properties'] & VueEventProps<Tag>;

declare module 'vue' {
  interface GlobalComponents {
    'gw-checkout': FunctionalComponent<GwVueProps<'gw-checkout'>>;
    'gw-3ds-handler': FunctionalComponent<GwVueProps<'gw-3ds-handler'>>;
  }
}
