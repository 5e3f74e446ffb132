/**
 * The gateway's payments: turns a validated request into a payment record
 * (approved, declined, uncertain or pending 3DS) by the test-card triggers,
 * finishes 3DS steps, captures, refunds and reverses. How a record is answered
 * on the wire is protocol/payment-answer.ts.
 */
import { toAmount, toCents } from '../../contract/amount.js';
import { CHECKOUT_LIFETIME_MS } from '../../contract/limits.js';
import type { TestMode } from '../../contract/formats.js';
import { resourcePathOf } from '../../contract/resource-path.js';
import { isApproved, RESULT_CODES } from '../../contract/result-codes.js';
import { binDataOf } from './bin-data.js';
import { result } from './store.js';
import {
  type CardSummary,
  type PaymentRecord,
  type RegistrationRecord,
  type Result,
  type SandboxStore,
  type ThreeDsSession,
} from './store.js';
import type { CardBehaviour } from './triggers.js';
import type { FlatParams } from './store.js';

/** The approval code of a test mode: INTERNAL (the default) `000.100.110`, EXTERNAL `000.100.112`. */
export function approvalCode(testMode: TestMode): string {
  return testMode === 'EXTERNAL' ? RESULT_CODES.approvedConnectorTest : RESULT_CODES.approvedIntegratorTest;
}

export function testModeOf(params: Readonly<FlatParams>): TestMode {
  return params.testMode === 'EXTERNAL' ? 'EXTERNAL' : 'INTERNAL';
}

/** Request fields the response echoes; card data, credentials and flags are not among them. */
const ECHOED_PREFIXES = ['customer.', 'billing.', 'recipient.', 'customParameters[', 'threeDSecure.', 'standingInstruction.'];

export function echoedFields(params: Readonly<FlatParams>): FlatParams {
  const echo: FlatParams = Object.create(null) as FlatParams;
  for (const [name, value] of Object.entries(params)) {
    if (value !== '' && ECHOED_PREFIXES.some((prefix) => name.startsWith(prefix))) echo[name] = value;
  }
  return echo;
}

/** What was sent of the card that a response may show: bin, last four digits, holder and expiry, never the number or the code. */
function sentCard(params: Readonly<FlatParams>): CardSummary | undefined {
  const number = params['card.number'];
  if (!number) return undefined;
  return {
    bin: number.slice(0, 6),
    last4Digits: number.slice(-4),
    ...(params['card.holder'] ? { holder: params['card.holder'] } : {}),
    expiryMonth: params['card.expiryMonth'] ?? '',
    expiryYear: params['card.expiryYear'] ?? '',
  };
}

/** What a response may show of the card: what was sent of it and the BIN data the platform adds. */
export function summariseCard(params: Readonly<FlatParams>): CardSummary | undefined {
  const card = sentCard(params);
  return card && { ...card, ...binDataOf(card.bin, params.paymentBrand) };
}

/** The API reference spells the instalment type INSTALMENT in requests and INSTALLMENT in responses. */
export function answeredStandingInstruction(params: Readonly<FlatParams>): Record<string, string> | undefined {
  const fields = Object.entries(params).filter(([name]) => name.startsWith('standingInstruction.'));
  if (!fields.length) return undefined;
  const instruction: Record<string, string> = {};
  for (const [name, value] of fields) instruction[name.slice('standingInstruction.'.length)] = value;
  if (instruction.type === 'INSTALMENT') instruction.type = 'INSTALLMENT';
  return instruction;
}

/** Digits drawn from 32 hex characters, `count` at a time: the same hex gives the same digits. */
function digitsOf(hex: string, count: number): string {
  return BigInt(`0x${hex}`).toString().padStart(count, '0').slice(-count);
}

/** The platform's short id, `dddd.dddd.dddd`, as the start of the descriptor shows it. */
const shortIdOf = (hex: string) => digitsOf(hex, 12).replace(/^(\d{4})(\d{4})(\d{4})$/, '$1.$2.$3');

/** The acquirer's answer the platform reports in `resultDetails`: an ISO 8583 response code and its text. */
const ACQUIRER_RESPONSES: Readonly<Record<string, readonly [code: string, text: string]>> = {
  [RESULT_CODES.declinedByAuthorization]: ['05', 'Do not honour'],
  [RESULT_CODES.insufficientFunds]: ['51', 'Insufficient funds'],
  [RESULT_CODES.invalidCvv]: ['N7', 'Decline for CVV2 failure'],
  [RESULT_CODES.expiredCard]: ['54', 'Expired card'],
};
const APPROVED_BY_ACQUIRER = ['00', 'Approved'] as const;

