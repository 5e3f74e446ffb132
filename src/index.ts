/** gw-elements: the browser entry point. Importing it defines both elements; `gw-elements/checkout` and `gw-elements/3ds-handler` define one each. */
export * from './checkout.js';
export * from './3ds-handler.js';
