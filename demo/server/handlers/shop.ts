/**
 * The shop's routes: orders paid through the widget, card payments with 3-D
 * Secure, preauthorisations, saved cards, payouts and the transactions page.
 * Each handler takes its checked input and answers from the shop (shop.ts).
 */
import type { Request } from 'express';
import { z } from 'zod';
import { TEST_CARDS } from 'gw-elements/sandbox/test-cards';
import { CURRENCY, PRODUCTS, cartSchema } from '../catalogue.js';
import { amount, browserInput, cardInput, challengeWindow, merchantTransactionId, reference, shopperReturnQuery } from '../input.js';
import { input, type MerchantContext } from '../route.js';
import { browserFrom, cardFrom, shopperIp, threeDsReturnUrl } from '../shopper.js';

// Sent as it is: the only card numbers in any answer, the sandbox's public test cards for the pages' tables.
export function config(_input: unknown, { gatewayUrl, advanceGatewayClock }: MerchantContext) {
  return { currency: CURRENCY, gatewayUrl, products: PRODUCTS, testCards: TEST_CARDS, canExpireCheckouts: Boolean(advanceGatewayClock) };
}

const order = input({ params: z.object({ id: reference }) });

export const createOrderInput = input({ body: z.object({ lines: cartSchema }) });
export async function createOrder({ body }: z.infer<typeof createOrderInput>, { shop, gateway }: MerchantContext) {
  return { order: await shop.createOrder(gateway, body.lines) };
}

export const getOrderInput = order;
export function getOrder({ params }: z.infer<typeof order>, { shop }: MerchantContext) {
  return { order: shop.getOrder(params.id) };
}

export const restartCheckoutInput = order;
export async function restartCheckout({ params }: z.infer<typeof order>, { shop, gateway }: MerchantContext) {
  return { order: await shop.restartCheckout(gateway, params.id) };
}

export const orderReturnInput = input({ params: z.object({ id: reference }), query: shopperReturnQuery });
export function orderReturn({ params, query }: z.infer<typeof orderReturnInput>, { shop, gateway }: MerchantContext) {
  return shop.orderReturn(gateway, params.id, query);
}

/** The shop's reconciliation job for one order: every charge found by the order's reference, a second one refunded. */
export const reconcileOrderInput = order;
export async function reconcileOrder({ params }: z.infer<typeof order>, { shop, gateway }: MerchantContext) {
  return { order: await shop.reconcileOrder(gateway, params.id) };
}

export const payByCardInput = input({ body: cardInput.extend({ amount, challengeWindow, browser: browserInput }) });
export function payByCard({ body }: z.infer<typeof payByCardInput>, { shop, gateway }: MerchantContext, request: Request) {
  return shop.payByCard(
    gateway,
    cardFrom(body),
    body.amount,
    browserFrom(request, body.browser, body.challengeWindow),
    threeDsReturnUrl(request),
  );
}

export const cardPaymentReturnInput = input({ query: shopperReturnQuery });
export function cardPaymentReturn({ query }: z.infer<typeof cardPaymentReturnInput>, { shop, gateway }: MerchantContext) {
  return shop.cardPaymentReturn(gateway, query);
}

export function listReservations(_input: unknown, { shop }: MerchantContext) {
  return { reservations: shop.reservations() };
}

export const reserveInput = input({ body: cardInput.extend({ amount }) });
export function reserve({ body }: z.infer<typeof reserveInput>, { shop, gateway }: MerchantContext, request: Request) {
  return shop.reserve(gateway, cardFrom(body), body.amount, shopperIp(request));
}

const reservation = z.object({ id: reference });

export const captureInput = input({ params: reservation, body: z.object({ amount }) });
export function capture({ params, body }: z.infer<typeof captureInput>, { shop, gateway }: MerchantContext) {
  return shop.capture(gateway, params.id, body.amount);
}

export const refundInput = input({ params: reservation, body: z.object({ captureId: reference, amount }) });
export function refund({ params, body }: z.infer<typeof refundInput>, { shop, gateway }: MerchantContext) {
  return shop.refund(gateway, params.id, body.captureId, body.amount);
}

export const reverseInput = input({ params: reservation });
export function reverse({ params }: z.infer<typeof reverseInput>, { shop, gateway }: MerchantContext) {
  return shop.reverse(gateway, params.id);
}

export function listSavedCards(_input: unknown, { shop }: MerchantContext) {
  return { savedCards: shop.savedCards() };
}

export const saveCardInput = input({ body: cardInput });
export function saveCard({ body }: z.infer<typeof saveCardInput>, { shop, gateway }: MerchantContext) {
  return shop.saveCard(gateway, cardFrom(body));
}

export const payoutInput = input({ body: z.object({ registrationId: reference, amount }) });
export function payout({ body }: z.infer<typeof payoutInput>, { shop, gateway }: MerchantContext) {
  return shop.payout(gateway, body.registrationId, body.amount);
}

export function listReferences(_input: unknown, { shop }: MerchantContext) {
  return { references: shop.references() };
}

export const transactionsInput = input({ query: z.object({ merchantTransactionId }) });
export async function transactions({ query }: z.infer<typeof transactionsInput>, { shop, gateway }: MerchantContext) {
  return { merchantTransactionId: query.merchantTransactionId, payments: await shop.transactions(gateway, query.merchantTransactionId) };
}
