/**
 * A nightly reconciliation job: every approved transaction of one UTC day,
 * paged through the gateway's transaction search, summed per payment type.
 */
import { isApproved, type GatewayClient } from 'gw-elements/server';

export async function dayTotals(gateway: GatewayClient, day: string): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  const search = gateway.reports.search({
    from: `${day} 00:00:00`, // the platform's format, UTC; a Date works too
    to: `${day} 23:59:59`, // both bounds included
    paymentTypes: ['DB', 'CP', 'RF'],
  });
  for await (const payment of search) {
    if (!isApproved(payment.result.code)) continue;
    const cents = Math.round(Number(payment.amount) * 100);
    totals[payment.paymentType!] = (totals[payment.paymentType!] ?? 0) + cents;
  }
  return totals;
}
