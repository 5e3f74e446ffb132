/** 9. Transaction reports: read-only, so a payment is answered as the gateway gives it, whatever its outcome. */
import { checkField } from '../../contract/formats.js';
import { reportSearchParams, validateReportQuery, type ReportSearch } from '../../contract/report-filters.js';
import { isPaymentAnswer, readParameterErrors, settle } from '../answers.js';
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
 * The pages of a search, one GET each (retried like every GET). The last page is
 * the first one shorter than the page size, or the first the gateway has no
 * transaction on. A page that repeats the one before (a gateway that ignores
 * `pageNo`) ends in a `GatewayNetworkError`, never in a loop or a silent stop.
 */
async function* pages(transport: Transport, params: Record<string, string>, options: RequestOptions | undefined): AsyncGenerator<Payment> {
  const size = Number(params.limit);
  const what = params.merchantTransactionId ?? `${params['date.from']} to ${params['date.to']}`;
  let previous: ReadonlySet<string> = new Set();
  for (let pageNo = 1; ; pageNo++) {
    const { payments } = await queryPayments(transport, { ...params, pageNo: String(pageNo) }, what, options);
    if (pageNo > 1 && payments.length && payments.every((payment) => previous.has(payment.id))) {
      throw new GatewayNetworkError(
        `The gateway answered page ${pageNo} of the search for ${what} with page ${pageNo - 1}'s transactions: the rest of the results cannot be read`,
        {},
      );
    }
    yield* payments;
    if (payments.length < size) return;
    // Only the last page is kept, so memory stays one page however long the search.
    previous = new Set(payments.map((payment) => payment.id));
  }
}

export function reports(transport: Transport): Reports {
  return {
    async get(transactionId, options) {
      const answer = await transport.send<Payment>({
        options,
        method: 'GET',
        path: `/v3/query/${pathId(transport, 'transactionId', transactionId)}`,
      });
      // A payment (it has an id) is the answer, declined or not; an answer without one is the refusal of the read.
      return isPaymentAnswer(answer.body) ? answer.body : settle(answer);
    },
    async findByMerchantTransactionId(merchantTransactionId, options) {
      const problem =
        typeof merchantTransactionId === 'string' ? checkField('merchantTransactionId', merchantTransactionId) : 'must be a string';
      if (problem) throw validationError([{ name: 'merchantTransactionId', message: problem }], transport.redactorFor({}));
      return paymentsByMerchantTransactionId(transport, merchantTransactionId, options);
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
