/**
 * What the shop learns of the shopper from a page's request: the test card
 * chosen, the browser's 3-D Secure details, the address and origin it came from.
 */
import type { Request } from 'express';
import type { z } from 'zod';
import type { browserInput, cardInput, challengeWindow } from './input.js';
import type { BrowserContext, ShopperCard } from './shop.js';

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
