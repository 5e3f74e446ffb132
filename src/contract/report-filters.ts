/**
 * The filters of the gateway's transaction search (`GET /v3/query`), once for
 * the server helper (which builds and checks them before sending) and the
 * sandbox (which answers them), so the two can never disagree.
 *
 * What the platform documents (its "Transaction Reports" guide for `/v3/query`,
 * and the request samples of its integrators' SDKs):
 *
 * | parameter | platform | rule here |
 * |-----------|----------|-----------|
 * | `merchantTransactionId` | lists every transaction carrying it; "an order can involve multiple transactions (PA, CP, 3D, …)" and the reference "should be used in all transactions as order identifier" | AN..255 as in the field table (checked with every other field's format); it or a time frame is required |
 * | `date.from`, `date.to` | a time frame, written `2023-01-01 00:00:00` | `YYYY-MM-DD hh:mm:ss`, UTC (the platform's timestamps are `+0000`), a real calendar date; both bounds included, to the second; `date.from` not after `date.to`; both or neither |
 * | `paymentTypes` | "return only the specified payment types", comma-separated (`PA,CP,RV`, `DB,3D`) | each one of `REPORT_PAYMENT_TYPES` |
 * | `paymentMethods` | "return only the specified payment methods" (`CC,DC`) | each two upper-case letters: the platform's list is longer than the kit knows |
 * | `includeLinkedTransactions` | "returns all transactions linked to the original", default `false` | `true` or `false`; linked: the payment a match references and the payments referencing a match, also outside the time frame |
 * | `limit`, `pageNo` | shown in samples, not specified | `limit` is the page size, 1 to `REPORT_PAGE_SIZE_MAX`; `pageNo` counts pages from 1 |
 *
 * The platform documents neither the page size's maximum, nor the longest time
 * frame, nor a rate limit for reports; the sandbox keeps a page at 100
 * (its own bound) and limits neither the frame nor the rate. A time frame
 * search lists oldest first, so a page never shifts while later transactions
 * arrive (search a frame that ended for a stable result).
 */
import { PAYMENT_TYPES } from './formats.js';
import { ANSWER_MAX_BYTES, LINKED_TRANSACTIONS_PER_MATCH, REPORT_TRANSACTION_MAX_BYTES } from './limits.js';
import { validateParameters, type ParameterError } from './rules.js';

/** The payment types a search may name: the kit's, the platform's 3-D Secure records (`3D`) and registrations (`RG`). */
export const REPORT_PAYMENT_TYPES = [...PAYMENT_TYPES, '3D', 'RG'] as const;
export type ReportPaymentType = (typeof REPORT_PAYMENT_TYPES)[number];

/** The largest page a search answers (the sandbox's bound; the platform documents none). */
export const REPORT_PAGE_SIZE_MAX = 100;

/** The platform's time frame format. */
export const REPORT_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const REPORT_DATE_MESSAGE = 'must be a UTC time written YYYY-MM-DD hh:mm:ss';

const PAYMENT_METHOD_PATTERN = /^[A-Z]{2}$/;
/** The last page a search may ask for: a walk over a search ends here whatever the gateway answers. */
export const PAGE_NO_MAX = 1_000_000;

/**
 * The most bytes one page of a search with these parameters can take: an
 * answer's envelope, and its page size (`limit`, else the largest) in
 * transactions of `REPORT_TRANSACTION_MAX_BYTES`, times
 * `LINKED_TRANSACTIONS_PER_MATCH` when linked transactions are included.
 * A page of 100 is 4.2 MB at most, 13.8 MB with its linked transactions.
 */
export function reportPageMaxBytes(params: Readonly<Record<string, string | undefined>>): number {
  const limit = Number(params.limit);
  const size = Number.isInteger(limit) && limit >= 1 && limit <= REPORT_PAGE_SIZE_MAX ? limit : REPORT_PAGE_SIZE_MAX;
  const perMatch = params.includeLinkedTransactions === 'true' ? LINKED_TRANSACTIONS_PER_MATCH : 1;
  return ANSWER_MAX_BYTES + size * perMatch * REPORT_TRANSACTION_MAX_BYTES;
}

/** Filters of a transaction search, as the server helper takes them. */
interface ReportFilters {
  /** Only these payment types (`paymentTypes`). */
  paymentTypes?: readonly ReportPaymentType[];
  /** Only these payment methods (`paymentMethods`, e.g. `CC`, `DC`). */
  paymentMethods?: readonly string[];
  /** Adds the transactions linked to each match: the payment it references and those referencing it (`includeLinkedTransactions`). */
  includeLinkedTransactions?: boolean;
  /** Transactions per page requested (`limit`); `REPORT_PAGE_SIZE_MAX` by default. */
  pageSize?: number;
}

/** A time frame (both bounds included, to the second), optionally within one order; or one order's transactions. */
export type ReportSearch = ReportFilters &
  (
    | { from: Date | string; to: Date | string; merchantTransactionId?: string }
    | { merchantTransactionId: string; from?: undefined; to?: undefined }
  );

/** A time as the platform's time frame writes it: UTC, to the second. */
export function reportDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The time (ms since the epoch) a `date.from`/`date.to` value names, or undefined when it is not one. */
export function parseReportDate(text: string): number | undefined {
  const match = REPORT_DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2023-02-30 over to March: a value that does not read back is no date.
  return reportDate(new Date(ms)) === text ? ms : undefined;
}

