/**
 * Shared set-up of the server helper's tests: a real sandbox on loopback, a
 * client pointed at it, a fetch that counts (and can fail) calls on their way
 * to the real sandbox, and valid requests of each kind to vary from.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import {
  createGatewayClient,
  type CardPaymentRequest,
  type CardPayout,
  type CreditSender,
  type GatewayClientOptions,
  type Recipient,
} from '../../src/server/index.js';

export { CARDS };

export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** A fetch that records each call and passes it to the real one; `failNext(n)` makes the next n calls fail as a dropped connection would. */
export function recordingFetch() {
  const calls: SentRequest[] = [];
  let failures = 0;
  const wrapped: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push({ method: init?.method ?? 'GET', url, headers: new Headers(init?.headers), body: init?.body ? String(init.body) : '' });
    if (failures > 0) {
      failures--;
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    }
    return fetch(input, init);
  };
  return {
    fetch: wrapped,
    calls,
    failNext(count: number) {
      failures = count;
    },
    posts: () => calls.filter((call) => call.method === 'POST'),
  };
}

/** Starts one sandbox for the file's tests and closes it afterwards. */
export function useSandbox(): { readonly sandbox: Sandbox } {
  const holder = {} as { sandbox: Sandbox };
  before(async () => {
    holder.sandbox = await startSandbox({ port: 0, quiet: true });
  });
  after(() => holder.sandbox.close());
  return holder;
}

/** A client for the sandbox with test-friendly timing; the recorder sees every call. */
export function clientFor(sandbox: Sandbox, options: Partial<GatewayClientOptions> = {}) {
  const recorder = recordingFetch();
  const client = createGatewayClient({
    baseUrl: sandbox.url,
    accessToken: sandbox.tokens[0]!,
    entityId: sandbox.entities[0]!,
    fetch: recorder.fetch,
    timeoutMs: 5000,
    reconcileDelaysMs: [0, 25],
    ...options,
  });
  return { client, recorder };
}

/** Calls a sandbox control endpoint (`/__sandbox/clock`, `/__sandbox/faults`, …). */
export async function control(sandbox: Sandbox, path: string, params: Record<string, string> = {}): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.tokens[0]}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  if (!response.ok) throw new Error(`sandbox control ${path} answered ${response.status}: ${await response.text()}`);
}

let sequence = 0;
/** A fresh merchantTransactionId per call. */
export const orderId = (prefix = 'order') => `${prefix}-${process.pid}-${Date.now()}-${++sequence}`;

export const card = (number: string = CARDS.approved) => ({
  number,
  holder: 'Jane Jones',
  expiryMonth: '05',
  expiryYear: '2034',
  cvv: '123',
});

export function cardPayment(overrides: Partial<CardPaymentRequest> = {}): CardPaymentRequest {
  return {
    amount: '92.00',
    currency: 'EUR',
    paymentType: 'DB',
    paymentBrand: 'VISA',
    card: card(),
    customer: { email: 'jane.jones@example.com', ip: '192.0.2.10' },
    ...overrides,
  } as CardPaymentRequest;
}

export const billing = { street1: 'Hauptstraße 1', city: 'Wien', country: 'AT', postcode: '1010' };

export const recipient: Recipient = {
  givenName: 'Ana',
  surname: "O'Neil-López",
  accountNumberType: 'IBAN',
  accountNumber: 'DE89370400440532013000',
  country: 'DEU',
};

export const creditSender: CreditSender = {
  CreditSenderName: 'Max Mustermann',
  CreditSenderAddress: 'Main St 1|Berlin|DEU|10115',
  CreditSenderCity: 'Berlin',
  CreditSenderState: 'BE',
  CreditSenderCountry: 'DEU',
};

/** A payout of each programme, paid to a card. */
export const payoutsByProgramme = (): Record<CardPayout['programme'], CardPayout> => ({
  basicCredit: { programme: 'basicCredit', paymentType: 'CD', amount: '10.00', currency: 'EUR', paymentBrand: 'VISA', card: card() },
  originalCreditTransfer: {
    programme: 'originalCreditTransfer',
    paymentType: 'CD',
    amount: '11.00',
    currency: 'EUR',
    paymentBrand: 'VISA',
    card: card(),
    merchant: { city: 'Berlin' },
    recipient,
    customParameters: creditSender,
  },
  winningsPayout: {
    programme: 'winningsPayout',
    paymentType: 'CD',
    amount: '12.00',
    currency: 'EUR',
    paymentBrand: 'VISA',
    card: card(),
    merchant: { city: 'Valletta', mcc: '7995' },
    recipient,
    customer: { givenName: 'Jane', surname: 'Jones', phone: '+356 2123 4567' },
    customParameters: { ...creditSender, TransactionTypeIdentifier: 'C04', DateOfFunds: '261121', AdditionalTrace: '1234567890123456789' },
  },
  sendPayout: {
    programme: 'sendPayout',
    paymentType: 'CD',
    amount: '13.00',
    currency: 'EUR',
    paymentBrand: 'MASTER',
    card: card(CARDS.approvedMaster),
    merchant: { city: 'Berlin' },
    recipient: { ...recipient, birthDate: '1990-04-01', phone: '+49 30 1234567' },
    customParameters: { ...creditSender, TransactionTypeIdentifier: 'C07', DateOfFunds: '261121', AdditionalTrace: '9876543210987654321' },
  },
});

/** The shopper pays in the widget: the widget's own call, authorised by the checkout id alone. */
export async function payInWidget(sandbox: Sandbox, checkoutId: string, number: string = CARDS.approved, brand = 'VISA'): Promise<void> {
  const response = await fetch(`${sandbox.url}/v1/checkouts/${checkoutId}/widget/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      paymentBrand: brand,
      'card.number': number,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
    }),
  });
  assert.equal(response.status, 200, await response.clone().text());
}

/** The shopper saves a card in a registration-only checkout's widget, as its form posts it; answers the widget's answer. */
export async function saveInWidget(
  sandbox: Sandbox,
  checkoutId: string,
  number: string = CARDS.approved,
  brand = 'VISA',
): Promise<{ result: { code: string; parameterErrors?: { name: string }[] }; id?: string }> {
  const response = await fetch(`${sandbox.url}/v1/checkouts/${checkoutId}/widget/registration`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      paymentBrand: brand,
      'card.number': number,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
    }),
  });
  return (await response.json()) as { result: { code: string }; id?: string };
}

/** The shopper pays a one-click checkout with one of its saved cards, as the widget posts it; answers the widget's answer. */
export async function payWithSavedCardInWidget(
  sandbox: Sandbox,
  checkoutId: string,
  registrationId: string,
  cvv?: string,
): Promise<{ status: number; body: { result: { code: string; parameterErrors?: { name: string }[] }; id?: string } }> {
  const response = await fetch(`${sandbox.url}/v1/checkouts/${checkoutId}/widget/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ registrationId, ...(cvv === undefined ? {} : { 'card.cvv': cvv }) }),
  });
  return { status: response.status, body: (await response.json()) as { result: { code: string }; id?: string } };
}
