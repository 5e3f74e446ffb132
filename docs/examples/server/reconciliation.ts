/**
 * A nightly reconciliation job: every approved transaction of one UTC day,
 * paged through the gateway's transaction search, summed in cents per payment
 * type and currency (`"DB EUR"`): amounts of two currencies never add up.
 */
import { isApproved, toCents, type GatewayClient } from 'gw-elements/server';

export async function dayTotals(gateway: GatewayClient, day: string): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  const search = gateway.reports.search({
    from: `${day} 00:00:00`, // the platform's format, UTC; a Date works too
    to: `${day} 23:59:59`, // both bounds included
    paymentTypes: ['DB', 'CP', 'RF'],
  });
  for await (const payment of search) {
    if (!isApproved(payment.result.code)) continue;
    const key = `${payment.paymentType} ${payment.currency}`;
    totals[key] = (totals[key] ?? 0) + toCents(payment.amount!);
  }
  return totals;
}