/** Whether a transaction made at `createdAtMs` falls in the frame: both bounds included, to the second. */
export function inReportFrame(createdAtMs: number, fromMs: number, toMs: number): boolean {
  const second = Math.floor(createdAtMs / 1000) * 1000;
  return second >= fromMs && second <= toMs;
}

const list = (value: string) => value.split(',');

/** Every problem with a search's query parameters (the fields' own formats included), in the gateway's `parameterErrors` shape; empty when it may be sent. */
export function validateReportQuery(params: Readonly<Record<string, string>>, now: Date = new Date()): ParameterError[] {
  return [...validateParameters('read', params, now), ...validateReportSearch(params)];
}

/** The problems only a search has (which fields it needs, how they combine), beside the fields' own formats. */
export function validateReportSearch(params: Readonly<Record<string, string | undefined>>): ParameterError[] {
  const errors: ParameterError[] = [];
  const { merchantTransactionId, 'date.from': from, 'date.to': to } = params;
  const framed = from !== undefined || to !== undefined;
  if (!merchantTransactionId && !framed)
    errors.push({
      name: 'merchantTransactionId',
      value: merchantTransactionId ?? null,
      message: 'is required, unless date.from and date.to are given',
    });
  const bounds: Record<string, number | undefined> = {};
  if (framed) {
    for (const [name, value] of [
      ['date.from', from],
      ['date.to', to],
    ] as const) {
      if (!value) errors.push({ name, value: '', message: 'is required with a time frame' });
      else if ((bounds[name] = parseReportDate(value)) === undefined) errors.push({ name, value, message: REPORT_DATE_MESSAGE });
    }
    if (bounds['date.from'] !== undefined && bounds['date.to'] !== undefined && bounds['date.from'] > bounds['date.to']) {
      errors.push({ name: 'date.to', value: to!, message: 'must not be before date.from' });
    }
  }
  const { paymentTypes, paymentMethods, includeLinkedTransactions, limit, pageNo } = params;
  if (paymentTypes !== undefined && !list(paymentTypes).every((type) => (REPORT_PAYMENT_TYPES as readonly string[]).includes(type))) {
    errors.push({
      name: 'paymentTypes',
      value: paymentTypes,
      message: `must list, comma-separated, some of ${REPORT_PAYMENT_TYPES.join(', ')}`,
    });
  }
  if (paymentMethods !== undefined && !list(paymentMethods).every((method) => PAYMENT_METHOD_PATTERN.test(method))) {
    errors.push({
      name: 'paymentMethods',
      value: paymentMethods,
      message: 'must list, comma-separated, payment methods of two upper-case letters (CC, DC, …)',
    });
  }
  if (includeLinkedTransactions !== undefined && includeLinkedTransactions !== 'true' && includeLinkedTransactions !== 'false') {
    errors.push({ name: 'includeLinkedTransactions', value: includeLinkedTransactions, message: 'must be true or false' });
  }
  if (limit !== undefined && !(/^\d{1,3}$/.test(limit) && +limit >= 1 && +limit <= REPORT_PAGE_SIZE_MAX)) {
    errors.push({ name: 'limit', value: limit, message: `must be a whole number from 1 to ${REPORT_PAGE_SIZE_MAX}` });
  }
  if (pageNo !== undefined && !(/^\d{1,7}$/.test(pageNo) && +pageNo >= 1 && +pageNo <= PAGE_NO_MAX)) {
    errors.push({ name: 'pageNo', value: pageNo, message: `must be a whole number from 1 to ${PAGE_NO_MAX}` });
  }
  return errors;
}

const dateText = (value: Date | string) =>
  value instanceof Date ? (Number.isNaN(value.getTime()) ? 'Invalid Date' : reportDate(value)) : value;

/**
 * A typed search as the query parameters of its first page (`pageNo` is added
 * per page), with the filters whose JavaScript type is wrong (a caller without
 * TypeScript, data from a request) as parameter errors instead of a TypeError.
 */
export function reportSearchParams(search: ReportSearch): { params: Record<string, string>; errors: ParameterError[] } {
  const params: Record<string, string> = {};
  const errors: ParameterError[] = [];
  const wrong = (name: string, message: string) => errors.push({ name, value: null, message });
  const { merchantTransactionId, from, to, paymentTypes, paymentMethods, includeLinkedTransactions, pageSize } = search as Record<
    keyof ReportSearch,
    unknown
  >;
  if (typeof merchantTransactionId === 'string') params.merchantTransactionId = merchantTransactionId;
  else if (merchantTransactionId !== undefined) wrong('merchantTransactionId', 'must be a string');
  for (const [name, value] of [
    ['date.from', from],
    ['date.to', to],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value === 'string' || value instanceof Date) params[name] = dateText(value);
    else wrong(name, 'must be a Date or a string');
  }
  for (const [name, value] of [
    ['paymentTypes', paymentTypes],
    ['paymentMethods', paymentMethods],
  ] as const) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) params[name] = value.join(',');
    else wrong(name, 'must be a list of strings');
  }
  if (typeof includeLinkedTransactions === 'boolean') params.includeLinkedTransactions = String(includeLinkedTransactions);
  else if (includeLinkedTransactions !== undefined) wrong('includeLinkedTransactions', 'must be true or false');
  if (pageSize === undefined || typeof pageSize === 'number') params.limit = String(pageSize ?? REPORT_PAGE_SIZE_MAX);
  else wrong('pageSize', 'must be a number');
  return { params, errors };
}
