/** The transactions page's routes: the references the shop gave out, and the gateway's report of one. */
import { z } from 'zod';
import { merchantTransactionId } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';
import { input } from '../route-definition.js';
import { paymentView } from '../views.js';

export function listReferences(_input: unknown, { database }: MerchantContext) {
  return { references: database.references };
}

export const transactionsInput = input({ query: z.object({ merchantTransactionId }) });
export async function transactions({ query }: z.infer<typeof transactionsInput>, { gateway }: MerchantContext) {
  const { payments } = await gateway.reports.findByMerchantTransactionId(query.merchantTransactionId);
  return { merchantTransactionId: query.merchantTransactionId, payments: payments.map(paymentView) };
}
