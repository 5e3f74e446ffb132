/**
 * Serves a page the merchant renders (`PAGES` in route-table.ts): a fresh
 * nonce for its Content-Security-Policy, its input checked, the gateway calls
 * it makes recorded for the page's call log, and a page that says what went
 * wrong (with the JSON answers' status and message) when it cannot be rendered.
 */
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import type { Request, RequestHandler } from 'express';
import type { CallRecorder, GatewayCall } from '../call-recorder.js';
import { failureAnswer, GatewayFailure } from '../failure-answer.js';
import { BadRequest, parseInput } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import type { PageRoute, RenderedPage } from '../route-definition.js';
import type { Scrubber } from '../scrub.js';
import { pageDocument } from './document.js';
import { html } from './html.js';

/** The page said instead when a page cannot be rendered: the same message as the JSON answer would carry. */
function failurePage(message: string): RenderedPage {
  return {
    title: 'Payment',
    main: html`<h1>Payment</h1>
      <div class="notice bad" role="alert">
        <p class="notice-title">This page cannot be shown</p>
        <div class="notice-body"><p>${message}</p><p><a href="/">Back to the shop</a></p></div>
      </div>`,
    module: '/pages/frame.ts',
  };
}

export function servePage(
  page: PageRoute,
  {
    context,
    recorder,
    scrubberOf,
    policy,
  }: {
    context: MerchantContext;
    recorder: CallRecorder;
    /** The scrub of the merchant's answers, for the calls shown and the console. */
    scrubberOf: (request: Request) => Scrubber;
    /** The page's Content-Security-Policy for its nonce. */
    policy: (nonce: string) => string;
  },
): RequestHandler {
  return async (request, response) => {
    const nonce = randomBytes(16).toString('base64');
    const calls: GatewayCall[] = [];
    let status = 200;
    let rendered: RenderedPage;
    try {
      const checked = parseInput(page.schema, { params: request.params, query: request.query, body: {} });
      rendered = await recorder.record(calls, async () => page.render(checked, context, { nonce }));
    } catch (error) {
      const answer = failureAnswer(error instanceof BadRequest ? error : new GatewayFailure(error, calls));
      if (answer.unexpected !== undefined) console.error(`demo merchant: ${scrubberOf(request)(inspect(answer.unexpected))}`);
      status = answer.status;
      rendered = failurePage((answer.body as { error: string }).error);
    }
    if (rendered.link) response.set('link', rendered.link);
    response
      .status(status)
      .set('content-security-policy', policy(nonce))
      .type('html')
      .send(pageDocument(rendered, { label: rendered.callsLabel ?? 'Render the page', calls: scrubberOf(request).deep(calls) }, nonce));
  };
}
