/**
 * The sandbox's transaction search (`GET /v3/query` with `merchantTransactionId`
 * or a time frame): which payments a validated query names, and which page of
 * them it answers. The filters' rules are the contract's (`report-filters.ts`).
 */
import { inReportFrame, parseReportDate, REPORT_PAGE_SIZE_MAX } from '../../contract/report-filters.js';
import type { PaymentRecord, SandboxStore } from './store.js';
import type { FlatParams } from './store.js';

/** The payment method a sandbox payment is reported under: every one is a card payment. */
const PAYMENT_METHOD = 'CC';

/** The payments a query matches before paging, oldest first: by order, by time frame, or both. */
function matches(store: SandboxStore, entityId: string, params: Readonly<FlatParams>): PaymentRecord[] {
  const { merchantTransactionId } = params;
  const fromMs = params['date.from'] === undefined ? undefined : parseReportDate(params['date.from']);
  const toMs = params['date.to'] === undefined ? undefined : parseReportDate(params['date.to']);
  const framed = (payment: PaymentRecord) => fromMs === undefined || toMs === undefined || inReportFrame(payment.createdAt, fromMs, toMs);
  if (merchantTransactionId) return store.paymentsByMerchantTransactionId(entityId, merchantTransactionId).filter(framed);
  const found: PaymentRecord[] = [];
  for (const record of store.payments.oldestFirst()) {
    if (record.entityId !== entityId || !framed(record)) continue;
    // Read through the store, so a 3DS step that ran out of time is reported as timed out.
    const payment = store.payment(record.id);
    if (payment) found.push(payment);
  }
  return found;
}

/** The matches with the payments linked to them: the payment each references and those referencing it, oldest first. */
function withLinked(store: SandboxStore, entityId: string, found: readonly PaymentRecord[]): PaymentRecord[] {
  const ids = new Set(found.map((payment) => payment.id));
  const linked = new Set(found);
  for (const payment of found) {
    const referenced = payment.referencedId === undefined ? undefined : store.payment(payment.referencedId);
    if (referenced) linked.add(referenced);
  }
  for (const record of store.payments.oldestFirst()) {
    if (record.entityId === entityId && record.referencedId !== undefined && ids.has(record.referencedId))
      linked.add(store.payment(record.id) ?? record);
  }
  return [...linked].sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * The page of payments a validated search answers: matches (plus linked ones
 * when asked), then the type and method filters, then page `pageNo` of `limit`.
 * A search by `merchantTransactionId` alone, without `limit`, answers every
 * match, as the report by order always has, up to the largest page
 * (`REPORT_PAGE_SIZE_MAX`, the newest): thousands of transactions filed under
 * one order would make one answer of tens of megabytes per request, more than
 * the server helper reads of a report.
 */
export function searchPayments(store: SandboxStore, entityId: string, params: Readonly<FlatParams>): PaymentRecord[] {
  let found = matches(store, entityId, params);
  if (params.includeLinkedTransactions === 'true') found = withLinked(store, entityId, found);
  const types = params.paymentTypes?.split(',');
  const methods = params.paymentMethods?.split(',');
  found = found.filter((payment) => (!types || types.includes(payment.paymentType)) && (!methods || methods.includes(PAYMENT_METHOD)));
  const whole = params.limit === undefined && params.pageNo === undefined && params['date.from'] === undefined;
  if (whole) return found.slice(-REPORT_PAGE_SIZE_MAX);
  const size = params.limit === undefined ? REPORT_PAGE_SIZE_MAX : Number(params.limit);
  const first = (Number(params.pageNo ?? '1') - 1) * size;
  return found.slice(first, first + size);
}
