/**
 * The shopper as the shop's server-to-server payments describe them: the test
 * card chosen on a page, the browser's 3-D Secure details, the address and
 * origin the request came from, and what a payment carries about them.
 */
import type { Request } from 'express';
import type { z } from 'zod';
import { brandOfCard, type CardDetails, type ChallengeWindow, type PaymentBrand } from 'gw-elements/server';
import { BadRequest, type browserInput, type cardInput, type challengeWindow } from './input.js';

/** The demo's one shopper (a server-to-server payment needs an e-mail address). */
export const SHOPPER_EMAIL = 'jane.jones@example.com';

/** Card details as the demo's server-to-server flows send them: holder and security code included. */
export type ShopperCard = CardDetails & { holder: string; cvv: string };

/** What the shopper's browser adds to a server-to-server payment (3-D Secure needs it). */
export interface BrowserContext {
  readonly ip: string;
  readonly acceptHeader: string;
  readonly userAgent: string;
  readonly language: string;
  readonly screenWidth: string;
  readonly screenHeight: string;
  readonly screenColorDepth: string;
  readonly timezone: string;
  readonly challengeWindow: ChallengeWindow;
}

const DEMO_BRANDS: readonly PaymentBrand[] = ['VISA', 'MASTER'];

/** The card brand a number belongs to, for `paymentBrand` (the demo takes VISA and Mastercard). */
export function brandOf(cardNumber: string): PaymentBrand {
  const brand = DEMO_BRANDS.find((candidate) => brandOfCard(cardNumber) === candidate);
  if (!brand) throw new BadRequest('the demo takes VISA and Mastercard numbers only');
  return brand;
}

/** What a server-to-server payment with the gateway's 3-D Secure step carries about the shopper: browser, billing, return address. */
export function threeDsShopper(browser: BrowserContext, shopperResultUrl: string) {
  return {
    customer: {
      email: SHOPPER_EMAIL,
      ip: browser.ip,
      browser: {
        acceptHeader: browser.acceptHeader,
        userAgent: browser.userAgent,
        language: browser.language,
        screenWidth: browser.screenWidth,
        screenHeight: browser.screenHeight,
        screenColorDepth: browser.screenColorDepth,
        timezone: browser.timezone,
        javaEnabled: false,
        challengeWindow: browser.challengeWindow,
      },
    },
    billing: { street1: 'Hauptstrasse 1', city: 'Vienna', country: 'AT', postcode: '1010' },
    shopperResultUrl,
  };
}

/** Test card details from a page: the number (and optionally the name) is all the shopper chooses in the demo. */
export function cardFrom(input: z.infer<typeof cardInput>): ShopperCard {
  return {
    number: input.cardNumber,
    holder: input.holder || 'Jane Jones',
    expiryMonth: '12',
    expiryYear: String(new Date().getFullYear() + 2),
    cvv: '123',
  };
}

/** The shopper's IP as the gateway wants it (IPv4 text for IPv4-mapped addresses); behind the dev server's proxy, from X-Forwarded-For. */
export function shopperIp(request: Request): string {
  return (request.ip ?? '127.0.0.1').replace(/^::ffff:/, '');
}

/** Where the gateway sends the shopper back after 3-D Secure: the origin the shopper's browser used (behind the dev server's proxy). */
export function threeDsReturnUrl(request: Request): string {
  return `${request.protocol}://${request.host ?? 'localhost'}/three-ds-return.html`;
}

export function browserFrom(
  request: Request,
  browser: z.infer<typeof browserInput>,
  window: z.infer<typeof challengeWindow>,
): BrowserContext {
  return {
    ip: shopperIp(request),
    acceptHeader: request.get('accept') ?? 'text/html',
    userAgent: request.get('user-agent') ?? 'unknown',
    language: browser?.language ?? 'en-US',
    screenWidth: browser?.screenWidth ?? '1280',
    screenHeight: browser?.screenHeight ?? '800',
    screenColorDepth: browser?.screenColorDepth ?? '24',
    timezone: browser?.timezone ?? '0',
    challengeWindow: window ?? '05',
  };
}
