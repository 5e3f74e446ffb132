/**
 * The decrypted notifications (webhooks) the platform sends, by type: a
 * payment, a registration, a risk check, the dashboard's activation test. The
 * server helper's decryptNotification returns them and the sandbox's notifier
 * builds them, both against these types. Types only: nothing here reaches a bundle.
 */
import type { Payment, Registration } from './api-answers.js';
import type { GatewayResult } from './result-codes.js';

export type RegistrationAction = 'CREATED' | 'UPDATED' | 'DELETED';

/** A payment created or changed; `payload` is the payment as the API answers it. */
export interface PaymentNotification {
  readonly type: 'PAYMENT';
  readonly action?: string;
  readonly payload: Payment;
}

/**
 * What a PAYMENT notification's payload carries beside the API's answer (the
 * platform's recordings): the presentation amount and currency, the short id,
 * where the payment came from (`OPPUI` for the widget, `SYSTEM` otherwise) and
 * the payment method. The sandbox sends them; a reader needs none of them.
 */
export interface PaymentNotificationFields {
  readonly presentationAmount?: string;
  readonly presentationCurrency?: string;
  readonly shortId: string;
  readonly source: 'OPPUI' | 'SYSTEM';
  readonly paymentMethod: string;
  /** The entity the payment was made on: what a listener of several entities (a card one, a MADA one) routes by. */
  readonly authentication?: { readonly entityId: string };
}

/** A registration (saved card) created, updated or deleted; masked card data only. */
export interface RegistrationNotification {
  readonly type: 'REGISTRATION';
  readonly action: RegistrationAction;
  readonly payload: Registration;
}

/** A risk check's outcome. Neither the API reference nor the platform's notes show its fields beyond an id and a result, so the rest is open. */
export interface RiskNotification {
  readonly type: 'RISK';
  readonly action?: string;
  readonly payload: { readonly id?: string; readonly result?: GatewayResult; readonly [field: string]: unknown };
}

/**
 * The notification the platform sends when a listener is registered or tested
 * from its dashboard (`"type": "test"`, `"action": "webhook activation"`). Answer
 * it 200 like any other, or the registration fails; it carries no payment.
 */
export interface TestNotification {
  readonly type: 'test';
  readonly action?: string;
  readonly payload: { readonly id?: string; readonly result?: GatewayResult; readonly [field: string]: unknown };
}

export type Notification = PaymentNotification | RegistrationNotification | RiskNotification | TestNotification;
