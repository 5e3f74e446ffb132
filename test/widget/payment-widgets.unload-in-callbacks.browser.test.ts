/**
 * `wpwl.unload()` called by the page from inside one of the widget's callbacks (an SPA tearing the
 * payment step down at the first `onError`) ends the widget there: nothing is rendered after it,
 * `onReady` is not called, and the next checkout loads into a clean form. Found by a review: an error
 * reported while the forms were rendered left a dead card form behind and still called `onReady`.
 */
import { expect } from '@open-wc/testing';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import {
  closePages,
  createCheckout,
  loadCheckout,
  openWidgetPage,
  pay,
  paymentStatus,
  shopperResult,
  waitFor,
  type PageSpec,
  type WidgetPage,
  type WidgetWindow,
} from './widget-page.js';

/** The merchant page's window: callbacks may run before openWidgetPage resolves. */
const frameWindow = () => [...document.querySelectorAll('iframe')].pop()!.contentWindow as WidgetWindow;

/** Opens `forms` with a page that unloads the widget at its first error, counting onReady calls. */
async function unloadingAtFirstError(forms: PageSpec['forms']): Promise<{ page: WidgetPage; readyCalls: () => number }> {
  let readyCalls = 0;
  const page = await openWidgetPage({
    checkout: await createCheckout(),
    forms,
    options: {
      onError() {
        frameWindow().wpwl?.unload();
      },
      onReady() {
        readyCalls++;
      },
    },
  });
  await page.error;
  await waitFor(() => page.document.readyState === 'complete', 'the page to load');
  // Whatever the rest of the widget's start would do, it has done by now.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { page, readyCalls: () => readyCalls };
}

describe('wpwl.unload() from a callback while the forms are rendered', () => {
  afterEach(closePages);

  for (const [what, forms] of [
    // No card brand the widget supports: the WidgetError is reported before the other form is rendered.
    ['a form with no brand the widget supports', [{ brands: 'PAYPAL' }, { brands: 'VISA MASTER' }]],
    // A wallet the card entity has no contract for: reported while the form is being rendered.
    ['a wallet the entity is not offered', [{ brands: 'VISA MASTER APPLEPAY' }]],
  ] as const)
    it(`${what}: the page's onError unloads, and nothing is left behind nor onReady called`, async () => {
      const { page, readyCalls } = await unloadingAtFirstError(forms.map((form) => ({ ...form })));
      expect(page.window.wpwl, 'unloaded').to.equal(undefined);
      expect(page.document.querySelectorAll('.wpwl-control-cardNumber'), 'card form of an unloaded widget').to.have.length(0);
      expect(page.document.querySelectorAll('[class*="wpwl-"]'), 'no node of the widget').to.have.length(0);
      expect(page.document.adoptedStyleSheets).to.have.length(0);
      for (const form of page.document.querySelectorAll('form'))
        expect(form.hasAttribute('lang'), 'the form as the page had it').to.equal(false);
      expect(readyCalls(), 'onReady of a widget the page unloaded').to.equal(0);
    });

  it('after such an unload, the next checkout loads into a clean page: one card form, and it pays', async () => {
    const { page } = await unloadingAtFirstError([{ brands: 'PAYPAL' }, { brands: 'VISA MASTER' }]);
    page.document.querySelector('script[src*="paymentWidgets.js"]')!.remove();
    const second = await createCheckout('7.00');
    const loaded = loadCheckout(page, second, { onError() {} });
    await loaded.ready;
    expect(page.form(1).querySelectorAll('.wpwl-control-cardNumber')).to.have.length(1);
    expect(page.document.querySelectorAll('.wpwl-form-card')).to.have.length(1);
    pay(page.form(1), { number: CARDS.approved });
    const status = await paymentStatus(await shopperResult(page));
    expect(status.amount).to.equal('7.00');
  });
});