/** `ExtendedDescription` and `AcquirerResponse` of a payment the acquirer answered (a 3DS step's own text is kept). */
function noteAcquirerAnswer(payment: PaymentRecord, answer: readonly [code: string, text: string]): void {
  payment.resultDetails.ExtendedDescription ??= answer[1];
  payment.resultDetails.AcquirerResponse = answer[0];
}

/** The custom parameters the platform adds to a card payment: an end-to-end id (unless the merchant sent one) and the descriptor template. */
function addGatewayParameters(store: SandboxStore, echo: FlatParams): void {
  echo['customParameters[SHOPPER_EndToEndIdentity]'] ??= store.hex('detail') + store.hex('detail');
  echo['customParameters[CTPE_DESCRIPTOR_TEMPLATE]'] ??= '';
}

/** The country the platform puts next to `customer.ip`: the sandbox has no geo-IP table, so the billing country, else the card's. */
function addIpCountry(echo: FlatParams, card: CardSummary | undefined): void {
  if (echo['customer.ip'] === undefined || echo['customer.ipCountry'] !== undefined) return;
  echo['customer.ipCountry'] = echo['billing.country'] ?? card?.country ?? 'DE';
}

export interface NewPayment {
  entityId: string;
  params: Readonly<FlatParams>;
  behaviour: CardBehaviour;
  card?: CardSummary;
  paymentBrand?: string;
  referencedId?: string;
  checkoutId?: string;
  /** The saved card a one-click checkout charged: its status answers it, as the platform's does. */
  registrationId?: string;
  standingInstruction?: Record<string, string>;
}

/** What every transaction record holds of its request: the entity, the time, the type, the amount (two decimals) and currency, the test mode. */
function transactionFields(store: SandboxStore, entityId: string, params: Readonly<FlatParams>, amount: string) {
  return {
    entityId,
    createdAt: store.clock.nowMs(),
    paymentType: params.paymentType ?? 'DB',
    amount,
    amountCents: toCents(amount),
    currency: params.currency ?? '',
    testMode: testModeOf(params),
  };
}

function newPaymentRecord(store: SandboxStore, input: NewPayment, outcome: Result): PaymentRecord {
  const { params } = input;
  const id = store.nextId();
  // The platform answers amounts with two decimals, also when the request wrote `10`.
  const amount = toAmount(toCents(params.amount ?? '0.00'));
  const echo = echoedFields(params);
  if (!input.referencedId) {
    addGatewayParameters(store, echo);
    addIpCountry(echo, input.card);
  }
  const connectorHex = store.hex('detail');
  const record: PaymentRecord = {
    id,
    ...transactionFields(store, input.entityId, params, amount),
    echo,
    shortId: shortIdOf(store.hex('detail')),
    result: outcome,
    resultDetails: {
      clearingInstituteName: 'gw-sandbox',
      ConnectorTxID1: connectorHex.slice(0, 16).toUpperCase(),
      ConnectorTxID2: digitsOf(connectorHex.slice(16), 6),
      ConnectorTxID3: digitsOf(connectorHex, 12),
    },
    createRegistration: params.createRegistration === 'true',
    behaviour: input.behaviour,
    capturedCents: 0,
    refundedCents: 0,
    reversed: false,
    ...(input.paymentBrand ? { paymentBrand: input.paymentBrand } : {}),
    ...(params.merchantTransactionId ? { merchantTransactionId: params.merchantTransactionId } : {}),
    ...(input.card ? { card: input.card } : {}),
    ...(input.referencedId ? { referencedId: input.referencedId } : {}),
    ...(input.checkoutId ? { checkoutId: input.checkoutId } : {}),
    ...(input.registrationId ? { registrationId: input.registrationId } : {}),
  };
  const challengeIndicator = params['threeDSecure.challengeIndicator'];
  if (challengeIndicator) record.resultDetails.usedChallengeIndicator = challengeIndicator;
  const instruction = input.standingInstruction ?? answeredStandingInstruction(params);
  if (instruction) {
    record.standingInstruction = instruction;
    if (instruction.mode === 'INITIAL')
      record.resultDetails.CardholderInitiatedTransactionID = store.hex('detail').slice(0, 15).toUpperCase();
  }
  return record;
}

