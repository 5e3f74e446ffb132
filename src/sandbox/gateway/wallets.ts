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
import { SAUDI_MOBILE, STC_PAY_OTPS, WALLET_PROOF_FIELDS, WALLET_TOKENS } from '../../contract/wallet-stand-in.js';

export { STC_PAY_OTPS, WALLET_TOKENS } from '../../contract/wallet-stand-in.js';

export interface WalletTrigger {
  readonly brands: string;
  readonly value: string;
  readonly behaviour: CardBehaviour;
  readonly description: string;
}

/** The sandbox's wallet triggers. docs/sandbox.md's wallet table is this table. */
export const WALLET_TRIGGERS: readonly WalletTrigger[] = [
  {
    brands: 'APPLEPAY, APPLEPAYTKN, GOOGLEPAY',
    value: WALLET_TOKENS.approved,
    behaviour: { kind: 'approve' },
    description: 'the sheet\'s "Approve": approved',
  },
  {
    brands: 'APPLEPAY, APPLEPAYTKN, GOOGLEPAY',
    value: WALLET_TOKENS.declined,
    behaviour: { kind: 'decline', code: RESULT_CODES.declinedByAuthorization },
    description: 'the sheet\'s "Decline": declined by the bank (800.100.152)',
  },
  { brands: 'STC_PAY', value: STC_PAY_OTPS.approved, behaviour: { kind: 'approve' }, description: 'one-time password that approves' },
  {
    brands: 'STC_PAY',
    value: STC_PAY_OTPS.declined,
    behaviour: { kind: 'decline', code: RESULT_CODES.declinedByAuthorization },
    description: 'one-time password that declines (800.100.152)',
  },
];

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
    if (!mobile || !SAUDI_MOBILE.test(mobile))
      errors.push({
        name: 'customer.mobile',
        value: params['customer.mobile'] ?? '',
        message: 'must be a Saudi mobile number (05xxxxxxxx or +9665xxxxxxxx)',
      });
  }
  const trigger = WALLET_TRIGGERS.find((candidate) => candidate.brands.split(', ').includes(brand) && candidate.value === proof);
  // The proof itself is never quoted back, masked as a security code is: a real token or password is the shopper's.
  if (!trigger)
    errors.push({
      name: field,
      value: proof === undefined ? null : MASKED_CVV,
      message: brand === 'STC_PAY' ? 'wrong one-time password' : "is not a token of the sandbox's stand-in wallet sheet",
    });
  return errors.length ? errors : trigger!.behaviour;
}
