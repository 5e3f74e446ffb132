/** Transaction reports: every payment the gateway holds for a merchantTransactionId (9. Transaction reports). */
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { messageOf, mountPage, notice } from '../lib/layout.js';
import { paymentsTable } from '../lib/payments-table.js';
import type { PaymentView, ReferenceView } from '../server/views.js';

const content = mountPage();
const { references } = await api<{ references: ReferenceView[] }>('GET', '/references', "Load the shop's references");

let query = new URLSearchParams(location.search).get('merchantTransactionId') ?? references[0]?.merchantTransactionId ?? '';
let found: { merchantTransactionId: string; payments: PaymentView[] } | undefined;
let failure = '';

async function search(merchantTransactionId: string): Promise<void> {
  query = merchantTransactionId;
  failure = '';
  history.replaceState(null, '', `?${new URLSearchParams({ merchantTransactionId })}`);
  try {
    found = await api<{ merchantTransactionId: string; payments: PaymentView[] }>(
      'GET',
      `/transactions?${new URLSearchParams({ merchantTransactionId })}`,
      `Report: ${merchantTransactionId}`,
    );
  } catch (error) {
    found = undefined;
    failure = messageOf(error);
  }
  draw();
}

function draw(): void {
  render(
    html`
      <h1>Transactions</h1>
      <p class="lede">The gateway's report of every payment carrying one merchantTransactionId: failed attempts and the approval, and the captures, refunds and reversals of a preauthorisation, which the client files under the preauthorisation's own reference. The shop's refund of a second charge for a paid order has a reference of its own (listed below), by which it looks that refund up before ever sending it.</p>
      <form class="panel stack" role="search" @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        return search(query.trim());
      }}>
        <div class="field">
          <label for="reference">merchantTransactionId</label>
          <input id="reference" list="references" .value=${query} required @input=${(event: Event) => (query = (event.target as HTMLInputElement).value)} />
          <datalist id="references">${references.map((reference) => html`<option value=${reference.merchantTransactionId}>${reference.label}</option>`)}</datalist>
        </div>
        <div class="actions"><button type="submit">Look up</button></div>
      </form>
      ${failure ? notice('bad', 'The report could not be read', failure) : ''}
      ${
        found
          ? html`<section class="panel" aria-live="polite">
            <h2>${found.payments.length} transaction${found.payments.length === 1 ? '' : 's'} for <code>${found.merchantTransactionId}</code></h2>
            ${found.payments.length ? paymentsTable(found.payments, `Transactions of ${found.merchantTransactionId}`) : html`<p class="muted">The gateway has no transaction with this merchantTransactionId.</p>`}
          </section>`
          : ''
      }
      ${
        references.length
          ? html`<section class="panel"><h2>This session's references</h2>
            <ul>${references.map((reference) => html`<li><button type="button" class="link" @click=${() => search(reference.merchantTransactionId)}>${reference.merchantTransactionId}</button> <span class="muted">${reference.label}</span></li>`)}</ul>
          </section>`
          : html`<p class="muted">Make a payment in the other pages; its references appear here.</p>`
      }
    `,
    content,
  );
}

draw();
if (query) await search(query);
