/**
 * What the sandbox's stand-in wallet sheets send: imported by the served
 * widget, which sends them, and by the sandbox's gateway, which reads them as
 * triggers (src/sandbox/gateway/wallets.ts). A type import only, so the
 * widget's bundle carries only these.
 */

import type { SecretField } from './secrets.js';

/** The stand-in tokens the Apple Pay and Google Pay sheets send. */
export const WALLET_TOKENS = {
  approved: 'gw-sandbox-wallet-token:approve',
  declined: 'gw-sandbox-wallet-token:decline',
} as const;

/** The stand-in's one-time passwords for STC Pay. */
export const STC_PAY_OTPS = {
  approved: '123456',
  declined: '000000',
} as const;

/**
 * The request field each wallet's stand-in sends its proof in (the platform's names for Apple and Google Pay tokens; STC Pay's
 * is the sandbox's own). Each must be a declared secret field (contract/secrets.ts), or this does not compile: the scrubber masks
 * by that table, so a proof field can never be kept or logged as sent.
 */
export const WALLET_PROOF_FIELDS = {
  APPLEPAY: 'applePay.paymentToken',
  APPLEPAYTKN: 'applePay.paymentToken',
  GOOGLEPAY: 'googlePay.paymentToken',
  STC_PAY: 'stcPay.otp',
} as const satisfies Readonly<Record<string, SecretField>>;

/** A Saudi mobile number as STC Pay takes it: 05xxxxxxxx, or with the country code (+966 5xxxxxxxx). */
export const SAUDI_MOBILE = /^(?:\+966|00966|966|0)5\d{8}$/;