/** What a refused transaction is given: the request that was refused and the platform's code for why. */
export interface NewRefusal {
  readonly entityId: string;
  /** The request's fields as kept (secrets scrubbed); only the echoed ones and the card's summary are answered. */
  readonly params: Readonly<FlatParams>;
  readonly code: string;
  /** The checkout the attempt was made on, whose status read then answers it. */
  readonly checkoutId?: string;
  /** The risk score its answer carries: the platform's refused captures, refunds and reversals show `0`, a refused card none. */
  readonly riskScore?: string;
}

/**
 * Records a transaction the platform refuses before any bank sees it (a card
 * number failing the Luhn check; a capture, refund or reversal it cannot make):
 * it has its own id and is kept like every payment, so a read of that id, the
 * reports and the checkout's status answer it, as the platform's do. It moves
 * no money and is never approved, so nothing can capture, refund or reverse it.
 */
export function recordRefusal(store: SandboxStore, input: NewRefusal): PaymentRecord {
  const { params } = input;
  const card = sentCard(params);
  const amount = params.amount === undefined ? '0.00' : toAmount(toCents(params.amount));
  const record: PaymentRecord = {
    id: store.nextId(),
    ...transactionFields(store, input.entityId, params, amount),
    echo: echoedFields(params),
    shortId: shortIdOf(store.hex('detail')),
    result: result(input.code),
    resultDetails: {},
    createRegistration: false,
    behaviour: { kind: 'decline', code: input.code },
    capturedCents: 0,
    refundedCents: 0,
    reversed: false,
    refused: input.riskScore === undefined ? {} : { riskScore: input.riskScore },
    ...(params.paymentBrand ? { paymentBrand: params.paymentBrand } : {}),
    ...(params.merchantTransactionId ? { merchantTransactionId: params.merchantTransactionId } : {}),
    // The refused card's answer shows what was sent of it, without the BIN data an approved payment adds (recorded 2015, 2017).
    ...(card ? { card } : {}),
    ...(input.checkoutId ? { checkoutId: input.checkoutId } : {}),
  };
  store.addPayment(record);
  return record;
}

/** Applies a final (non-3DS) behaviour; answers the code the caller sees, which differs only for the uncertain trigger. */
function decideOutcome(store: SandboxStore, payment: PaymentRecord, behaviour: CardBehaviour): string {
  switch (behaviour.kind) {
    case 'decline':
      payment.result = result(behaviour.code);
      noteAcquirerAnswer(payment, ACQUIRER_RESPONSES[behaviour.code] ?? ACQUIRER_RESPONSES[RESULT_CODES.declinedByAuthorization]!);
      return behaviour.code;
    case 'threeDsNotEnrolled':
      payment.result = result(RESULT_CODES.threeDsUserNotEnrolled);
      return payment.result.code;
    case 'threeDsNotParticipating':
      payment.result = result(RESULT_CODES.threeDsNotParticipating);
      return payment.result.code;
    case 'threeDsError':
      payment.result = result(RESULT_CODES.threeDsTechnicalError);
      return payment.result.code;
    case 'uncertain':
      payment.result = result(approvalCode(payment.testMode));
      noteAcquirerAnswer(payment, APPROVED_BY_ACQUIRER);
      registerIfAsked(store, payment);
      return RESULT_CODES.timeoutUncertain;
    case 'approve':
    case 'threeDs':
      payment.result = result(approvalCode(payment.testMode));
      noteAcquirerAnswer(payment, APPROVED_BY_ACQUIRER);
      registerIfAsked(store, payment);
      return payment.result.code;
  }
}

/**
 * The standing instruction an approved customer-initiated first payment
 * (`mode=INITIAL`, `source=CIT`) starts: the CardholderInitiatedTransactionID
 * and type (as requested) that later merchant-initiated repeats must name.
 */
export function initialInstructionOf(payment: PaymentRecord): RegistrationRecord['initial'] {
  const transactionId = payment.resultDetails.CardholderInitiatedTransactionID;
  const type = payment.echo['standingInstruction.type'];
  return transactionId && type && payment.echo['standingInstruction.mode'] === 'INITIAL' && isApproved(payment.result.code)
    ? { transactionId, type }
    : undefined;
}

