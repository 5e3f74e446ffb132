/** The gateway's notifications: the listener it posts to, and the list the Notifications page shows. */
import type { RequestHandler } from 'express';
import { NotificationError } from 'gw-elements/server';
import type { MerchantContext } from '../merchant-context.js';

/**
 * The listener (`POST /api/notifications`): a hex body, read raw; answered 2xx only once stored, else the gateway
 * retries. Not a page's route: its answers are HTTP statuses for the gateway, not JSON for a page.
 */
export function receiveNotification({ inbox }: MerchantContext): RequestHandler {
  return async (request, response) => {
    if (!inbox) {
      response.status(404).json({ error: 'notifications are not configured' });
      return;
    }
    try {
      const received = await inbox.receive({ body: typeof request.body === 'string' ? request.body : '', headers: request.headers });
      // Another report of this payment is still being fulfilled, or the order's charges could not be looked up: not done yet,
      // so the gateway is to send it again.
      response.status(received.fulfilment === 'in progress elsewhere' || received.fulfilment === 'not settled yet' ? 503 : 200).end();
    } catch (error) {
      if (!(error instanceof NotificationError)) throw error;
      response.status(400).json({ error: error.message });
    }
  };
}

export function listNotifications(_input: unknown, { inbox }: MerchantContext) {
  return { configured: Boolean(inbox), notifications: inbox?.list() ?? [] };
}
