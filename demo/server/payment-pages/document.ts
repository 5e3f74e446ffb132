/**
 * The frame of a page the shop's server renders, the same as the demo's static
 * pages: the shop's header and the call log (filled by the page's module,
 * demo/lib/layout.ts), the content, and the gateway calls the server made
 * while rendering it, for the call log.
 */
import type { GatewayCall } from '../call-recorder.js';
import { html, scriptJson, type Html } from './html.js';

export interface PageParts {
  readonly title: string;
  readonly main: Html;
  /** What goes first in `<head>` (the widget script's preload). */
  readonly head?: Html;
  /** The page's module, loaded with the page; leave out when the page's inline script loads it (`renderCheckout`'s `elementScript`). */
  readonly module?: string;
  /** The page's language; the header and the call log stay in English. */
  readonly lang?: 'en' | 'ar';
}

/** What the call log shows for the calls the server made while rendering the page: the step's label, and the calls. */
export interface PageCalls {
  readonly label: string;
  readonly calls: readonly GatewayCall[];
}

const SKIP = { en: 'Skip to content', ar: 'تخطَّ إلى المحتوى' };

export function pageDocument({ title, main, head, module, lang = 'en' }: PageParts, calls: PageCalls | undefined, nonce: string): string {
  const english = lang === 'en' ? null : html` lang="en" dir="ltr"`;
  return html`<!doctype html>
<html lang="${lang}"${lang === 'ar' ? html` dir="rtl"` : null}>
  <head>
    <meta charset="utf-8" />
    ${head}
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title} · Kestrel Coffee (gw-elements demo)</title>
    <link rel="icon" href="/favicon.svg" />
    <link rel="stylesheet" href="/styles.css" />
  </head>
  <body>
    <a class="skip" href="#content">${SKIP[lang]}</a>
    <header class="site-header" id="site-header"${english}></header>
    <div class="layout">
      <main id="content" tabindex="-1">${main}</main>
      <aside id="api-log" aria-labelledby="api-log-title"${english}></aside>
    </div>
    ${calls?.calls.length ? html`<script type="application/json" id="page-calls">${scriptJson(calls)}</script>` : null}
    ${module ? html`<script type="module" src="${module}" nonce="${nonce}"></script>` : null}
  </body>
</html>
`.text;
}
