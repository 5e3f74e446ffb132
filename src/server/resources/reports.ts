/** Transaction reports: read-only, so a payment is answered as the gateway gives it, whatever its outcome. */
import { checkField } from '../../contract/formats.js';
import { PAGE_NO_MAX, reportSearchParams, validateReportQuery, type ReportSearch } from '../../contract/report-filters.js';
import { boundAnswer } from '../binding.js';
import { isPaymentAnswer, readParameterErrors, settleRead } from '../interpret.js';
import { GatewayNetworkError } from '../errors.js';
import { paymentsByMerchantTransactionId, queryPayments } from '../reconcile.js';
import { validationError, type RequestOptions, type Transport } from '../request.js';
import type { Payment, PaymentList } from '../types.js';
import { pathId } from './path.js';

export interface Reports {
  /** One transaction by its id, whatever its outcome; `GatewayNotFoundError` when there is none. */
  get(transactionId: string, options?: RequestOptions): Promise<Payment>;
  /**
   * Every transaction with this merchantTransactionId, in the gateway's order; an empty list when there is none.
   * A capture, refund or reversal made by this client is listed here when it was given the payment as held (or the
   * merchantTransactionId); one made from a bare id carries a fresh one: find it by `search` with
   * `includeLinkedTransactions`, which lists the transactions referencing each match.
   */
  findByMerchantTransactionId(merchantTransactionId: string, options?: RequestOptions): Promise<PaymentList>;
  /**
   * Searches the transactions of a time frame (`from`, `to`, both included, to the
   * second; `Date`s are sent as UTC), of one order, or of an order within a frame,
   * filtered by payment types and methods, optionally with the transactions linked
   * to each match. Pages through the results as they are iterated:
   * `for await (const payment of client.reports.search({ from, to }))`.
   * Bad filters throw `GatewayValidationError` here, before anything is sent.
   */
  search(search: ReportSearch, options?: RequestOptions): AsyncIterable<Payment>;
}

/**
 * Transaction ids a search remembers to tell a repeated page: those of its last
 * pages, up to 20,000 ids (200 full pages, about 2 MB), however long the walk.
 * A page that comes back within them is caught before it is yielded, so pages
 * repeating in a cycle of up to 200 full pages yield nothing twice, wherever
 * the cycle starts. A longer cycle is caught by one more remembered page,
 * replaced at pages 1, 2, 4, 8, … (Brent's cycle detection): in constant
 * memory, within the cycle's start and two of its lengths.
 */
const SEARCH_REMEMBERED_IDS = 20_000;

/**
 * The pages of a search, one GET each (retried like every GET). The last page is
 * the first one shorter than the page size, or the first the gateway has no
 * transaction on. A transaction listed again (pages that overlap) is yielded
 * once, within the remembered ids. A page whose transactions were all listed
 * before (a gateway that ignores `pageNo`, replicas answering different pages,
 * a cycle of any length) ends in a `GatewayNetworkError` before it is yielded,
 * never in a loop or a silent stop; so does a search that reaches the
 * contract's last page (`PAGE_NO_MAX`).
 */
async function* pages(transport: Transport, params: Record<string, string>, options: RequestOptions | undefined): AsyncGenerator<Payment> {
  const size = Number(params.limit);
  const what = params.merchantTransactionId ?? `${params['date.from']} to ${params['date.to']}`;
  // A merchantTransactionId is free text (the platform takes any): whatever a caller put in it, its errors hold no token.
  const redact = transport.redactorFor(params);
  // Each remembered id, with the last page that listed it; the pages in the order they came, to forget the oldest first.
  const seen = new Map<string, number>();
  const remembered: { pageNo: number; ids: string[] }[] = [];
  let saved: ReadonlySet<string> = new Set();
  let savedAt = 0;
  for (let pageNo = 1; pageNo <= PAGE_NO_MAX; pageNo++) {
    const { payments } = await queryPayments(transport, { ...params, pageNo: String(pageNo) }, what, options, redact);
    const ids = payments.map((payment) => payment.id);
    if (pageNo > 1 && ids.length && ids.every((id) => seen.has(id) || saved.has(id))) {
      throw new GatewayNetworkError(
        `The gateway answered page ${pageNo} of the search for ${what} with transactions it had listed already: the rest of the results cannot be read`,
        { redact },
      );
    }
    // Pages that overlap (a transaction listed again on the next page, or twice on one): each transaction once, as the
    // first page listing it had it; a sum over the search (refunds, say) never counts one twice.
    const listed = new Set<string>();
    for (const payment of payments) {
      if (seen.has(payment.id) || saved.has(payment.id) || listed.has(payment.id)) continue;
      listed.add(payment.id);
      yield payment;
    }
    if (payments.length < size) return;
    for (const id of ids) seen.set(id, pageNo);
    remembered.push({ pageNo, ids });
    while (seen.size > SEARCH_REMEMBERED_IDS) {
      const oldest = remembered.shift()!;
      for (const id of oldest.ids) if (seen.get(id) === oldest.pageNo) seen.delete(id);
    }
    // Brent: the page kept for comparison is the one at each power of two.
    if (pageNo >= 2 * savedAt) {
      saved = new Set(ids);
      savedAt = pageNo;
    }
  }
  throw new GatewayNetworkError(`The search for ${what} has more than ${PAGE_NO_MAX} pages: narrow its time frame`, { redact });
}

export function reports(transport: Transport): Reports {
  return {
    async get(transactionId, options) {
      const answer = await transport.send<Payment>({
        options,
        method: 'GET',
        path: `/v3/query/${pathId(transport, 'transactionId', transactionId)}`,
      });
      const what = `transaction ${transactionId}'s read`;
      const redact = transport.redactorFor({});
      // A payment (it has an id) is the answer, declined or not, when it is the one asked for; an answer without one is
      // the refusal of the read, or no answer to it at all when it says success.
      return isPaymentAnswer(answer.body)
        ? boundAnswer(answer.body, { id: transactionId }, what, redact)
        : settleRead(answer, what, redact);
    },
    async findByMerchantTransactionId(merchantTransactionId, options) {
      const problem =
        typeof merchantTransactionId === 'string' ? checkField('merchantTransactionId', merchantTransactionId) : 'must be a string';
      if (problem) throw validationError([{ name: 'merchantTransactionId', message: problem }], transport.redactorFor({}));
      return paymentsByMerchantTransactionId(transport, merchantTransactionId, options, transport.redactorFor({ merchantTransactionId }));
    },
    search(search, options) {
      const redact = transport.redactorFor({});
      if (typeof search !== 'object' || search === null)
        throw validationError([{ name: 'search', message: 'must be an object of filters' }], redact);
      const { params, errors: mistyped } = reportSearchParams(search);
      const errors = mistyped.length
        ? mistyped
        : validateReportQuery({ entityId: transport.entityId, ...params }, new Date(transport.now()));
      if (errors.length) throw validationError(readParameterErrors(errors), redact);
      return { [Symbol.asyncIterator]: () => pages(transport, params, options) };
    },
  };
}
