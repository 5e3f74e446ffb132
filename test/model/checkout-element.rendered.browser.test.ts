/**
 * `<gw-checkout>` on a page the merchant's server rendered (`renderCheckout`), against the model in
 * `checkout-element-model.ts`: the rendered element shows the first checkout from the start (slot 0), the
 * element's code arriving with the page's own script or after the widget is shown; then the same commands as
 * in a single-page app, in that page.
 */
import { renderedPage, runModel } from './checkout-element-model.js';

describe('<gw-checkout> model, rendered by the server', () => {
  for (const codeArrives of ['with the page', 'after the widget'] as const)
    it(`a page the server rendered, the element's code arriving ${codeArrives}: the same, from the adopted widget on`, async function () {
      this.timeout(300_000);
      await runModel((checkout) => renderedPage(checkout, codeArrives), 15);
    });
});