function registerIfAsked(store: SandboxStore, payment: PaymentRecord): void {
  if (!payment.createRegistration || payment.registrationId) return;
  const initial = initialInstructionOf(payment);
  const registration: RegistrationRecord = {
    id: store.nextId(),
    entityId: payment.entityId,
    behaviour: payment.behaviour,
    initialPaymentId: payment.id,
    testMode: payment.testMode,
    createdAt: store.clock.nowMs(),
    deregistered: false,
    ...(payment.paymentBrand ? { paymentBrand: payment.paymentBrand } : {}),
    ...(payment.card ? { card: payment.card } : {}),
    ...(initial ? { initial } : {}),
  };
  payment.registrationId = registration.id;
  store.addRegistration(registration);
}

/**
 * A card's behaviour where no 3-D Secure check runs (a credit or payout, a payment on a saved card, a payment with
 * the merchant's own 3DS results): its 3DS outcomes (a challenge, not enrolled, not participating, an error) are
 * those of a check that never happens, so the card is approved; its bank's decline still applies.
 */
export const withoutThreeDs = (behaviour: CardBehaviour): CardBehaviour =>
  behaviour.kind.startsWith('threeDs') ? { kind: 'approve' } : behaviour;

/** Whether the gateway checks 3-D Secure for a payment with card data: a DB or PA without the merchant's own results. */
const threeDsChecked = (params: Readonly<FlatParams>) =>
  (params.paymentType === 'DB' || params.paymentType === 'PA') && !hasOwnThreeDsResult(params);

/** Own-MPI results in the request mean the merchant already did 3DS: the gateway's step is skipped. */
const hasOwnThreeDsResult = (params: Readonly<FlatParams>) =>
  params['threeDSecure.authenticationStatus'] !== undefined || params['threeDSecure.eci'] !== undefined;

const enrolledByRequest = (params: Readonly<FlatParams>) =>
  params['customParameters[3DS2_enrolled]'] === 'true' || params['customParameters[3DS_enrolled]'] === 'true';

/** The 3DS step a debit needs, if any: the card's own, or any card the request marks as enrolled. */
export function threeDsStepOf(
  params: Readonly<FlatParams>,
  behaviour: CardBehaviour,
): { flow: 'frictionless' | 'challenge'; methodData: boolean; afterAuthentication: CardBehaviour } | undefined {
  if (params.paymentType !== 'DB' && params.paymentType !== 'PA') return undefined;
  if (hasOwnThreeDsResult(params)) return undefined;
  const forced = params['customParameters[3DS2_flow]'];
  const forcedFlow = forced === 'challenge' || forced === 'frictionless' ? forced : undefined;
  if (behaviour.kind === 'threeDs')
    return { flow: forcedFlow ?? behaviour.flow, methodData: behaviour.methodData, afterAuthentication: { kind: 'approve' } };
  if (enrolledByRequest(params)) return { flow: forcedFlow ?? 'challenge', methodData: false, afterAuthentication: behaviour };
  return undefined;
}

export interface PaymentOutcome {
  readonly payment: PaymentRecord;
  /** The code answered now: the record's, except for the uncertain trigger. */
  readonly answeredCode: string;
}

/** Creates a payment with card data (or from a registration), pending a 3DS step when the card needs one. */
export function createPayment(store: SandboxStore, input: NewPayment & { shopperResultUrl?: string }): PaymentOutcome {
  const step = threeDsStepOf(input.params, input.behaviour);
  if (step && input.shopperResultUrl) {
    const payment = newPaymentRecord(store, input, result(RESULT_CODES.pending));
    const session: ThreeDsSession = {
      // EMVCo's threeDSServerTransID is a UUID, and so is the platform's: the session is named by one (122 random bits).
      token: uuidOf(store.hex('detail')),
      ...step,
      shopperResultUrl: input.shopperResultUrl,
      methodPosted: false,
      finished: false,
    };
    payment.threeDs = session;
    store.addPayment(payment);
    return { payment, answeredCode: RESULT_CODES.pending };
  }
  const payment = newPaymentRecord(store, input, result(RESULT_CODES.pending));
  const answeredCode = decideOutcome(store, payment, threeDsChecked(input.params) ? input.behaviour : withoutThreeDs(input.behaviour));
  store.addPayment(payment);
  return { payment, answeredCode };
}

/** A payment with validated card data, from the server (`POST /v1/payments`) or the widget (`checkoutId`). */
export function createCardPayment(
  store: SandboxStore,
  entityId: string,
  params: Readonly<FlatParams>,
  behaviour: CardBehaviour,
  checkoutId?: string,
): PaymentOutcome {
  return createPayment(store, {
    entityId,
    params,
    behaviour,
    card: summariseCard(params)!,
    paymentBrand: params.paymentBrand!,
    ...(checkoutId ? { checkoutId } : {}),
    ...(params.shopperResultUrl ? { shopperResultUrl: params.shopperResultUrl } : {}),
  });
}

