/**
 * Test-runner support for 3-D Secure tests, which need what a page cannot do itself:
 *   gw-click-in-frame   clicks a button, by its text, in a cross-origin frame (the sandbox's ACS page)
 *   gw-server-payment   creates a payment, reads it, or handles the shopper's return with the server helper,
 *                       as the merchant's server would
 *   /__gw/result-cross  a shopper result page on another origin (127.0.0.1 instead of localhost)
 *                       that reports back with postThreeDsResult()
 */
import type { TestRunnerPlugin } from '@web/test-runner';
import type { Frame, Page } from 'puppeteer-core';
import type { Sandbox } from '../../src/sandbox/index.js';
import type { GatewayClient } from '../../src/server/index.js';

export interface ClickInFramePayload {
  /** The first frame whose URL starts with this is used. */
  urlPrefix: string;
  /** The button's visible text. */
  text: string;
  /** Only the frame whose element has this `name` (an element's challenge frame), when several are open. */
  frameName?: string;
}

export type ServerPaymentPayload =
  | { action: 'create'; request: Record<string, unknown> }
  | { action: 'get'; id: string }
  | { action: 'return'; query: { id: string; resourcePath: string } };

const FRAME_WAIT_MS = 5_000;

/** The `name` of the element holding `frame`, or undefined for a frame that is gone. */
async function frameNameOf(frame: Frame): Promise<string | undefined> {
  const element = await frame.frameElement().catch(() => null);
  return element ? element.evaluate((node) => (node as HTMLIFrameElement).name).catch(() => undefined) : undefined;
}

/**
 * Clicks the first button with `text` in a frame at `urlPrefix` (and named `frameName`, when given),
 * waiting for it to load. Frames the page just removed can linger in puppeteer's list: they are skipped.
 */
async function clickInFrame(page: Page, { urlPrefix, text, frameName }: ClickInFramePayload): Promise<void> {
  const deadline = Date.now() + FRAME_WAIT_MS;
  for (;;) {
    for (const frame of page.frames()) {
      if (frame.detached || !frame.url().startsWith(urlPrefix)) continue;
      if (frameName !== undefined && (await frameNameOf(frame)) !== frameName) continue;
      const button = await frame.$(`::-p-text(${text})`).catch(() => null);
      if (!button) continue;
      // The element's own click(): mouse input would need this page to be the focused tab, which it
      // is not while test files run side by side.
      try {
        await button.evaluate((element) => (element as HTMLElement).click());
      } catch (error) {
        // The click submits the ACS form; the frame may be gone (navigated to another origin) before puppeteer's call returns.
        if (!(error instanceof Error && error.name === 'TargetCloseError')) throw error;
      }
      return;
    }
    if (Date.now() > deadline)
      throw new Error(
        `no "${text}" button in a frame at ${urlPrefix}; frames: ${page
          .frames()
          .map((frame) => frame.url())
          .join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function threeDsSupport(current: () => Sandbox | undefined): TestRunnerPlugin {
  let client: GatewayClient | undefined;
  // Loaded on first use, so the other commands do not depend on the server helper.
  const serverClient = async () => {
    const sandbox = current();
    if (!sandbox) throw new Error('the sandbox is not running');
    const { createGatewayClient } = await import('../../src/server/index.js');
    client ??= createGatewayClient({ baseUrl: sandbox.url, accessToken: sandbox.tokens[0]!, entityId: sandbox.entities[0]! });
    return client;
  };
  return {
    name: 'gw-three-ds',
    serve(context) {
      if (context.path !== '/__gw/result-cross') return undefined;
      return {
        type: 'html',
        body: `<!doctype html><html lang="en"><title>Shopper result (other origin)</title><p>Back at the shop.</p>
<script type="module">
import { postThreeDsResult, THREE_DS_RESULT_MESSAGE } from '/src/components/gw-3ds-handler/post-result.ts';
const query = new URLSearchParams(location.search);
// forgeUrl: a well-formed result that claims to come from a URL on another origin than this page's.
if (query.has('forgeUrl')) parent.postMessage({ type: THREE_DS_RESULT_MESSAGE, id: query.get('id'), resourcePath: query.get('resourcePath'), url: 'https://elsewhere.example/return' }, query.get('checkoutOrigin'));
else postThreeDsResult(query.get('checkoutOrigin'));
</script></html>`,
      };
    },
    async executeCommand({ command, payload, session }) {
      if (!command.startsWith('gw-')) return undefined;
      const page = (session.browser as unknown as { getPage(id: string): Page }).getPage(session.id);
      if (command === 'gw-click-in-frame') {
        await clickInFrame(page, payload as ClickInFramePayload);
        return true;
      }
      if (command === 'gw-server-payment') {
        const request = payload as ServerPaymentPayload;
        const client = await serverClient();
        if (request.action === 'create') return await client.payments.create(request.request as never);
        if (request.action === 'return') return await client.handleShopperReturn(request.query);
        return await client.payments.get(request.id);
      }
      return undefined;
    },
  };
}
