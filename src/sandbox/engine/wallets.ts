/**
 * Wallet payments made in the sandbox's widget: Apple Pay, Google Pay and STC
 * Pay. No real wallet is ever involved: the widget's stand-in sheets send a
 * stand-in token (or, for STC Pay, the shopper's phone number and a one-time
 * password) and this table says what each one does. The platform reports a
 * wallet payment like a card payment without the card: `paymentBrand` is the
 * wallet, `paymentType` the checkout's, and the result.
 */
import { MASKED_CVV } from '../../contract/redaction.js';
import { RESULT_CODES } from '../../contract/result-codes.js';
import type { ParameterError } from '../../contract/rules.js';
import type { WalletBrand } from '../../contract/brands.js';
import type { CardBehaviour } from './triggers.js';

/** The request field each wallet's stand-in sends its proof in (the platform's names for Apple and Google Pay tokens; STC Pay's is the sandbox's own). */
export const WALLET_PROOF_FIELDS: Readonly<Record<WalletBrand, string>> = {
  APPLEPAY: 'applePay.paymentToken',
  APPLEPAYTKN: 'applePay.paymentToken',
  GOOGLEPAY: 'googlePay.paymentToken',
  STC_PAY: 'stcPay.otp',
};

/** The stand-in tokens the sandbox's Apple Pay and Google Pay sheets send. */
export const WALLET_TOKENS = {
  approved: 'gw-sandbox-wallet-token:approve',
  declined: 'gw-sandbox-wallet-token:decline',
} as const;

/** The stand-in's one-time passwords for STC Pay. */
export const STC_PAY_OTPS = {
  approved: '123456',
  declined: '000000',
} as const;

export interface WalletTrigger {
  readonly brands: string;
  readonly value: string;
  readonly behaviour: CardBehaviour;
  readonly description: string;
}

/** The sandbox's wallet triggers. The README's wallet table is this table. */
export const WALLET_TRIGGERS: readonly WalletTrigger[] = [
  { brands: 'APPLEPAY, APPLEPAYTKN, GOOGLEPAY', value: WALLET_TOKENS.approved, behaviour: { kind: 'approve' }, description: 'the sheet\'s "Approve": approved' },
  { brands: 'APPLEPAY, APPLEPAYTKN, GOOGLEPAY', value: WALLET_TOKENS.declined, behaviour: { kind: 'decline', code: RESULT_CODES.declinedByAuthorization }, description: 'the sheet\'s "Decline": declined by the bank (800.100.152)' },
  { brands: 'STC_PAY', value: STC_PAY_OTPS.approved, behaviour: { kind: 'approve' }, description: 'one-time password that approves' },
  { brands: 'STC_PAY', value: STC_PAY_OTPS.declined, behaviour: { kind: 'decline', code: RESULT_CODES.declinedByAuthorization }, description: 'one-time password that declines (800.100.152)' },
];

/** A Saudi mobile number as STC Pay takes it: 05xxxxxxxx, or with the country code (+966 5xxxxxxxx). */
export const SAUDI_MOBILE = /^(?:\+966|00966|966|0)5\d{8}$/;

/**
 * What the sandbox does with a wallet payment, or the parameter errors that
 * refuse it (200.300.404): a token no stand-in sheet sends, a wrong one-time
 * password, a phone number that is not a Saudi mobile.
 */
export function walletBehaviourOf(brand: WalletBrand, params: Readonly<Record<string, string>>): CardBehaviour | ParameterError[] {
  const field = WALLET_PROOF_FIELDS[brand];
  const proof = params[field];
  const errors: ParameterError[] = [];
  if (brand === 'STC_PAY') {
    const mobile = params['customer.mobile']?.replace(/[\s-]/g, '');
    if (!mobile || !SAUDI_MOBILE.test(mobile)) errors.push({ name: 'customer.mobile', value: params['customer.mobile'] ?? '', message: 'must be a Saudi mobile number (05xxxxxxxx or +9665xxxxxxxx)' });
  }
  const trigger = WALLET_TRIGGERS.find((candidate) => candidate.brands.split(', ').includes(brand) && candidate.value === proof);
  // The proof itself is never quoted back, masked as a security code is: a real token or password is the shopper's.
  if (!trigger) errors.push({ name: field, value: proof === undefined ? null : MASKED_CVV, message: brand === 'STC_PAY' ? 'wrong one-time password' : "is not a token of the sandbox's stand-in wallet sheet" });
  return errors.length ? errors : trigger!.behaviour;
}