/** 32 hex characters written as an RFC 4122 version-4 UUID, as 3DS transaction ids are. */
function uuidOf(hex: string): string {
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Ends a payment's 3DS step: authenticated (then the card's own behaviour
 * decides) or failed (`100.380.401`). Finishing twice changes nothing.
 */
export function finishThreeDs(store: SandboxStore, payment: PaymentRecord, authenticated: boolean): void {
  const session = payment.threeDs;
  if (!session || session.finished) return;
  session.finished = true;
  // EMVCo's method completion indicator: whether the browser posted the 3DS method data before authentication.
  if (session.methodData) payment.resultDetails.threeDSMethodCompletion = session.methodPosted ? 'Y' : 'N';
  const eci = payment.paymentBrand === 'MASTER' ? (authenticated ? '02' : '00') : authenticated ? '05' : '07';
  payment.threeDSecure = {
    eci,
    version: '2.2.0',
    authenticationStatus: authenticated ? 'Y' : 'N',
    dsTransactionId: uuidOf(store.hex('detail')),
    acsTransactionId: uuidOf(store.hex('detail')),
    flow: session.flow,
    authType: session.flow === 'challenge' ? '01' : '',
    authenticationTimestamp: new Date(store.clock.nowMs()).toISOString(),
    transactionStatusReason: authenticated ? '' : '01',
    challengeMandatedIndicator: 'N',
  };
  for (const [key, value] of Object.entries(payment.threeDSecure)) if (value === '') delete payment.threeDSecure[key];
  if (!authenticated) {
    payment.result = result(RESULT_CODES.threeDsFailed);
  } else if (paidByAnotherAttempt(store, payment)) {
    // A checkout is paid once: an attempt whose challenge ends after another attempt paid it is refused, never a second charge.
    payment.result = result(RESULT_CODES.duplicateTransaction);
  } else {
    if (session.flow === 'frictionless')
      payment.resultDetails.ExtendedDescription = `${RESULT_CODES.frictionlessAuthenticated} ${result(RESULT_CODES.frictionlessAuthenticated).description}`;
    // The uncertain trigger is about the answer to a request; after a browser redirect there is none, so the record speaks.
    decideOutcome(store, payment, session.afterAuthentication);
  }
  store.paymentChanged(payment);
}

/** Whether another attempt on the payment's checkout has been approved. */
function paidByAnotherAttempt(store: SandboxStore, payment: PaymentRecord): boolean {
  if (payment.threeDs?.checkoutPaidElsewhere) return true;
  const checkout = payment.checkoutId === undefined ? undefined : store.checkouts.get(payment.checkoutId);
  return checkout?.paidBy !== undefined && checkout.paidBy !== payment.id;
}

/** Where the shopper goes after a 3DS step: the result URL with `id` and `resourcePath` added to its own query. */
export function shopperReturnUrl(payment: PaymentRecord): string {
  const kept = payment.threeDs!.shopperResultUrl;
  const id = payment.checkoutId ?? payment.id;
  const query = { id, resourcePath: resourcePathOf({ kind: payment.checkoutId ? 'checkout' : 'payment', id }) };
  // The URL is kept scrubbed: one that held a secret where a mask cannot stand (a token as its host) no longer
  // parses, and gets the query appended to its text rather than an error after the step is done.
  if (!URL.canParse(kept)) return `${kept}${kept.includes('?') ? '&' : '?'}${new URLSearchParams(query)}`;
  const url = new URL(kept);
  for (const [name, value] of Object.entries(query)) url.searchParams.append(name, value);
  return url.href;
}

/** Whether a payment may be shown as the successful one of its checkout. */
export const succeeded = (payment: PaymentRecord) => isApproved(payment.result.code);

/**
 * After a checkout's payment succeeds, its session lives 30 minutes more so the shop can read the status. The
 * checkout and its attempts still waiting for a 3-D Secure step are marked paid: neither the checkout's record nor
 * the payment's may outlive the other (each is dropped for room on its own), and a checkout is never paid twice.
 */
