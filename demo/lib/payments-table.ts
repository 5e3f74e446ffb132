/** A table of gateway payments, as the order, payout and transactions pages list them. */
import { html, type TemplateResult } from 'lit';
import type { PaymentView } from '../server/views.js';
import { money } from './layout.js';
import { toneOf } from './tone.js';

const TYPES: Record<string, string> = {
  DB: 'debit',
  PA: 'preauthorisation',
  CP: 'capture',
  CD: 'credit (payout)',
  RF: 'refund',
  RV: 'reversal',
};

/** One row per payment; `actions` adds a last column (e.g. a refund button). */
export function paymentsTable(
  payments: readonly PaymentView[],
  caption: string,
  actions?: (payment: PaymentView) => TemplateResult | string,
): TemplateResult {
  return html`<div class="table-wrap">
    <table class="data">
      <caption class="visually-hidden">${caption}</caption>
      <thead>
        <tr>
          <th scope="col">Type</th><th scope="col">Payment id</th><th scope="col" class="num">Amount</th><th scope="col">Result</th>
          ${actions ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}
        </tr>
      </thead>
      <tbody>
        ${payments.map(
          (payment) => html`<tr>
            <td>${TYPES[payment.paymentType] ?? payment.paymentType} <span class="muted">(${payment.paymentType})</span></td>
            <td><code>${payment.id}</code>${payment.referencedId ? html`<br /><span class="muted">refers to <code>${payment.referencedId}</code></span>` : ''}</td>
            <td class="num">${payment.amount ? money(payment.amount, payment.currency || 'EUR') : '—'}</td>
            <td><span class="badge ${toneOf(payment.kind)}" title=${payment.resultDescription}>${payment.resultCode}</span><br /><span class="muted">${payment.kind.replaceAll('_', ' ')}</span></td>
            ${actions ? html`<td>${actions(payment)}</td>` : ''}
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
