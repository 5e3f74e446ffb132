/**
 * An order is paid once. Every checkout of an order shares its
 * merchantTransactionId, so the report by it lists every charge, whichever
 * checkout took it (a late 3-D Secure challenge on a checkout "start again"
 * left behind, say): the first approved charge any instance learned of pays
 * the order, decided once on the shared status store, and every other one is
 * refunded (reversed when a preauthorisation), exactly once across instances.
 */
import {
  GatewayError,
  GatewayVerificationError,
  isApproved,
  outcomeOf,
  toOutcome,
  verifyPayment,
  type GatewayClient,
  type Payment,
  type StatusStore,
} from 'gw-elements/server';
import { CURRENCY } from './catalogue.js';
import { listReference, type DemoDatabase, type OrderRecord } from './database.js';
import { MONEY_CLAIM_MS } from './money-claims.js';
import { paymentView, type PaymentView } from './views.js';

/** The kinds of payment that charge an order (widget checkouts make DB; a PA is reversed, not refunded). */
export const CHARGE_TYPES: ReadonlySet<string> = new Set(['DB', 'PA']);

/** What became of a second charge, as the status store keeps it for every instance. */
interface Undo {
  readonly refund?: PaymentView;
  readonly refused?: string;
}

export class OrderCharges {
  constructor(
    private readonly statusStore: StatusStore,
    private readonly database: DemoDatabase,
  ) {}

  /**
   * Decides which approved charge pays the order and refunds the others.
   * `known` stands in for the report when it cannot be read (the charge a
   * status read just showed). `refundsOpen`: a refund could not be asked for,
   * and waits for the next report of its charge.
   */
  async reconcile(gateway: GatewayClient, order: OrderRecord, known?: readonly Payment[]): Promise<{ refundsOpen: boolean }> {
    const payments = known ?? (await gateway.reports.findByMerchantTransactionId(order.id)).payments;
    const charges = payments.filter((payment) => CHARGE_TYPES.has(payment.paymentType));
    if (!known) order.attempts = charges.map(paymentView);
    const approved = charges.filter((payment) => isApproved(payment.result.code) && isTheOrders(payment, order));
    const first = approved.find((payment) => payment.id === order.paidBy) ?? approved[0];
    if (!first) return { refundsOpen: false };
    // The store's settle keeps the first final value and answers it: one atomic "first report wins" for every instance.
    const paidBy = await this.statusStore.settle(`order-paid:${order.id}`, globalThis.crypto.randomUUID(), {
      value: first.id,
      final: true,
    });
    order.paidBy = paidBy ?? first.id;
    order.status = 'paid';
    let refundsOpen = false;
    for (const charge of approved) {
      if (charge.id === order.paidBy) continue;
      // A refund the gateway could not be asked for stays open for the next report of the charge; the others go on.
      refundsOpen =
        !(await this.#undo(gateway, order, charge).catch((error: unknown) => {
          if (error instanceof GatewayError) return false;
          throw error;
        })) || refundsOpen;
    }
    return { refundsOpen };
  }

  /**
   * Refunds a second charge in full (reverses it when a preauthorisation),
   * once across instances: claimed on the status store, and its own reference
   * looked up before sending, so a refund whose answer was lost is found
   * again instead of sent twice. Not knowing (the answer and the look-ups
   * lost) leaves it open for the next report of the charge.
   */
  async #undo(gateway: GatewayClient, order: OrderRecord, charge: Payment): Promise<boolean> {
    const key = `order-refund:${charge.id}`;
    const token = globalThis.crypto.randomUUID();
    const now = Date.now();
    const claim = await this.statusStore.claim(key, { token, now, until: now + MONEY_CLAIM_MS });
    if (claim.status === 'final') {
      noteUndo(order, JSON.parse(claim.value) as Undo);
      return true;
    }
    if (claim.status !== 'claimed') return true; // another request refunds it right now
    let undo: Undo | undefined;
    try {
      const merchantTransactionId = `${order.id}-refund-${charge.id}`;
      listReference(this.database, merchantTransactionId, 'Refund of a second charge for a paid order');
      const { payments } = await gateway.reports.findByMerchantTransactionId(merchantTransactionId);
      const earlier = payments.find((payment) => payment.paymentType === 'RF' || payment.paymentType === 'RV');
      const outcome = earlier
        ? outcomeOf(earlier)
        : await toOutcome(
            charge.paymentType === 'PA'
              ? gateway.payments.reverse(charge.id, { merchantTransactionId })
              : gateway.payments.refund(charge.id, {
                  amount: charge.amount ?? order.amount,
                  currency: charge.currency ?? CURRENCY,
                  merchantTransactionId,
                }),
          );
      // The platform does not always echo referencedId on a refund: the shop knows which charge it undid.
      if (outcome.kind === 'approved') undo = { refund: { ...paymentView(outcome.payment), referencedId: charge.id } };
      // Refused (it cannot be refunded, e.g. a chargeback came first): final too, so it is not sent again; a person looks at it.
      else if (outcome.kind === 'declined' || outcome.kind === 'invalid' || outcome.kind === 'not_found')
        undo = { refused: outcome.resultCode ?? outcome.kind };
    } finally {
      // Decided: final for every instance. Not known (answer and look-ups lost): the claim ends, and the next report of the charge looks again.
      await this.statusStore.settle(key, token, undo ? { value: JSON.stringify(undo), final: true } : {});
    }
    if (undo) noteUndo(order, undo);
    return undo !== undefined;
  }
}

/** A charge of the order's amount and currency (a charge that does not match is not the order's to keep or refund). */
function isTheOrders(payment: Payment, order: OrderRecord): boolean {
  try {
    verifyPayment(payment, { merchantTransactionId: order.id, amount: order.amount, currency: CURRENCY });
    return true;
  } catch (error) {
    if (error instanceof GatewayVerificationError) return false;
    throw error;
  }
}

function noteUndo(order: OrderRecord, { refund, refused }: Undo): void {
  if (refused) console.error(`demo merchant: a second charge of order ${order.id} could not be refunded (${refused}); it needs a person`);
  if (refund && !order.refunds.some((known) => known.id === refund.id)) order.refunds.push(refund);
}
