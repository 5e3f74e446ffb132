/**
 * The notifications the demo merchant received from the gateway: each one
 * decrypted by its server (`decryptNotification`) and what the shop did with
 * it. An approved payment is fulfilled once, whether the notification or the
 * shop's own answer came first; a duplicate says "already fulfilled".
 */
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { money, mountPage, notice } from '../lib/layout.js';
import type { NotificationView } from '../server/notifications.js';

const content = mountPage();

interface NotificationsAnswer {
  readonly configured: boolean;
  readonly notifications: NotificationView[];
}

let answer: NotificationsAnswer = { configured: true, notifications: [] };

async function load(): Promise<void> {
  answer = await api<NotificationsAnswer>('GET', '/notifications', 'Load the notifications received');
  draw();
}

function draw(): void {
  render(
    html`
      <h1>Notifications</h1>
      <p class="lede">The gateway pushes every payment and registration event to the shop's server, encrypted (AES-256-GCM). The server decrypts each one and fulfils an approved payment of a subscription exactly once, however many times and in whatever order it hears of it.</p>
      ${answer.configured ? '' : notice('info', 'Notifications are not configured', "Start the demo with npm start: it gives the sandbox the merchant's address and secret.")}
      <div class="actions"><button type="button" @click=${load}>Refresh</button></div>
      ${
        answer.notifications.length
          ? html`<div class="table-wrap">
            <table class="data">
              <caption class="visually-hidden">Notifications received, newest first</caption>
              <thead>
                <tr><th scope="col">Received</th><th scope="col">Type</th><th scope="col">About</th><th scope="col" class="num">Amount</th><th scope="col">Result</th><th scope="col">Fulfilment</th></tr>
              </thead>
              <tbody>
                ${answer.notifications.map(
                  (notification) => html`<tr>
                    <td>${new Date(notification.receivedAt).toLocaleTimeString('en-IE')}</td>
                    <td>${notification.type}${notification.action ? html` <span class="muted">${notification.action}</span>` : ''}${notification.paymentType ? html` <span class="muted">(${notification.paymentType})</span>` : ''}</td>
                    <td><code>${notification.subjectId}</code></td>
                    <td class="num">${notification.amount ? money(notification.amount) : '—'}</td>
                    <td>${notification.resultCode ? html`<span class="badge">${notification.resultCode}</span>` : '—'}</td>
                    <td>${notification.fulfilment}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
          : html`<p class="muted">None yet. Pay, subscribe or save a card, then refresh.</p>`
      }
    `,
    content,
  );
}

await load();
