/**
 * How long one instance holds a claim on a money call (a subscription month's
 * charge, a second charge's refund): longer than the call and its look-ups
 * can take, so no other instance makes it meanwhile; a crashed holder's claim
 * lapses after that, and the next run looks the call up by its reference first.
 */
export const MONEY_CLAIM_MS = 5 * 60 * 1000;
