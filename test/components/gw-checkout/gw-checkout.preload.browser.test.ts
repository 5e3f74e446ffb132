/**
 * The fast path of issue 21: the server's `widgetPreload` tag starts the widget
 * download with the page, and `<gw-checkout>` reuses it. Counted in Chromium's
 * resource timing: one fetch of the widget script when the preload matches, and
 * (the control, which shows the count can see a second fetch) two when the
 * preload's CORS mode differs from the element's.
 */
import { expect, oneEvent } from '@open-wc/testing';
import '../../../src/components/gw-checkout/define.js';
import { widgetPreload } from '../../../src/server/widget-preload.js';
import { createCheckout, mount, settingsFor, until } from './support.js';

const fetchesOf = (url: string) => performance.getEntriesByType('resource').filter((entry) => entry.name === url).length;

/** Puts `html` into `<head>` and waits until its preload has arrived. */
async function preload(html: string, url: string): Promise<HTMLLinkElement> {
  document.head.insertAdjacentHTML('beforeend', html);
  const link = document.head.lastElementChild as HTMLLinkElement;
  await until(() => fetchesOf(url) === 1 && performance.getEntriesByName(url)[0]!.duration > 0, 'the preload did not arrive');
  return link;
}

describe("<gw-checkout> with the server's widget preload", () => {
  const links: HTMLLinkElement[] = [];
  afterEach(() => {
    for (const element of document.querySelectorAll('gw-checkout')) element.remove();
    for (const link of links.splice(0)) link.remove();
  });

  it('reuses the preloaded widget script: one fetch, and the widget gets ready', async () => {
    const checkout = await createCheckout();
    const hint = widgetPreload(checkout, { baseUrl: checkout.baseUrl });
    performance.clearResourceTimings();
    links.push(await preload(hint.html, hint.url));
    const element = mount(settingsFor(checkout));
    await oneEvent(element, 'gw-ready');
    expect(fetchesOf(hint.url)).to.equal(1);
  });

  it("(control) fetches the script again when the preload does not match the element's request", async () => {
    const checkout = await createCheckout();
    const hint = widgetPreload(checkout, { baseUrl: checkout.baseUrl });
    performance.clearResourceTimings();
    // No crossorigin: a no-cors preload, which a CORS script request cannot reuse.
    links.push(await preload(hint.html.replace(' crossorigin="anonymous"', ''), hint.url));
    const element = mount(settingsFor(checkout));
    await oneEvent(element, 'gw-ready');
    expect(fetchesOf(hint.url)).to.equal(2);
  });
});
