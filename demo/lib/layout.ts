/**
 * The frame every demo page shares: the shop's header and navigation, the
 * call log beside the content, and small helpers the pages use to show money
 * and outcomes the same way everywhere.
 */
import { html, render, type TemplateResult } from 'lit';
import { mountCallLog } from './call-log.js';

const PAGES = [
  { href: '/', label: 'Shop' },
  { href: '/card-payment.html', label: 'Card payment & 3-D Secure' },
  { href: '/orders.html', label: 'Preauthorisation' },
  { href: '/payouts.html', label: 'Payouts' },
  { href: '/subscriptions.html', label: 'Subscriptions' },
  { href: '/saved-cards.html', label: 'Saved cards' },
  { href: '/wallets.html', label: 'Wallets & MADA' },
  { href: '/pay-ar.html', label: 'Arabic (RTL)' },
  { href: '/notifications.html', label: 'Notifications' },
  { href: '/transactions.html', label: 'Transactions' },
] as const;

/** The page whose link is current; the result pages belong to the shop. */
function currentHref(): string {
  const path = location.pathname;
  if (path === '/' || path === '/index.html' || path === '/pay.html' || path === '/result.html') return '/';
  return PAGES.find((page) => page.href === path)?.href ?? '';
}

/** Fills the header and the call log; returns the element the page renders into. */
export function mountPage(): HTMLElement {
  const header = document.querySelector<HTMLElement>('#site-header');
  const log = document.querySelector<HTMLElement>('#api-log');
  const content = document.querySelector<HTMLElement>('#content');
  if (!header || !log || !content) throw new Error('the page lacks #site-header, #api-log or #content');
  const current = currentHref();
  render(
    html`
      <a class="brand" href="/"><span class="logo" aria-hidden="true">◐</span> Kestrel Coffee <span class="tag">sandbox</span></a>
      <nav aria-label="Demo flows">
        <ul>
          ${PAGES.map((page) => html`<li><a href=${page.href} aria-current=${page.href === current ? 'page' : 'false'}>${page.label}</a></li>`)}
        </ul>
      </nav>
    `,
    header,
  );
  mountCallLog(log);
  return content;
}

export { money } from './money.js';

/** A status notice: role=status for good news, role=alert for failures. */
export function notice(tone: 'ok' | 'bad' | 'wait' | 'info', title: string, body: TemplateResult | string = ''): TemplateResult {
  return html`<div class="notice ${tone}" role=${tone === 'bad' ? 'alert' : 'status'}>
    <p class="notice-title">${title}</p>
    ${body ? html`<div class="notice-body">${body}</div>` : ''}
  </div>`;
}

/** The message of anything thrown, for a notice. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a page says about its last action. */
export interface PageNotice {
  tone: 'ok' | 'bad' | 'wait';
  title: string;
  text: string;
}

/**
 * One action at a time on a page: `busy` while it runs (the page disables its
 * buttons), redrawn before and after, and a failure handed to `failed` as the
 * page's notice.
 */
export function actionRunner(draw: () => void, failed: (notice: PageNotice) => void) {
  const runner = {
    busy: false,
    async run(action: () => Promise<void>): Promise<void> {
      runner.busy = true;
      draw();
      try {
        await action();
      } catch (error) {
        failed({ tone: 'bad', title: 'The request failed', text: messageOf(error) });
      }
      runner.busy = false;
      draw();
    },
  };
  return runner;
}
