/**
 * The sandbox's deterministic test cards: the platform's own 3DS test cards
 * (the platform's documentation) plus decline and uncertain-outcome triggers of our own. The
 * platform publishes no decline cards, so ours are numbers outside its list.
 * The README's triggers table is this table.
 */
import { RESULT_CODES } from '../../contract/result-codes.js';

/** What the sandbox does with a card before any 3DS step. */
export type CardBehaviour =
  | { readonly kind: 'approve' }
  | { readonly kind: 'decline'; readonly code: string }
  /** Records the payment as approved but answers 900.100.300, so integrators prove they reconcile. */
  | { readonly kind: 'uncertain' }
  | { readonly kind: 'threeDs'; readonly flow: 'frictionless' | 'challenge'; readonly methodData: boolean }
  | { readonly kind: 'threeDsNotEnrolled' }
  | { readonly kind: 'threeDsNotParticipating' }
  | { readonly kind: 'threeDsError' };

export interface TestCard {
  readonly number: string;
  readonly brand: 'VISA' | 'MASTER' | 'MADA';
  readonly behaviour: CardBehaviour;
  readonly description: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4200000000000000', brand: 'VISA', behaviour: { kind: 'approve' }, description: "approved (the platform's example card)" },
  { number: '5454545454545454', brand: 'MASTER', behaviour: { kind: 'approve' }, description: 'approved' },
  {
    number: '4000000000000002',
    brand: 'VISA',
    behaviour: { kind: 'decline', code: RESULT_CODES.declinedByAuthorization },
    description: 'declined by the bank (800.100.152)',
  },
  {
    number: '4000000000009995',
    brand: 'VISA',
    behaviour: { kind: 'decline', code: RESULT_CODES.insufficientFunds },
    description: 'insufficient funds (800.100.155)',
  },
  {
    number: '4000000000000127',
    brand: 'VISA',
    behaviour: { kind: 'decline', code: RESULT_CODES.invalidCvv },
    description: 'invalid CVV (800.100.153)',
  },
  {
    number: '4000000000000069',
    brand: 'VISA',
    behaviour: { kind: 'decline', code: RESULT_CODES.expiredCard },
    description: 'expired card (800.100.157)',
  },
  {
    number: '4000000000000259',
    brand: 'VISA',
    behaviour: { kind: 'uncertain' },
    description: 'uncertain outcome: recorded as approved, answered 900.100.300',
  },
  {
    number: '4200000000000091',
    brand: 'VISA',
    behaviour: { kind: 'threeDs', flow: 'frictionless', methodData: true },
    description: '3DS frictionless, with 3DS method',
  },
  {
    number: '4200000000000026',
    brand: 'VISA',
    behaviour: { kind: 'threeDs', flow: 'frictionless', methodData: false },
    description: '3DS frictionless, no 3DS method',
  },
  {
    number: '4200000000000042',
    brand: 'VISA',
    behaviour: { kind: 'threeDs', flow: 'challenge', methodData: true },
    description: '3DS challenge, with 3DS method',
  },
  {
    number: '4200000000000067',
    brand: 'VISA',
    behaviour: { kind: 'threeDs', flow: 'challenge', methodData: true },
    description: '3DS challenge, with 3DS method',
  },
  {
    number: '4200000000000018',
    brand: 'VISA',
    behaviour: { kind: 'threeDs', flow: 'challenge', methodData: false },
    description: '3DS challenge, no 3DS method',
  },
  {
    number: '4200000000000075',
    brand: 'VISA',
    behaviour: { kind: 'threeDs', flow: 'challenge', methodData: false },
    description: '3DS challenge, no 3DS method',
  },
  {
    number: '4012001037141112',
    brand: 'VISA',
    behaviour: { kind: 'threeDsNotEnrolled' },
    description: '3DS: card not enrolled (000.400.102)',
  },
  {
    number: '4532497088771651',
    brand: 'VISA',
    behaviour: { kind: 'threeDsNotParticipating' },
    description: '3DS: card not participating (000.400.101)',
  },
  {
    number: '4012001037461114',
    brand: 'VISA',
    behaviour: { kind: 'threeDsError' },
    description: '3DS: error in the 3DS system (100.390.112)',
  },
  {
    number: '5200000000000007',
    brand: 'MASTER',
    behaviour: { kind: 'threeDs', flow: 'frictionless', methodData: true },
    description: '3DS frictionless',
  },
  {
    number: '5200000000000015',
    brand: 'MASTER',
    behaviour: { kind: 'threeDs', flow: 'challenge', methodData: true },
    description: '3DS challenge',
  },
  // MADA cards (BINs of contract/brands.ts): one also a VISA number, one outside every other brand's prefixes.
  {
    number: '4464040000000007',
    brand: 'MADA',
    behaviour: { kind: 'approve' },
    description: 'MADA, approved (BIN 446404, also a VISA number)',
  },
  { number: '5888450000000003', brand: 'MADA', behaviour: { kind: 'approve' }, description: 'MADA, approved (BIN 588845)' },
  {
    number: '4464040000000015',
    brand: 'MADA',
    behaviour: { kind: 'decline', code: RESULT_CODES.declinedByAuthorization },
    description: 'MADA, declined by the bank (800.100.152)',
  },
];

const BY_NUMBER = new Map(TEST_CARDS.map((card) => [card.number, card]));

/** The sandbox's behaviour for a card number; unlisted valid cards are approved. */
export function behaviourOf(cardNumber: string): CardBehaviour {
  return BY_NUMBER.get(cardNumber)?.behaviour ?? { kind: 'approve' };
}

/** Well-known numbers by purpose, for tests, stories and the demo. */
export const CARDS = {
  approved: '4200000000000000',
  approvedMaster: '5454545454545454',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  invalidCvv: '4000000000000127',
  expiredCard: '4000000000000069',
  uncertain: '4000000000000259',
  frictionless: '4200000000000091',
  frictionlessNoMethod: '4200000000000026',
  challenge: '4200000000000042',
  challengeNoMethod: '4200000000000018',
  mada: '4464040000000007',
  madaOnly: '5888450000000003',
  madaDeclined: '4464040000000015',
} as const;