export function noteCheckoutPayment(store: SandboxStore, payment: PaymentRecord): void {
  const { checkoutId } = payment;
  if (checkoutId === undefined || !succeeded(payment)) return;
  const checkout = store.checkouts.get(checkoutId);
  if (checkout?.paidBy !== undefined) return;
  if (checkout) {
    checkout.expiresAt = Math.max(checkout.expiresAt, store.clock.nowMs() + CHECKOUT_LIFETIME_MS);
    checkout.paidBy = payment.id;
  }
  // Its other attempts still waiting for a 3-D Secure step, found by their own records: the checkout's may have been
  // dropped for room already, and they must still never pay it a second time.
  for (const id of store.threeDsSessions.values()) {
    const other = id === payment.id ? undefined : store.payments.get(id);
    const session = other?.checkoutId === checkoutId ? other.threeDs : undefined;
    if (session && !session.finished) session.checkoutPaidElsewhere = true;
  }
}

/**
 * Why a capture, refund or reversal cannot be made on `target`, as a result code; undefined when it can.
 * A capture needs an approved preauthorisation (`700.400.510` otherwise, as the platform answers); a
 * reversal takes back an approved preauthorisation, debit or capture that nothing was captured, refunded or
 * reversed from (the platform allows RV on a DB, and names CP among what a reversal needs).
 */
function referenceRefusal(target: PaymentRecord, type: string, cents: number): string | undefined {
  const approved = isApproved(target.result.code);
  switch (type) {
    case 'CP':
      if (target.paymentType !== 'PA' || !approved) return RESULT_CODES.captureWithoutPreauthorization;
      if (target.reversed) return RESULT_CODES.cannotCapture;
      return target.capturedCents + cents > target.amountCents ? RESULT_CODES.cannotCapture : undefined;
    case 'RF':
      if ((target.paymentType !== 'DB' && target.paymentType !== 'CP') || !approved || target.reversed) return RESULT_CODES.cannotRefund;
      return target.refundedCents + cents > target.amountCents ? RESULT_CODES.cannotRefund : undefined;
    default: {
      // The platform's own refusal text (`700.400.530`) names CP, DB, RB and PA as what a reversal takes back.
      const reversible = target.paymentType === 'PA' || target.paymentType === 'DB' || target.paymentType === 'CP';
      if (!reversible || !approved || target.reversed || target.capturedCents > 0 || target.refundedCents > 0)
        return RESULT_CODES.cannotReverse;
      return undefined;
    }
  }
}

export type ReferenceOutcome = { readonly refused: string } | { readonly payment: PaymentRecord };

/**
 * Captures (CP), refunds (RF) or reverses (RV) a payment. The check and the
 * booking happen in one synchronous step, so concurrent captures can never sum
 * above the preauthorisation.
 */
export function referencePayment(store: SandboxStore, target: PaymentRecord, params: Readonly<FlatParams>): ReferenceOutcome {
  const type = params.paymentType ?? '';
  const amount = type === 'RV' ? target.amount : (params.amount ?? '0.00');
  const cents = toCents(amount);
  const refused = referenceRefusal(target, type, cents);
  if (refused) return { refused };
  const payment = newPaymentRecord(
    store,
    {
      entityId: target.entityId,
      params: { ...params, amount, currency: params.currency ?? target.currency },
      behaviour: { kind: 'approve' },
      // A capture, refund or reversal answers without `card` and `paymentBrand`, as every recording of the platform shows.
      referencedId: target.id,
    },
    result(approvalCode(testModeOf(params))),
  );
  const merchantCustomerId = target.echo['customer.merchantCustomerId'];
  if (merchantCustomerId) payment.echo['customer.merchantCustomerId'] = merchantCustomerId;
  if (type === 'CP') {
    target.capturedCents += cents;
    payment.resultDetails.clearingCutOff = clearingCutOff(store.clock.nowMs());
  }
  if (type === 'RF') target.refundedCents += cents;
  if (type === 'RV') {
    target.reversed = true;
    // A reversed capture gives its amount back to the preauthorisation: it may be captured again.
    const held = target.paymentType === 'CP' && target.referencedId ? store.payment(target.referencedId) : undefined;
    if (held) held.capturedCents -= target.amountCents;
  }
  store.addPayment(payment);
  return { payment };
}

/** Captures clear at the next 22:00 UTC, like a daily settlement cut-off. */
function clearingCutOff(nowMs: number): string {
  const cutOff = new Date(nowMs);
  cutOff.setUTCHours(22, 0, 0, 0);
  if (cutOff.getTime() <= nowMs) cutOff.setUTCDate(cutOff.getUTCDate() + 1);
  return cutOff
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '+0000');
}
