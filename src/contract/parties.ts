/**
 * The people and places a request names and its answer echoes: the customer
 * (and their browser), the billing address, the recipient of a credit. One
 * shape for the server helper that sends them and the answer types that carry
 * them back. Types only: nothing here reaches a bundle.
 */
import type { AccountNumberType, ChallengeWindowValue } from './formats.js';

export interface Browser {
  acceptHeader?: string;
  screenColorDepth?: number | string;
  javaEnabled?: boolean;
  language?: string;
  screenHeight?: number | string;
  screenWidth?: number | string;
  /** Minutes from UTC, as the browser's `getTimezoneOffset()` gives them. */
  timezone?: number | string;
  /** `1`–`5` or `01`–`05`: the same five sizes. */
  challengeWindow?: ChallengeWindowValue;
  userAgent?: string;
}

export interface Customer {
  givenName?: string;
  surname?: string;
  phone?: string;
  mobile?: string;
  email?: string;
  ip?: string;
  merchantCustomerId?: string;
  browser?: Browser;
}

export interface Billing {
  street1: string;
  city: string;
  /** Two-letter country code. */
  country: string;
  postcode: string;
}

/** Recipient of funding or a payout. For the US and Canada (`USA`, `CAN`) `state` and `country` are mandatory (checked at run time). */
export interface Recipient {
  givenName: string;
  surname: string;
  accountNumberType: AccountNumberType;
  accountNumber: string;
  state?: string;
  /** A3 country code (`USA`, `CAN`, `DEU`). */
  country?: string;
  street?: string;
  city?: string;
  postcode?: string;
  /** Year-month-day. */
  birthDate?: string;
  phone?: string;
}
